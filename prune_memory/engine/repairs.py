"""Apply step 9's repairs through the engine's journal, each logged as a change row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from prune_memory.engine.journal import OneStep, StepOutcome, execute, kind, pack, unpack
from prune_memory.engine.results import Applied, ApplyResult, Skipped, applied_from
from prune_memory.engine.session import writing
from prune_memory.errors import PruneMemoryError
from prune_memory.model import INDEX_FILE, JSON
from prune_memory.secrets.mask import mask_text
from prune_memory.store import atomic
from prune_memory.store.files import read_or_none, sha256, sha_or_none
from prune_memory.store.index_edit import add_line, drop_line, retarget_line, rewrite_line
from prune_memory.store.pruninglog import log_once
from prune_memory.store.snapshot import Snapshot, require_snapshot

RULE = "9-resynthesis"
DROPS = ("drop-dangling", "drop-outside")  # repairs that take an index line out
RETARGETS = ("fix-link", "relink-outside")  # repairs that point a link elsewhere
_LINE_GOES = (*DROPS, "rename-line")  # the log keeps the old line


def apply_repairs(root: Path, repairs: Sequence[JSON], *, snapshot: Snapshot,
                  now: datetime) -> ApplyResult:
    """Carry out each repair; one that no longer fits the files is skipped with a reason."""
    require_snapshot(snapshot, root)
    applied: list[Applied] = []
    skipped: list[Skipped] = []
    for repair in repairs:
        try:
            applied.append(_apply_one(root, repair, snapshot, now))
        except PruneMemoryError as err:
            skipped.append(Skipped(str(repair.get("file", INDEX_FILE)), str(err),
                                   int(err.exit_code)))
    return ApplyResult(applied=tuple(applied), skipped=tuple(skipped))


def repaired(raw: bytes, repair: JSON) -> bytes:
    """MEMORY.md with one repair made: what applying it writes, and what a preview shows."""
    kind = repair["kind"]
    if kind in DROPS:
        return drop_line(raw, repair["line"], repair["text"])
    if kind in RETARGETS:
        return retarget_line(raw, repair["line"], repair["text"], repair["from"], repair["to"])
    if kind == "index-orphan":
        return add_line(raw, repair["line"], repair["section"])
    if kind == "rename-line":
        return rewrite_line(raw, repair["line"], repair["text"], repair["to"])
    raise ValueError(f"unknown repair {kind!r}")


def _apply_one(root: Path, repair: JSON, snapshot: Snapshot, now: datetime) -> Applied:
    what = repair["kind"]
    with writing(root):
        before = read_or_none(root / INDEX_FILE)  # None: there is no index yet
        new = repaired(before or b"", repair)
        row = (now.date().isoformat(), what, f"`{INDEX_FILE}`", "N/A",
               mask_text(f"{repair.get('rule', RULE)}: {repair['why']}" + (
                   f" (was: {repair['text']})" if what in _LINE_GOES else "")))
        step = ReplaceStep(file=INDEX_FILE,
                           before_sha256=sha256(before) if before is not None else None,
                           data=pack(new), after_sha256=sha256(new), row=row)
        done = applied_from(execute(root, step))
        said = repair["why"] if done.status == "done" else done.message  # why it was not
        return replace(done, message=f"{what}: {said}")


@kind
@dataclass(frozen=True)
class ReplaceStep(OneStep):
    """A file's bytes replaced if it still holds what the plan saw; skipped if it changed.
    A `before_sha256` of None means the plan saw no file, so the step creates it."""

    OP: ClassVar[str] = "update"
    file: str
    before_sha256: str | None
    data: str
    after_sha256: str
    row: tuple[str, ...]

    def run(self, root: Path) -> StepOutcome:
        data = unpack(self.data)
        # Not the bytes the step expects: keep them (a late write is even put back).
        atomic.rewrite(root / self.file, lambda current: data if (
            None if current is None else sha256(current)) == self.before_sha256 else current)
        if sha_or_none(root / self.file) != self.after_sha256:
            return StepOutcome("update", self.file, "rolled-back",
                               f"{self.file} changed after the update began; left as it is now")
        log_once(root, self.row)
        return StepOutcome("update", self.file, "done", "updated")
