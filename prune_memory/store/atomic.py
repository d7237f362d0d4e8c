"""The one way the tool writes a file: temp file beside it, fsync, rename, fsync the directory.

Callers use `atomic.atomic_write(...)` through the module (never `from … import atomic_write`),
so a test can monkeypatch `prune_memory.store.atomic.atomic_write` — or the lower-level
`write_all` — to inject ENOSPC or EACCES everywhere at once.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

TEMP_SUFFIX = ".pm-tmp"


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so a reader sees the old bytes or the new, never a mix."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
    mode = _mode_to_keep(path)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    fsync_dir(path.parent)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of `data` to `fd` (the seam tests patch to fake a full disk)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _mode_to_keep(path: Path) -> int | None:
    """Permission bits of the file being replaced, so a rewrite never widens them."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return None


def fsync_dir(directory: Path) -> None:
    """Make a rename or unlink inside `directory` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_file(path: Path) -> bool:
    """Unlink `path` durably; False when it was already gone."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    fsync_dir(path.parent)
    return True


def make_dir(path: Path) -> None:
    """Create a directory (one level) durably, if it is not there yet."""
    if path.is_dir():
        return
    path.mkdir(exist_ok=True)
    fsync_dir(path.parent)


def is_temp_name(name: str) -> bool:
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def leftover_temps(directory: Path) -> list[Path]:
    """Temp files an interrupted `atomic_write` left in `directory` (not recursive)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if is_temp_name(p.name) and not p.is_dir())


def clean_temps(directory: Path) -> list[Path]:
    """Remove the leftover temp files of `directory`; return what was removed."""
    removed = [p for p in leftover_temps(directory) if remove_file(p)]
    return removed
