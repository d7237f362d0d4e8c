"""The other journalled steps: restore, update and inoculate-only. Each is idempotent."""

from __future__ import annotations

from pathlib import Path

from prune_memory.engine import vault
from prune_memory.engine.edits import indexedit
from prune_memory.engine.edits.log_rows import add_change_row, contains_row
from prune_memory.engine.edits.wikilinks import LinkEdit, revert_edit
from prune_memory.engine.steps.journal import unpack
from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.engine.tombstone import IndexLineRecord, read_tombstone
from prune_memory.store import atomic
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
from prune_memory.store.pruninglog import ChangeRow
from prune_memory.store.snapshot import read_snapshot_file


def run_restore(root: Path, step: Step) -> StepOutcome:
    """Write the original back byte for byte, re-add its index lines, log the restoration."""
    file = step["file"]
    target = inside(root, file)
    data = restore_bytes(root, step)
    try:
        ensure_file(target, data)
    except StepConflict:
        return StepOutcome("restore", file, "rolled-back", f"{file} exists with other "
                           "content; nothing was restored — move it away and restore again")
    records = [IndexLineRecord.from_json(item) for item in step["index_lines"]]
    hints = [IndexLineRecord.from_json(item) for item in step.get("hints", [])]
    drop_superseded(root, step)
    edit_index(root, lambda raw: indexedit.restore_lines(raw, records, hints))
    relink(root, step)
    log_once(root, step["row"])
    return StepOutcome("restore", file, "done", step.get("message", ""))


def drop_superseded(root: Path, step: Step) -> None:
    """The counter-memory the withdrawal wrote, and its index line, go with the restore —
    only while it holds exactly the bytes the withdrawal wrote (the step says so)."""
    sup = step.get("superseded")
    if not sup:
        return
    target = inside(root, sup["file"])  # a name from a tombstone: never a path out
    if sha_or_none(target) == sup["sha256"]:
        edit_index(root, lambda raw: indexedit.remove_entry(raw, sup["file"])[0])
        remove_if(target, sup["sha256"])


def relink(root: Path, step: Step) -> None:
    """Put back the `[[links]]` the withdrawal turned into words in kept memories."""
    for item in step.get("link_edits") or []:
        revert_edit(root, LinkEdit.from_json(item))


def restore_bytes(root: Path, step: Step) -> bytes:
    """The original, read again from the tombstone or snapshot the record names (the record
    holds no body); both stay in place after a restore, so this can run again."""
    if "data" in step:  # a record written before restores named their source
        return unpack(step["data"])
    here = read_or_none(root / step["file"])
    if here is not None and sha256(here) == step["original_sha256"]:
        return here  # already restored
    source = step["source"]
    if "tombstone" in source:
        stone = read_tombstone(root, source["tombstone"])
        data = vault.original_of(root, stone) if stone else None
    else:
        data = read_snapshot_file(Path(source["snapshot"]), source["file"])
    if data is None or sha256(data) != step["original_sha256"]:
        raise StepConflict(f"the source of {step['file']} ({', '.join(source.values())}) is "
                           "gone or changed; nothing was restored")
    return data


def run_update(root: Path, step: Step) -> StepOutcome:
    """Replace a file's bytes if it still holds what the plan saw; skip if it changed. A
    `before_sha256` of None means the plan saw no file, so the update creates it."""
    file = step["file"]
    data = unpack(step["data"])
    # Not the bytes the update expects: keep them (a late write is even put back).
    atomic.rewrite(root / file, lambda current: data if (
        None if current is None else sha256(current)) == step["before_sha256"] else current)
    if sha_or_none(root / file) != step["after_sha256"]:
        return StepOutcome("update", file, "rolled-back",
                           f"{file} changed after the update began; left as it is now")
    log_once(root, step["row"])
    return StepOutcome("update", file, "done", "updated")


def run_inoculate(root: Path, step: Step) -> StepOutcome:
    """Write the SUPERSEDED file and its index line; the original stays where it is."""
    sup = step["superseded"]
    try:
        ensure_file(root / sup["file"], unpack(sup["data"]))
    except StepConflict:
        return StepOutcome("inoculate", step["file"], "rolled-back",
                           f"{sup['file']} appeared with other content; nothing was written")
    edit_index(root, lambda raw: indexedit.insert_after_entry(raw, step["file"],
                                                              sup["index_line"]))
    log_once(root, step["row"])
    return StepOutcome("inoculate", step["file"], "done", f"counter-memory {sup['file']}")


def log_once(root: Path, cells: list[str]) -> None:
    text = read_log_text(root)
    if not contains_row(text, tuple(cells)):
        write_log_text(root, add_change_row(text, ChangeRow(*cells)))


