"""`withdraw_many`: the topic files of a pass withdrawn as one journalled batch.

The index, the log and the kept files' `[[links]]` are read once, and each withdrawal is
worked out as if the ones before it were done (`drafting.py`, `edits/index_batch.py`), so
a pass that withdraws hundreds of entries costs one rewrite of MEMORY.md and one of the
log, not one of each per entry. Facts written in MEMORY.md itself go one step each.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from prune_memory.engine.build import Current, plan_withdrawal, read_current, withdrawal_record
from prune_memory.engine.build_line import is_index_line
from prune_memory.engine.drafting import Drafting
from prune_memory.engine.edits.index_batch import remove_entries
from prune_memory.engine.protect import writable
from prune_memory.engine.results import (
    Applied,
    Skipped,
    WithdrawRequest,
    applied_from,
    with_vault_note,
)
from prune_memory.engine.steps.kit import StepOutcome
from prune_memory.engine.steps.recovery import execute_all
from prune_memory.errors import ExitCode, PruneMemoryError
from prune_memory.model import INDEX_FILE
from prune_memory.store.files import read_log_text, read_or_none
from prune_memory.store.logscan import protected_in

Accepted = tuple[Current, WithdrawRequest]


def sort_requests(root: Path, requests: Sequence[WithdrawRequest],
                  skipped: list[Skipped]) -> tuple[list[Accepted], list[WithdrawRequest]]:
    """The topic files that may go in the batch (read and checked now), and the requests
    that go one step each (facts in MEMORY.md, withdrawals that leave links alone). A
    refused request is added to `skipped`."""
    protected = protected_in(read_log_text(root))
    batch: list[Accepted] = []
    singles: list[WithdrawRequest] = []
    seen: set[str] = set()
    for request in requests:
        try:
            name = writable(root, request.file, protected)
            if is_index_line(name) or not request.unlink:
                singles.append(request)
            elif name in seen:
                skipped.append(Skipped(name, "listed twice; withdrawn once",
                                       int(ExitCode.REFUSED)))
            else:
                batch.append((read_current(root, name, request.expected_sha256), request))
                seen.add(name)
        except PruneMemoryError as err:
            skipped.append(Skipped(request.file, str(err), int(err.exit_code)))
    return batch, singles


def withdraw_batch(root: Path, batch: Sequence[Accepted], *, manifest: Path, now: datetime,
                   spare: set[str]) -> tuple[list[Applied], list[Skipped]]:
    """Journal and carry out the batch; what was withdrawn, and what was not."""
    step = batch_step(root, batch, manifest=manifest, now=now, spare=spare)
    applied: list[Applied] = []
    skipped: list[Skipped] = []
    for entry, outcome in zip(step["entries"], execute_all(root, step), strict=True):
        if outcome.status == "done":
            applied.append(_applied(entry, outcome))
        else:
            skipped.append(Skipped(outcome.file, outcome.message, int(ExitCode.REFUSED)))
    return applied, skipped


def batch_step(root: Path, batch: Sequence[Accepted], *, manifest: Path, now: datetime,
               spare: set[str]) -> dict[str, Any]:
    """The journal record of the whole batch: one withdrawal record per entry, in order."""
    _, removed = remove_entries(read_or_none(root / INDEX_FILE) or b"",
                                [current.file for current, _ in batch])
    drafting = Drafting.read(root, read_log_text(root), now, spare)
    entries = []
    for (current, request), records in zip(batch, removed, strict=True):
        done = plan_withdrawal(root, current, drafting, reason=request.reason,
                               rule=request.rule, memory_class=request.memory_class, now=now,
                               ino=None, index_lines=records)
        entries.append(withdrawal_record(current, records, done, manifest, now))
    return {"op": "withdraw-batch", "file": f"{len(entries)} entries", "entries": entries}


def _applied(entry: dict[str, Any], outcome: StepOutcome) -> Applied:
    done = applied_from(outcome, register_id=entry["register_id"],
                        tombstone=entry["tombstone"],
                        linked=tuple(e["file"] for e in entry.get("link_edits") or []))
    return with_vault_note(done, entry.get("vault"))
