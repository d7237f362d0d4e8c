"""The journalled undo of a whole pass: every file it touched back to the snapshot's bytes
and modification time.

Files the pass changed or removed are written back first (each body is then in its own
file again), files it created are removed after, and folders it created are removed when
empty. Each part looks at the disk first, so a run interrupted anywhere finishes on `recover`.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from prune_memory.engine.steps.kit import Step, StepOutcome
from prune_memory.store.files import (
    StepConflict,
    copy_times,
    ensure_file,
    remove_empty_folder,
    remove_if,
    replace_if,
    sha256,
    sha_or_none,
)
from prune_memory.store.snapshot import read_snapshot_file, stored_path


def run_undo_pass(root: Path, step: Step) -> StepOutcome:
    """Put every recorded file back as the snapshot holds it (or remove it)."""
    snapshot = Path(step["snapshot"])
    files = [(_relative(rel), after, before) for rel, after, before in step["files"]]
    for rel, after, before in sorted(files, key=lambda f: f[2] is None):
        current = sha_or_none(root / rel)
        if current == before:
            if before is not None:  # written back before a crash: its time may not be
                copy_times(snapshot / stored_path(rel), root / rel)
            continue
        if current != after:
            raise StepConflict(f"{rel} changed while the pass was being undone; left as it is")
        if before is None:
            remove_if(root / rel, str(after))
            continue
        data = read_snapshot_file(snapshot, rel)
        if data is None or sha256(data) != before:
            raise StepConflict(f"{rel} is missing from the snapshot {snapshot}")
        if after is None:  # the pass removed it
            ensure_file(root / rel, data)
        else:  # only over what the pass left; a line appended meanwhile is kept
            replace_if(root / rel, str(after), data)
        copy_times(snapshot / stored_path(rel), root / rel)
    for rel in sorted((_relative(d) for d in step.get("dirs", [])), key=len, reverse=True):
        remove_empty_folder(root / rel)
    return StepOutcome("undo", step["file"], "done", f"{len(files)} file(s) put back")


def _relative(rel: object) -> str:
    """A path under the memory directory, as the pass record names it; anything else is a
    record the tool never writes (ValueError: `recover` sets it aside)."""
    path = PurePosixPath(str(rel))
    if not str(rel) or path.is_absolute() or ".." in path.parts:
        raise ValueError(f"undo record names {rel!r}, which is not inside the memory "
                         "directory")
    return str(rel)
