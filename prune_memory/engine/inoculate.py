"""Inoculate: write a SUPERSEDED counter-memory that stops an abandoned approach from being
derived again — alone (`InoculateStep`: the counter-memory and its index line, the entry
stays), or together with the entry's withdrawal (the withdrawal step writes it first)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from prune_memory.engine.entries import is_index_line, read_current
from prune_memory.engine.journal import OneStep, StepOutcome, carried_out, kind, unpack
from prune_memory.engine.protect import writable
from prune_memory.engine.results import (
    Applied,
    ApplyResult,
    WithdrawRequest,
    applied_from,
    result,
)
from prune_memory.engine.session import writing
from prune_memory.engine.superseded import CounterMemory, superseded_record
from prune_memory.engine.withdraw import withdraw_one
from prune_memory.errors import BadInputError
from prune_memory.plan import Inoculation
from prune_memory.secrets.mask import mask_text
from prune_memory.store import index_edit
from prune_memory.store.files import StepConflict, edit_index, ensure_file
from prune_memory.store.pruninglog import code_name, log_once, read_log
from prune_memory.store.snapshot import Snapshot, require_snapshot


def inoculate(root: Path, file: str, inoculation: Inoculation, *, snapshot: Snapshot,
              now: datetime, withdraw: WithdrawRequest | None = None,
              expected_sha256: str | None = None) -> ApplyResult:
    """Write a SUPERSEDED counter-memory for `file`; with `withdraw`, also tombstone the file."""
    require_snapshot(snapshot, root)
    with writing(root) as notes:
        if withdraw is not None:
            done = withdraw_one(root, withdraw, snapshot, now, inoculation, spare=set())
        else:
            done = _inoculate_only(root, file, inoculation, now, expected_sha256)
    return result(root, read_log(root), [done], [], notes)


def _inoculate_only(root: Path, file: str, ino: Inoculation, now: datetime,
                    expected_sha256: str | None) -> Applied:
    name = writable(root, file)
    if is_index_line(name):
        raise BadInputError(f"{name} is a fact written in MEMORY.md; such a line can be "
                            "inoculated only together with its withdrawal")
    read_current(root, name, expected_sha256)
    record = superseded_record(root, name, ino, now, supersedes=name)
    row = (now.date().isoformat(), "inoculated", code_name(name), "N/A",
           mask_text(f"counter-memory {record.file}: {ino.abandonment_reason}"))
    step = InoculateStep(file=name, superseded=CounterMemory.of(record), row=row)
    return applied_from(carried_out(root, step), superseded=record.file)


@kind
@dataclass(frozen=True)
class InoculateStep(OneStep):
    """The SUPERSEDED file and its index line; the original stays where it is."""

    OP: ClassVar[str] = "inoculate"
    file: str
    superseded: CounterMemory
    row: tuple[str, ...]

    def run(self, root: Path) -> StepOutcome:
        sup = self.superseded
        try:
            ensure_file(root / sup.file, unpack(sup.data))
        except StepConflict:
            return StepOutcome("inoculate", self.file, "rolled-back",
                               f"{sup.file} appeared with other content; nothing was written")
        edit_index(root, lambda raw: index_edit.insert_after_entry(raw, self.file,
                                                                  sup.index_line))
        log_once(root, self.row)
        return StepOutcome("inoculate", self.file, "done", f"counter-memory {sup.file}")
