"""The withdrawal step, in the order that keeps every body in one place at every moment:

SUPERSEDED file (when inoculating) → tombstone, verified → index line(s) out → register
row (the commit point) → original removed. Each part checks the disk first, so the same
step run again after a crash finishes the job.
"""

from __future__ import annotations

from pathlib import Path

from prune_memory.engine.edits import indexedit
from prune_memory.engine.edits.log_rows import add_change_row, add_register_row
from prune_memory.engine.edits.wikilinks import LinkEdit, apply_edit, revert_edit
from prune_memory.engine.steps.journal import unpack
from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.engine.tombstone import IndexLineRecord
from prune_memory.store.files import (
    StepConflict,
    edit_index,
    ensure_file,
    inside,
    read_log_text,
    read_or_none,
    remove_if,
    sha256,
    sha_or_none,
    write_log_text,
)
from prune_memory.store.logscan import has_register_row
from prune_memory.store.logtable import code_name
from prune_memory.store.pruninglog import ChangeRow, RegisterRow, parse_log


def run_withdraw(root: Path, step: Step) -> StepOutcome:
    """Carry out (or finish) one withdrawal step described by its journal record."""
    file = step["file"]
    for name in (file, step["tombstone"], *([step["superseded"]["file"]]
                                            if step.get("superseded") else []),
                 *(edit.file for edit in link_edits(step))):
        inside(root, name)
    current = sha_or_none(root / file)
    committed = _row_written(root, step)
    if current not in (None, step["original_sha256"]):
        return cancel(root, step) if committed else roll_back(root, step)
    try:
        sup = step.get("superseded")
        if sup:
            ensure_file(root / sup["file"], unpack(sup["data"]))
        ensure_file(root / step["tombstone"], tombstone_bytes(root, step))
    except StepConflict:
        if sha_or_none(root / file) is None:
            raise  # the file is gone and no tombstone of ours holds it: keep it for a human
        return cancel(root, step) if committed else roll_back(root, step)
    replacement = sup["index_line"] if sup else None
    edit_index(root, lambda raw: indexedit.remove_entry(raw, file, replacement)[0])
    if not committed:
        text = add_register_row(read_log_text(root), RegisterRow(*step["row"]),
                                manifest=step["manifest"], date=step["date"])
        write_log_text(root, text)
    if sha_or_none(root / file) not in (None, step["original_sha256"]):
        return cancel(root, step)  # changed while we worked: keep the newer text
    edited = [e.file for e in link_edits(step) if apply_edit(root, e)]
    remove_if(root / file, step["original_sha256"])
    said = f"; unlinked the links to it in {', '.join(edited)}" if edited else ""
    return StepOutcome("withdraw", file, "done", f"withdrawn as {step['register_id']}{said}")


def link_edits(step: Step) -> list[LinkEdit]:
    return [LinkEdit.from_json(item) for item in step.get("link_edits") or []]


def tombstone_bytes(root: Path, step: Step) -> bytes:
    """The recorded header, then the original as its file holds it now. The record keeps
    only the header, so no body (and no secret in one) sits in the journal; the original is
    removed only after its tombstone is verified, so it is there whenever this is needed."""
    if "tombstone_data" in step:  # a record written before the header-only journal
        return unpack(step["tombstone_data"])
    written = read_or_none(root / step["tombstone"])
    if written is not None and sha256(written) == step["tombstone_sha256"]:
        return written
    original = read_or_none(root / step["file"])
    if original is None or sha256(original) != step["original_sha256"]:
        raise StepConflict(f"{step['file']} disappeared before its tombstone was written; "
                           f"its bytes are in the snapshot {step['manifest']}")
    return unpack(step["tombstone_header"]) + original


def _row_written(root: Path, step: Step) -> bool:
    return has_register_row(read_log_text(root), step["register_id"])


def _records(step: Step) -> list[IndexLineRecord]:
    return [IndexLineRecord.from_json(item) for item in step.get("index_lines", [])]


def roll_back(root: Path, step: Step) -> StepOutcome:
    """Before the commit point: undo what the step wrote; the file keeps its new content."""
    remove_if(root / step["tombstone"], step["tombstone_sha256"])
    sup = step.get("superseded")
    if sup:
        remove_if(root / sup["file"], sup["sha256"])
        edit_index(root, lambda raw: _drop_line(raw, sup["index_line"]))
    edit_index(root, lambda raw: indexedit.restore_lines(raw, _records(step)))
    return StepOutcome("withdraw", step["file"], "rolled-back",
                       f"{step['file']} changed after the withdrawal began; the withdrawal "
                       "was undone and the file kept as it is now")


def cancel(root: Path, step: Step) -> StepOutcome:
    """After the commit point the file changed: keep it, re-index it, put back any links
    unlinked for it, log the cancellation."""
    edit_index(root, lambda raw: indexedit.restore_lines(raw, _records(step)))
    for edit in link_edits(step):
        revert_edit(root, edit)
    row = ChangeRow(step["date"], "withdrawal-cancelled", code_name(step["file"]),
                    step["register_id"], "the file changed during the withdrawal; the newer "
                    f"text was kept, the tombstone {step['tombstone']} holds the older one")
    text = read_log_text(root)
    if parse_log(text).restoration(step["register_id"]) is None and not any(
            c.register_id == step["register_id"] and c.change == row.change
            for c in parse_log(text).changes):
        write_log_text(root, add_change_row(text, row))
    return StepOutcome("withdraw", step["file"], "cancelled", row.reason)


def _drop_line(raw: bytes, line: str) -> bytes:
    index = indexedit.IndexText.parse(raw)
    if line not in index.lines:
        return raw
    at = index.lines.index(line)
    del index.lines[at]
    del index.eols[at]
    return index.render()
