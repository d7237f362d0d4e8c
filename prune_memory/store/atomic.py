"""The one way the tool writes a file: temp file beside it, fsync, rename, fsync the directory.

Callers use `atomic.atomic_write(...)` through the module (never `from … import atomic_write`),
so a test can monkeypatch `prune_memory.store.atomic.atomic_write` — or the lower-level
`write_all` — to inject ENOSPC or EACCES everywhere at once.

A temp file's name is random and of fixed length (whatever the target's name), and is
noted in a record under the state directory before the file is created: cleaning up after
a crash removes only names found there, never a user's file that merely looks like ours.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from pathlib import Path

TEMP_SUFFIX = ".pm-tmp"
_TEMP_NAME = re.compile(r"^\.[0-9a-f]{32}" + re.escape(TEMP_SUFFIX) + "$")


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so a reader sees the old bytes or the new, never a mix."""
    temp = path.with_name(f".{secrets.token_hex(16)}{TEMP_SUFFIX}")
    _note_temp(temp)
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
    """The shape of the names `atomic_write` gives its temp files."""
    return _TEMP_NAME.match(name) is not None


def _temps_record(directory: Path) -> Path:
    """Where the temp names created in `directory` are noted (outside it, in the state
    directory, one file per directory)."""
    from prune_memory.state import dir_key, state_subdir  # the gate never writes

    return state_subdir("temps") / f"{dir_key(directory / '_')}.txt"


def _note_temp(temp: Path) -> None:
    """Note `temp`'s name before it exists. An append of one short line is atomic, so
    processes writing at once do not mix their lines."""
    fd = os.open(_temps_record(temp.parent), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, temp.name.encode("ascii") + b"\n")
    finally:
        os.close(fd)


def leftover_temps(directory: Path) -> list[Path]:
    """Temp files an interrupted `atomic_write` left in `directory` (not recursive): names
    the record holds that are still there as regular files."""
    try:
        noted = _temps_record(directory).read_text(encoding="ascii").split()
    except (FileNotFoundError, UnicodeDecodeError):
        return []
    found = []
    for name in sorted(set(noted)):
        path = directory / name
        if is_temp_name(name) and path.is_file() and not path.is_symlink():
            found.append(path)
    return found


def clean_temps(directory: Path) -> list[Path]:
    """Remove the leftover temp files of `directory`, then forget the record; return what
    was removed. The caller holds the directory's lock, so no write of ours is under way."""
    removed = [p for p in leftover_temps(directory) if remove_file(p)]
    with contextlib.suppress(FileNotFoundError):
        _temps_record(directory).unlink()
    return removed
