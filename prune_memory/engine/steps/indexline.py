"""The steps for a fact written straight into MEMORY.md (`MEMORY.md#L<n>`), where the index
line is the memory itself.

Withdraw: SUPERSEDED file (when inoculating) → tombstone, verified → register row (the
commit point) → the line out of MEMORY.md (the SUPERSEDED line takes its place in the same
write). Before the commit point the line is untouched, so a line someone changed meanwhile
rolls the step back; after it, the line is taken out. Identical lines may sit elsewhere in
the index, so "already done" is judged by how many copies of the text there are.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from prune_memory.engine.edits import indexedit, indexlines
from prune_memory.engine.edits.log_rows import add_change_row, add_register_row, contains_row
from prune_memory.engine.steps.journal import unpack
from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.engine.steps.simple import drop_superseded, relink
from prune_memory.engine.tombstone import IndexLineRecord
from prune_memory.model import INDEX_FILE
from prune_memory.store.files import (
    StepConflict,
    edit_index,
    ensure_file,
    read_log_text,
    read_or_none,
    remove_if,
    write_log_text,
)
from prune_memory.store.logscan import has_register_row
from prune_memory.store.pruninglog import ChangeRow, RegisterRow


def run_withdraw_line(root: Path, step: Step) -> StepOutcome:
    """Carry out (or finish) the withdrawal of one inline fact."""
    if not has_register_row(read_log_text(root), step["register_id"]):
        if _copies(root, step["line"]) < step["copies"]:
            return _roll_back(root, step)  # the line changed before the commit point
        sup = step.get("superseded")
        try:
            if sup:
                ensure_file(root / sup["file"], unpack(sup["data"]))
            ensure_file(root / step["tombstone"], unpack(step["tombstone_data"]))
        except StepConflict:
            return _roll_back(root, step)  # the line is still in the index: nothing is lost
        text = add_register_row(read_log_text(root), RegisterRow(*step["row"]),
                                manifest=step["manifest"], date=step["date"])
        write_log_text(root, text)
    edit_index(root, lambda raw: _take_out(raw, step))
    return StepOutcome("withdraw", step["file"], "done", f"withdrawn as {step['register_id']}")


def run_restore_line(root: Path, step: Step) -> StepOutcome:
    """Put the fact's line back where it was and log the restoration."""
    (record,) = _records(step, "index_lines")
    hints = _records(step, "hints")

    def put_back(raw: bytes) -> bytes:
        if indexlines.count_line(raw, record.text) > step["copies"]:
            return raw  # already back
        return indexlines.insert_line(raw, record, hints, step.get("restored", []))

    drop_superseded(root, step)
    edit_index(root, put_back)
    relink(root, step)
    text = read_log_text(root)
    if not contains_row(text, tuple(step["row"])):
        write_log_text(root, add_change_row(text, ChangeRow(*step["row"])))
    return StepOutcome("restore", step["file"], "done", step.get("message", ""))


def _take_out(raw: bytes, step: Step) -> bytes:
    sup = step.get("superseded")
    replacement = sup["index_line"] if sup else None
    if indexlines.count_line(raw, step["line"]) >= step["copies"]:
        return indexlines.remove_line(raw, step["line"], step["at"], replacement)
    if replacement is None or indexedit.has_line(raw, replacement):
        return raw
    # The line went some other way after the commit point: keep the counter-memory indexed.
    (record,) = _records(step, "index_lines")
    return indexedit.restore_lines(raw, [replace(record, text=replacement)])


def _roll_back(root: Path, step: Step) -> StepOutcome:
    """Before the commit point: remove what the step wrote; the index stays as it is."""
    remove_if(root / step["tombstone"], step["tombstone_sha256"])
    sup = step.get("superseded")
    if sup:
        remove_if(root / sup["file"], sup["sha256"])
    return StepOutcome("withdraw", step["file"], "rolled-back",
                       f"{step['file']} changed after the withdrawal began (or a file name it "
                       "needed was taken); the withdrawal was undone and the index left as is")


def _copies(root: Path, text: str) -> int:
    return indexlines.count_line(read_or_none(root / INDEX_FILE) or b"", text)


def _records(step: Step, key: str) -> list[IndexLineRecord]:
    return [IndexLineRecord.from_json(item) for item in step.get(key, [])]
