"""Record every file the prune-memory CLI touches, with a Python audit hook.

`recording()` collects the `open` (with its flags), rename, remove, mkdir, chmod, symlink,
link and utime events raised while it is active, so a test can check that nothing outside
the allowed directories was read or written. `stat` raises no event: a stat is allowed.
An audit hook cannot be removed, so one hook is installed for the whole test session and
does nothing while no recording is active.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

EVENTS = {"open", "os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.chmod", "os.symlink",
          "os.link", "os.utime", "os.truncate", "shutil.rmtree", "shutil.copyfile"}
_ACTIVE: list[list[dict[str, Any]]] = []


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not _ACTIVE or event not in EVENTS or not args:
        return
    paths = [a for a in args[:2] if isinstance(a, str | bytes | os.PathLike)]
    if event in ("os.symlink", "os.link"):
        paths = paths[1:]  # what is created; a link's target is only text (or an inode)
    elif event != "os.rename":
        paths = paths[:1]
    mode = args[1] if event == "open" and len(args) > 1 else None
    flags = args[2] if event == "open" and len(args) > 2 else None
    for path in paths:
        _ACTIVE[-1].append({"event": event, "path": os.fsdecode(path), "cwd": os.getcwd(),
                            "mode": mode if isinstance(mode, str) else None,
                            "flags": flags if isinstance(flags, int) else None})


_INSTALLED: list[bool] = []


@contextmanager
def recording() -> Iterator[list[dict[str, Any]]]:
    """The file events raised inside the `with` block."""
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED.append(True)
    events: list[dict[str, Any]] = []
    _ACTIVE.append(events)
    try:
        yield events
    finally:
        _ACTIVE.pop()
