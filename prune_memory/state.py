"""The tool's own state directory: snapshots, journals, recall logs, crash reports.

It lives outside every memory directory so a prune can never reach it.
"""

from __future__ import annotations

import os
from pathlib import Path

from prune_memory.errors import BadInputError


def state_root() -> Path:
    """`$XDG_STATE_HOME/prune-memory`, else `~/.local/state/prune-memory`."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "prune-memory"


class StateDirError(BadInputError, OSError):
    """The state directory cannot be made or written (read-only, a file in its place): one
    line, exit 2, and still an OSError for the callers that pass over a failed write."""


def private_dir(path: Path) -> Path:
    """Create `path` (and parents) with mode 0700 and return it."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.chmod(0o700)
    return path


def state_subdir(*parts: str) -> Path:
    try:
        root = private_dir(state_root())
        target = root.joinpath(*parts)
        for depth in range(1, len(parts) + 1):
            private_dir(root.joinpath(*parts[:depth]))
    except OSError as err:
        raise unwritable(err) from err
    return target


def unwritable(err: OSError) -> StateDirError:
    where = err.filename or state_root()
    return StateDirError(f"the state directory cannot be written ({err.strerror or err}: "
                         f"{where}); nothing was changed — make it writable, or point "
                         "XDG_STATE_HOME at a folder that is")


def dir_key(memory_dir: Path) -> str:
    """A stable, readable key for one memory directory inside the state tree."""
    import hashlib  # here, not at the top: the write-time gate imports this module

    resolved = str(memory_dir.resolve())
    digest = hashlib.sha256(resolved.encode()).hexdigest()[:12]
    tail = memory_dir.resolve().parent.name or "root"
    return f"{tail[:60]}-{digest}"
