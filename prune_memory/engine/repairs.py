"""Apply step 9's repairs through the engine's journal, each logged as a change row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from prune_memory.engine.edits.index_repair import add_line, drop_line, retarget_line, rewrite_line
from prune_memory.engine.results import Applied, ApplyResult, Skipped, applied_from
from prune_memory.engine.session import writing
from prune_memory.engine.steps.journal import pack
from prune_memory.engine.steps.recovery import execute
from prune_memory.errors import PruneMemoryError
from prune_memory.model import INDEX_FILE, JSON
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import read_or_none, sha256
from prune_memory.store.snapshot import Snapshot, require_snapshot

RULE = "9-resynthesis"


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
    if kind == "drop-dangling":
        return drop_line(raw, repair["line"], repair["text"])
    if kind == "fix-link":
        return retarget_line(raw, repair["line"], repair["text"], repair["from"], repair["to"])
    if kind == "index-orphan":
        return add_line(raw, repair["line"], repair["section"])
    if kind == "rename-line":
        return rewrite_line(raw, repair["line"], repair["text"], repair["to"])
    raise ValueError(f"unknown repair {kind!r}")


def _apply_one(root: Path, repair: JSON, snapshot: Snapshot, now: datetime) -> Applied:
    kind = repair["kind"]
    with writing(root):
        before = read_or_none(root / INDEX_FILE)  # None: there is no index yet
        new = repaired(before or b"", repair)
        row = [now.date().isoformat(), kind, f"`{INDEX_FILE}`", "N/A",
               mask_text(f"{repair.get('rule', RULE)}: {repair['why']}" + (
                   f" (was: {repair['text']})" if kind in ("drop-dangling", "rename-line")
                   else ""))]
        step = {"op": "update", "file": INDEX_FILE,
                "before_sha256": sha256(before) if before is not None else None,
                "data": pack(new), "after_sha256": sha256(new), "row": row}
        done = applied_from(execute(root, step))
        said = repair["why"] if done.status == "done" else done.message  # why it was not
        return replace(done, message=f"{kind}: {said}")
