"""The journalled step of a re-accession: a new memory file, its index line, a change row.

Idempotent like every step: a file already holding the bytes is left alone, an index line
already pointing at the file is not added twice, a row already logged is not logged again.
"""

from __future__ import annotations

from pathlib import Path

from prune_memory.engine.edits.index_links import linking_lines
from prune_memory.engine.edits.index_repair import add_line
from prune_memory.engine.steps.journal import unpack
from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.engine.steps.simple import log_once
from prune_memory.store.files import StepConflict, edit_index, ensure_file


def run_reaccession(root: Path, step: Step) -> StepOutcome:
    file = step["file"]
    try:
        ensure_file(root / file, unpack(step["data"]))
    except StepConflict:
        return StepOutcome("reaccession", file, "rolled-back",
                           f"{file} appeared with other content; nothing was written")

    def with_line(raw: bytes) -> bytes:
        text = raw.decode("utf-8", errors="replace")
        if linking_lines(text.splitlines(), file):
            return raw
        return add_line(raw, step["index_line"], step["section"])

    edit_index(root, with_line)
    log_once(root, step["row"])
    return StepOutcome("reaccession", file, "done", step.get("message", ""))
