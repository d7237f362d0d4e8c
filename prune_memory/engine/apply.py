"""The deaccession engine: withdraw, inoculate, update, protect, unprotect, restore, recover.

Every write operation takes the directory's lock, first finishes any step a crash left in
the journal, checks the protected list, then compares the file's hash with the one the
caller expected. Withdraw, inoculate and update also require a verified `Snapshot`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from prune_memory.engine.batch import sort_requests, withdraw_batch
from prune_memory.engine.build import (
    read_current,
    superseded_json,
    superseded_record,
    withdraw_step,
)
from prune_memory.engine.build_line import current_line, is_index_line, withdraw_line_step
from prune_memory.engine.build_update import NewText, update_step
from prune_memory.engine.build_update_line import update_line_step
from prune_memory.engine.edits.corrected import body_written
from prune_memory.engine.protect import protect, unprotect, writable
from prune_memory.engine.restore import restore
from prune_memory.engine.results import (
    Applied,
    ApplyResult,
    Skipped,
    WithdrawRequest,
    applied_from,
    result,
    with_vault_note,
)
from prune_memory.engine.session import recover, writing
from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.engine.steps.recovery import StepInterrupted, execute
from prune_memory.errors import BadInputError, PruneMemoryError, RefusedError
from prune_memory.plan import Inoculation
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import read_log_text
from prune_memory.store.logtable import code_name
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import Snapshot, require_snapshot

__all__ = ["Applied", "ApplyResult", "Inoculation", "Skipped", "WithdrawRequest", "inoculate",
           "protect", "recover", "restore", "unprotect", "update_entry", "withdraw",
           "withdraw_many", "writing"]


def withdraw(root: Path, request: WithdrawRequest, *, snapshot: Snapshot,
             now: datetime) -> ApplyResult:
    """Withdraw one entry into a tombstone; RefusedError when it is protected or changed."""
    outcome = withdraw_many(root, [request], snapshot=snapshot, now=now)
    _raise_skipped(outcome)
    return outcome


def withdraw_many(root: Path, requests: Sequence[WithdrawRequest], *, snapshot: Snapshot,
                  now: datetime) -> ApplyResult:
    """Withdraw the entries: the topic files as one journalled batch (`batch.py`), facts in
    MEMORY.md one step each; refused ones are skipped, not fatal."""
    require_snapshot(snapshot, root)
    applied: list[Applied] = []
    skipped: list[Skipped] = []
    leaving = {request.file for request in requests}
    with writing(root) as notes:
        batch, singles = sort_requests(root, requests, skipped)
        if batch:
            done, refused = withdraw_batch(root, batch, manifest=snapshot.manifest, now=now,
                                           spare=leaving)
            applied += done
            skipped += refused
        for request in singles:
            try:
                applied.append(_withdraw_one(root, request, snapshot, now, spare=leaving))
            except StepInterrupted:
                raise  # a step is left in the journal: no further step may start
            except PruneMemoryError as err:
                skipped.append(Skipped(request.file, str(err), int(err.exit_code)))
    return result(root, read_log(root), applied, skipped, notes)


def inoculate(root: Path, file: str, inoculation: Inoculation, *, snapshot: Snapshot,
              now: datetime, withdraw: WithdrawRequest | None = None,
              expected_sha256: str | None = None) -> ApplyResult:
    """Write a SUPERSEDED counter-memory for `file`; with `withdraw`, also tombstone the file."""
    require_snapshot(snapshot, root)
    with writing(root) as notes:
        if withdraw is not None:
            done = _withdraw_one(root, withdraw, snapshot, now, inoculation, spare=set())
        else:
            done = _inoculate_only(root, file, inoculation, now, expected_sha256)
    return result(root, read_log(root), [done], [], notes)


def update_entry(root: Path, file: str, body: str, *, reason: str, snapshot: Snapshot,
                 now: datetime, expected_sha256: str | None = None,
                 rule: str = "4-stale-known-correction", description: str | None = None,
                 index_line: str | None = None, memory_class: str | None = None,
                 pairs: tuple[tuple[str, str], ...] = ()) -> ApplyResult:
    """Rewrite an entry's body, description and index line together (`modified:` stamped);
    the earlier version is kept as a tombstone with a register id, so `restore` reverts it.
    Without an explicit description or index line, the body's corrections carry over; a
    drift correction marks each body line it changed `[corrected <date>]`."""
    require_snapshot(snapshot, root)
    if is_index_line(file):
        return _update_line(root, file, body, reason=reason, snapshot=snapshot, now=now,
                            expected_sha256=expected_sha256, rule=rule)
    with writing(root) as notes:
        name = writable(root, file)
        current = read_current(root, name, expected_sha256)
        body = body_written(current.raw, body, rule, now)
        step = update_step(root, current, NewText(body, description, index_line, pairs),
                           reason=reason, rule=rule, memory_class=memory_class,
                           log_text=read_log_text(root), manifest=snapshot.manifest, now=now)
        done = applied_from(_carried_out(root, step), register_id=step["register_id"],
                            tombstone=step["tombstone"])
    return result(root, read_log(root), [done], [], notes)


def _update_line(root: Path, file: str, line_text: str, *, reason: str, snapshot: Snapshot,
                 now: datetime, expected_sha256: str | None, rule: str) -> ApplyResult:
    """A fact written in MEMORY.md: its one line swapped, registered and reversible."""
    with writing(root) as notes:
        line = current_line(root, writable(root, file), expected_sha256, snapshot.manifest)
        step = update_line_step(root, line, line_text.rstrip("\r\n"), reason=reason, rule=rule,
                                log_text=read_log_text(root), manifest=snapshot.manifest,
                                now=now)
        done = applied_from(_carried_out(root, step), register_id=step["register_id"],
                            tombstone=step["tombstone"])
    return result(root, read_log(root), [done], [], notes)


def _withdraw_one(root: Path, request: WithdrawRequest, snapshot: Snapshot, now: datetime,
                  inoculation: Inoculation | None = None, spare: set[str] | None = None) -> Applied:
    name = writable(root, request.file)
    if is_index_line(name):
        line = current_line(root, name, request.expected_sha256, snapshot.manifest)
        step = withdraw_line_step(root, line, read_log_text(root), reason=request.reason,
                                  rule=request.rule, memory_class=request.memory_class,
                                  manifest=snapshot.manifest, now=now, ino=inoculation)
    else:
        current = read_current(root, name, request.expected_sha256)
        step = withdraw_step(root, current, read_log_text(root), reason=request.reason,
                             rule=request.rule, memory_class=request.memory_class,
                             manifest=snapshot.manifest, now=now, ino=inoculation,
                             spare=spare if request.unlink else None)
    outcome = _carried_out(root, step)
    sup = step["superseded"]
    done = applied_from(outcome, register_id=step["register_id"], tombstone=step["tombstone"],
                        superseded=sup["file"] if sup else None,
                        linked=tuple(e["file"] for e in step.get("link_edits") or []))
    return with_vault_note(done, step.get("vault"))


def _inoculate_only(root: Path, file: str, ino: Inoculation, now: datetime,
                    expected_sha256: str | None) -> Applied:
    name = _topic_only(writable(root, file), "inoculated only together with its withdrawal")
    read_current(root, name, expected_sha256)
    record = superseded_record(root, name, ino, now, supersedes=name)
    row = [now.date().isoformat(), "inoculated", code_name(name), "N/A",
           mask_text(f"counter-memory {record.file}: {ino.abandonment_reason}")]
    step = {"op": "inoculate", "file": name, "superseded": superseded_json(record), "row": row}
    return applied_from(_carried_out(root, step), superseded=record.file)


def _carried_out(root: Path, step: Step) -> StepOutcome:
    """Run one journalled step; anything short of done refuses the command."""
    outcome = execute(root, step)
    if outcome.status != "done":
        raise RefusedError(outcome.message)
    return outcome


def _topic_only(name: str, what: str) -> str:
    if is_index_line(name):
        raise BadInputError(f"{name} is a fact written in MEMORY.md; such a line can be {what}")
    return name


def _raise_skipped(outcome: ApplyResult) -> None:
    if outcome.skipped:
        first = outcome.skipped[0]
        error = BadInputError if first.code == BadInputError.exit_code else RefusedError
        raise error(first.reason)
