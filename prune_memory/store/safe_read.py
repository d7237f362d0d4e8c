"""Read a file from a memory directory without following it anywhere it should not go."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from prune_memory.errors import BadInputError, FileLoadError, RefusedError
from prune_memory.vocab import INDEX_FILE, LOG_FILE, TOMBSTONE_DIR

MAX_FILE_BYTES = 2 * 1024 * 1024  # a memory is a few KB; anything this big is not one


def require_directory(root: Path) -> Path:
    """The memory directory itself must exist and be a real directory."""
    if not root.exists():
        raise BadInputError(f"memory directory not found: {root}")
    if not root.is_dir():
        raise BadInputError(f"not a directory: {root}")
    return root


def refuse_linked_own_paths(root: Path) -> None:
    """Before any write: the index, the pruning log and the tombstone folder must not be
    symlinks (writing would follow one out of the directory or replace the user's link),
    and must be what they claim — a regular file, a folder — when they exist at all (a FIFO
    would block the reader forever, a folder named MEMORY.md cannot be edited)."""
    for name, kind in ((INDEX_FILE, "file"), (LOG_FILE, "file"), (TOMBSTONE_DIR, "folder")):
        if (root / name).is_symlink():
            raise RefusedError(f"{name} is a symlink; prune-memory never reads or writes "
                               f"through links — put the real {kind} there first")
        try:
            mode = os.lstat(root / name).st_mode
        except FileNotFoundError:
            continue
        if not (stat.S_ISDIR(mode) if kind == "folder" else stat.S_ISREG(mode)):
            raise BadInputError(f"{name} is not a regular {kind}; nothing was changed — put "
                                f"the real {kind} there (or move it away) first")


NAME_MAX = 255  # bytes in one directory entry on every filesystem we write to


def is_member_name(name: str) -> bool:
    """A plain name of an entry directly inside a directory: not empty, not `.` or `..`,
    no path separator or NUL, short enough for the filesystem (a backslash is an ordinary
    character of a POSIX name). Names from files people can edit (the pruning log, a
    tombstone header) must pass this before anything is written."""
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\0") \
        and len(name.encode("utf-8", "surrogateescape")) <= NAME_MAX


def is_inside(root: Path, candidate: Path) -> bool:
    """True when `candidate`, with every symlink resolved, lies inside `root`."""
    try:
        candidate.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def holds_file(root: Path, relative: str) -> bool:
    """True when `relative` names a regular file inside `root` (nested or not, any name)."""
    path = root / relative
    return path.is_file() and is_inside(root, path)


def read_member(root: Path, name: str) -> bytes:
    """Bytes of one file directly inside `root`; symlinks and huge files are refused."""
    path = root / name
    try:
        info = os.lstat(path)
    except OSError as err:
        raise FileLoadError(name, f"cannot stat: {err.strerror}") from err
    if stat.S_ISLNK(info.st_mode):
        where = "leaves the memory directory" if not is_inside(root, path) else "is a symlink"
        raise FileLoadError(name, f"{where}; not followed")
    if not stat.S_ISREG(info.st_mode):
        raise FileLoadError(name, "not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise FileLoadError(name, f"too large ({info.st_size} bytes > {MAX_FILE_BYTES}); skipped")
    try:
        return read_regular(path)
    except NotRegularFileError as err:
        raise FileLoadError(name, "not a regular file") from err
    except OSError as err:
        raise FileLoadError(name, f"cannot read: {err.strerror}") from err


class NotRegularFileError(OSError):
    """The path is a folder, FIFO, socket or device: never read, never waited on."""


def read_regular(path: Path) -> bytes:
    """The bytes of `path` when it is a regular file. It is opened without following a
    symlink (ELOOP) and without blocking, then checked on the open descriptor, so a FIFO or
    device put there meanwhile is never waited on (NotRegularFileError). A path that is
    not a regular file already is not opened at all."""
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise NotRegularFileError(f"{path}: not a regular file")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFileError(f"{path}: not a regular file")
        chunks: list[bytes] = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def decode_text(name: str, raw: bytes) -> str:
    """UTF-8 text of a memory file (BOM tolerated); NUL bytes or bad UTF-8 are errors."""
    if b"\x00" in raw:
        raise FileLoadError(name, "contains NUL bytes; not a text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FileLoadError(name, f"not valid UTF-8 (byte {err.start})") from err
    return text.removeprefix("\ufeff")


def present(path: Path) -> bool:
    """Something is at `path`: a file, a folder, or a link, even a dangling one."""
    return path.exists() or path.is_symlink()
