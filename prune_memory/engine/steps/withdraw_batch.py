"""Many withdrawals as one journalled step, in the order that keeps every body in one place:

every tombstone, verified → all their index lines out, in one rewrite of MEMORY.md → all
register rows, in one write of the log (the commit point of the whole batch) → each
original removed. Each entry is a withdrawal record of its own (`steps/withdraw.py`), and
an entry whose file changed is rolled back or cancelled alone, as there; the rest go on.
Run again after a crash, the step finishes the job.
"""

from __future__ import annotations

from pathlib import Path

from prune_memory.engine.edits.index_batch import remove_entries
from prune_memory.engine.edits.log_rows import add_register_rows
from prune_memory.engine.edits.wikilinks import apply_edit
from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.engine.steps.withdraw import cancel, link_edits, roll_back, tombstone_bytes
from prune_memory.store.files import (
    StepConflict,
    edit_index,
    ensure_file,
    inside,
    read_log_text,
    remove_if,
    sha_or_none,
    write_log_text,
)
from prune_memory.store.logscan import first_cells
from prune_memory.store.pruninglog import RegisterRow


def run_withdraw_batch(root: Path, batch: Step) -> list[StepOutcome]:
    """Carry out (or finish) a batch of withdrawals; one outcome per entry, in order."""
    entries: list[Step] = batch["entries"]
    for entry in entries:
        if entry.get("superseded"):
            raise ValueError("a batch withdrawal never writes a SUPERSEDED file")
        for name in (entry["file"], entry["tombstone"], *(e.file for e in link_edits(entry))):
            inside(root, name)
    committed = first_cells(read_log_text(root)) & {e["register_id"] for e in entries}
    outcomes: dict[int, StepOutcome] = {}
    going = [k for k, entry in enumerate(entries)
             if _tombstone_written(root, entry, entry["register_id"] in committed, outcomes, k)]
    files = [entries[k]["file"] for k in going]
    edit_index(root, lambda raw: remove_entries(raw, files)[0])
    rows = [entries[k] for k in going if entries[k]["register_id"] not in committed]
    if rows:
        text = add_register_rows(read_log_text(root), [RegisterRow(*e["row"]) for e in rows],
                                 manifest=rows[0]["manifest"], date=rows[0]["date"])
        write_log_text(root, text)
    for k in going:
        outcomes[k] = _finish(root, entries[k])
    return [outcomes[k] for k in range(len(entries))]


def _tombstone_written(root: Path, entry: Step, committed: bool,
                       outcomes: dict[int, StepOutcome], k: int) -> bool:
    """Write the entry's tombstone; False (with its outcome) when the entry cannot go on."""
    current = sha_or_none(root / entry["file"])
    if current not in (None, entry["original_sha256"]):
        outcomes[k] = cancel(root, entry) if committed else roll_back(root, entry)
        return False
    try:
        ensure_file(root / entry["tombstone"], tombstone_bytes(root, entry))
    except StepConflict:
        if sha_or_none(root / entry["file"]) is None:
            raise  # the file is gone and no tombstone of ours holds it: keep it for a human
        outcomes[k] = cancel(root, entry) if committed else roll_back(root, entry)
        return False
    return True


def _finish(root: Path, entry: Step) -> StepOutcome:
    """After the commit point: unlink `[[links]]` to it, then remove the original."""
    if sha_or_none(root / entry["file"]) not in (None, entry["original_sha256"]):
        return cancel(root, entry)  # changed while we worked: keep the newer text
    edited = [e.file for e in link_edits(entry) if apply_edit(root, e)]
    remove_if(root / entry["file"], entry["original_sha256"])
    said = f"; unlinked the links to it in {', '.join(edited)}" if edited else ""
    return StepOutcome("withdraw", entry["file"], "done",
                       f"withdrawn as {entry['register_id']}{said}")
