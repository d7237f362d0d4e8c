"""The journalled update of a memory, and its revert. Each is idempotent.

Update: tombstone of the earlier version, verified → register row (the commit point) →
the new bytes → the index line(s) rewritten. Before the commit point a file someone else
changed rolls the step back; after it, the newer text wins and the change is logged.
Revert: the earlier bytes back while the file still holds what the update wrote → the
index lines back → a `restored` row.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from prune_memory.engine.edits import indexedit, indexlines
from prune_memory.engine.edits.log_rows import add_register_row
from prune_memory.engine.steps.journal import unpack
from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.engine.steps.simple import log_once, restore_bytes
from prune_memory.engine.steps.withdraw import tombstone_bytes
from prune_memory.model import INDEX_FILE
from prune_memory.store.files import (
    StepConflict,
    edit_index,
    ensure_file,
    inside,
    read_log_text,
    read_or_none,
    remove_if,
    replace_if,
    sha_or_none,
    write_log_text,
)
from prune_memory.store.logscan import has_register_row
from prune_memory.store.logtable import code_name
from prune_memory.store.pruninglog import RegisterRow


def run_update_entry(root: Path, step: Step) -> StepOutcome:
    """Carry out (or finish) one update described by its journal record."""
    file, rid = step["file"], step["register_id"]
    target, stone = inside(root, file), inside(root, step["tombstone"])
    if not has_register_row(read_log_text(root), rid):
        if sha_or_none(target) != step["original_sha256"]:
            return _roll_back(root, step)
        try:
            ensure_file(stone, tombstone_bytes(root, step))
        except StepConflict:
            return _roll_back(root, step)
        text = add_register_row(read_log_text(root), RegisterRow(*step["row"]),
                                manifest=step["manifest"], date=step["date"])
        write_log_text(root, text)
    if sha_or_none(target) == step["original_sha256"]:
        replace_if(target, step["original_sha256"], unpack(step["data"]))
    if sha_or_none(target) != step["after_sha256"]:
        reason = (f"{file} changed during the update; the newer text was kept, the tombstone "
                  f"{step['tombstone']} holds the earlier one")
        log_once(root, [step["date"], "update-cancelled", code_name(file), rid, reason])
        return StepOutcome("update", file, "cancelled", reason)
    rewrite_lines(root, step["index_change"])
    return StepOutcome("update", file, "done", f"updated as {rid}")


def run_revert_update(root: Path, step: Step) -> StepOutcome:
    """Put back the version an update replaced, with its index lines."""
    file = step["file"]
    target = inside(root, file)
    if sha_or_none(target) == step["updated_sha256"]:
        replace_if(target, step["updated_sha256"], restore_bytes(root, step))
    if sha_or_none(target) != step["original_sha256"]:
        return StepOutcome("restore", file, "rolled-back",
                           f"{file} changed since the update; nothing was restored — its "
                           f"earlier version is in {step['source'].get('tombstone')}")
    rewrite_lines(root, step["index_change"])
    log_once(root, step["row"])
    return StepOutcome("restore", file, "done", step.get("message", ""))


def rewrite_lines(root: Path, changes: list[list[str]]) -> None:
    """Each (old, new) index line: the copy of old becomes new, unless new is already there."""
    for old, new in changes:
        edit_index(root, partial(_swap_line, old=old, new=new))


def _swap_line(raw: bytes, *, old: str, new: str) -> bytes:
    return raw if indexedit.has_line(raw, new) else indexlines.remove_line(raw, old, 0, new)


def _roll_back(root: Path, step: Step) -> StepOutcome:
    remove_if(root / step["tombstone"], step["tombstone_sha256"])
    return StepOutcome("update", step["file"], "rolled-back",
                       f"{step['file']} changed before the update was written; left as it is")



def run_update_line(root: Path, step: Step) -> StepOutcome:
    """Carry out (or finish) the update of one inline fact: tombstone of the earlier line,
    verified → register row (the commit point) → the line swapped."""
    file, rid = step["file"], step["register_id"]
    if not has_register_row(read_log_text(root), rid):
        raw = read_or_none(root / INDEX_FILE) or b""
        if not indexedit.has_line(raw, step["line"]):
            return StepOutcome("update", file, "rolled-back",
                               f"{file} changed before the update was written; left as it is")
        try:
            ensure_file(inside(root, step["tombstone"]), unpack(step["tombstone_data"]))
        except StepConflict:
            return StepOutcome("update", file, "rolled-back",
                               f"{step['tombstone']} is taken; {file} left as it is")
        write_log_text(root, add_register_row(read_log_text(root), RegisterRow(*step["row"]),
                                              manifest=step["manifest"], date=step["date"]))
    rewrite_lines(root, [[step["line"], step["new_line"]]])
    if not indexedit.has_line(read_or_none(root / INDEX_FILE) or b"", step["new_line"]):
        reason = (f"{file} changed during the update; the newer line was kept, the tombstone "
                  f"{step['tombstone']} holds the earlier one")
        log_once(root, [step["date"], "update-cancelled", code_name(file), rid, reason])
        return StepOutcome("update", file, "cancelled", reason)
    return StepOutcome("update", file, "done", f"updated as {rid}")


def run_revert_update_line(root: Path, step: Step) -> StepOutcome:
    """Swap an updated fact's line back, while the index still holds what the update wrote."""
    file = step["file"]
    raw = read_or_none(root / INDEX_FILE) or b""
    if not indexedit.has_line(raw, step["new_line"]):
        if not indexedit.has_line(raw, step["line"]):
            return StepOutcome("restore", file, "rolled-back",
                               f"{file} changed since the update; nothing was restored — its "
                               f"earlier line is in {step['source'].get('tombstone')}")
        rewrite_lines(root, [[step["line"], step["new_line"]]])
    log_once(root, step["row"])
    return StepOutcome("restore", file, "done", step.get("message", ""))
