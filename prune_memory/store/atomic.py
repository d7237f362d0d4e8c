"""The one way the tool writes a file: temp file beside it, fsync, rename, fsync the directory.

Callers use `atomic.atomic_write(...)` through the module (never `from … import atomic_write`),
so a test can monkeypatch `prune_memory.store.atomic.atomic_write` — or the lower-level
`write_all` — to inject ENOSPC or EACCES everywhere at once.

A temp file is named and noted by `store.temps` before it is created, so cleaning up
after a crash removes only our own files.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from prune_memory.errors import RefusedError
from prune_memory.store.temps import forget_temps, leftover_temps, new_temp_path


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so a reader sees the old bytes or the new, never a mix."""
    temp = _write_temp(path, data)
    _install(temp, path)


def _write_temp(path: Path, data: bytes) -> Path:
    """`data` in a fresh, fsynced temp file beside `path`, with `path`'s permissions."""
    temp = new_temp_path(path)
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
    except BaseException:
        _drop(temp)
        raise
    return temp


def _install(temp: Path, path: Path) -> None:
    try:
        os.replace(temp, path)
    except BaseException:
        _drop(temp)
        raise
    fsync_dir(path.parent)


def _drop(temp: Path) -> None:
    with contextlib.suppress(OSError):
        temp.unlink()


def rewrite(path: Path, change: Callable[[bytes | None], bytes | None]) -> bool:
    """Replace `path` with `change(its bytes)` (None: the file is missing, or leave it),
    never losing what another process writes meanwhile — Claude Code takes no lock.

    Lines appended while we work (before the rename, or to the old file in the instant
    after it) are read back from the old file and appended to the new one. A rewrite by
    someone else before the rename makes us start again from their bytes; one in the
    instant after it is put back, and the call refused. True if the file was written."""
    fd = _open_current(path)
    try:
        base = _read_fd(fd)
        for _ in range(REWRITE_ATTEMPTS):
            new = change(base)
            if new is None or new == base:
                return False
            temp = _write_temp(path, new)
            now = _read_fd(fd) if fd is not None else _read_current(path)
            if not _grew(base, now):  # rewritten meanwhile: start again from their bytes
                _drop(temp)
                base = now
                continue
            _install(temp, path)
            late = _read_fd(fd)  # the old file, after the rename
            if _grew(base, late):
                _append(path, (late or b"")[len(base or b""):])
                return True
            _put_back(path, new, late)
        raise RefusedError(f"{path.name} kept being rewritten while prune-memory edited it; "
                           "it was left as the other writer made it — run the command again")
    finally:
        if fd is not None:
            os.close(fd)


REWRITE_ATTEMPTS = 20


def _grew(before: bytes | None, after: bytes | None) -> bool:
    """`after` is `before` with (perhaps) bytes added at its end."""
    return after == before or (before is not None and after is not None
                               and after.startswith(before))


def _append(path: Path, tail: bytes) -> None:
    """Add `tail` at the end of `path` in place (O_APPEND: a line another process appends
    at the same moment is not overwritten)."""
    if not tail:
        return
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        write_all(fd, tail)
        os.fsync(fd)
    finally:
        os.close(fd)


def _put_back(path: Path, ours: bytes, theirs: bytes | None) -> None:
    """Someone rewrote the file in the instant we replaced it: their version goes back
    (when ours is still what is there) and the edit is refused, to be run again."""
    if theirs is not None and _read_current(path) == ours:
        atomic_write(path, theirs)
    raise RefusedError(f"{path.name} was rewritten by another process while prune-memory "
                       "replaced it; their version was kept — run the command again")


def _read_current(path: Path) -> bytes | None:
    fd = _open_current(path)
    try:
        return _read_fd(fd)
    finally:
        if fd is not None:
            os.close(fd)


def _open_current(path: Path) -> int | None:
    """A descriptor on the regular file at `path` (no symlink followed, no FIFO waited
    on), or None when there is no file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise IsADirectoryError(f"{path}: not a regular file")
    return fd


def _read_fd(fd: int | None) -> bytes | None:
    """Everything in the file behind `fd`, from its start."""
    if fd is None:
        return None
    chunks, offset = [], 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


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


def clean_temps(directory: Path) -> list[Path]:
    """Remove the leftover temp files of `directory`, then forget the record; return what
    was removed. The caller holds the directory's lock, so no write of ours is under way."""
    removed = [p for p in leftover_temps(directory) if remove_file(p)]
    forget_temps(directory)
    return removed
