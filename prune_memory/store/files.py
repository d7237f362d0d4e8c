"""The engine's file primitives: hashed reads, verified writes, conditional replace and
remove, whole-file edits of the index and the log. The journalled steps change the memory
directory only through these (and `atomic`), so store/ stays the one place that touches it.

Every helper is idempotent — it looks at the disk first and does only what is missing —
so running a step a second time after a crash finishes it instead of doubling it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from prune_memory.errors import PruneMemoryError, RefusedError
from prune_memory.model import INDEX_FILE, LOG_FILE, OWN_FILES, TOMBSTONE_DIR
from prune_memory.store import atomic
from prune_memory.store.safe_read import NotRegularFileError, is_member_name, read_regular


class StepConflict(RefusedError):
    """A file is in neither the state the step expects before nor the one it leaves after."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_or_none(path: Path) -> bytes | None:
    """Bytes of a regular file; None when there is no file. A symlink, folder, FIFO or
    device counts as changed (bytes no file of ours can hold) and is never followed or
    waited on."""
    try:
        if path.is_symlink():
            return b"\0symlink:" + os.readlink(path).encode()
        return read_regular(path)
    except FileNotFoundError:
        return None
    except NotRegularFileError:
        return b"\0not a regular file"


def read_scanned(path: Path) -> bytes | None:
    """`read_or_none` for a scan over every file (links to rewrite, say): a file this user
    may not read is passed over like a missing one, as the loader passes over it."""
    try:
        return read_or_none(path)
    except PermissionError:
        return None


def sha_or_none(path: Path) -> str | None:
    data = read_or_none(path)
    return None if data is None else sha256(data)


def write_verified(path: Path, data: bytes) -> None:
    """Write `data` atomically, then read it back and compare hashes."""
    atomic.make_dir(path.parent)
    atomic.atomic_write(path, data)
    if sha_or_none(path) != sha256(data):
        raise PruneMemoryError(f"{path} did not read back as written; stopping")


def replace_if(path: Path, expected_sha: str, data: bytes) -> None:
    """Replace `path` with `data` only while it holds the bytes with `expected_sha`; a line
    another process appends meanwhile is kept after `data` (`atomic.rewrite`), so the
    caller's hash check then sees the file changed and leaves it."""
    atomic.rewrite(path, lambda current: data if current is not None
                   and sha256(current) == expected_sha else None)


def ensure_file(path: Path, data: bytes) -> bool:
    """Make `path` hold exactly `data`; True if it had to be written. Conflict if it holds
    something else (a file the step did not write)."""
    current = sha_or_none(path)
    if current == sha256(data):
        return False
    if current is not None:
        raise StepConflict(f"{path.name} already exists with other content")
    write_verified(path, data)
    return True


def remove_if(path: Path, expected_sha: str) -> bool:
    """Remove `path` only if it still holds the bytes with `expected_sha`."""
    if sha_or_none(path) != expected_sha:
        return False
    return atomic.remove_file(path)


def edit_index(root: Path, change: Callable[[bytes], bytes]) -> bool:
    """Apply `change` to MEMORY.md (empty when missing) and write it if the bytes differ.
    Lines another process adds meanwhile are kept (`atomic.rewrite`)."""
    def edited(before: bytes | None) -> bytes | None:
        after = change(before or b"")
        return None if before is None and not after else after

    return atomic.rewrite(root / INDEX_FILE, edited)


def read_log_text(root: Path) -> str:
    """The pruning log as text that encodes back to the same bytes: bytes that are not
    UTF-8 (a hand edit in latin-1, say) ride along as surrogate escapes."""
    data = read_or_none(root / LOG_FILE)
    return "" if data is None else data.decode("utf-8", errors="surrogateescape")


def write_log_text(root: Path, text: str) -> None:
    """Replace the pruning log; a full disk or a permission problem is refused, not a crash
    (the atomic write leaves the old log as it was)."""
    try:
        atomic.atomic_write(root / LOG_FILE, text.encode("utf-8", errors="surrogateescape"))
    except OSError as err:
        raise RefusedError(f"cannot write {LOG_FILE} ({err.strerror or err}); it is "
                           "unchanged — free space or fix permissions, then run the command "
                           "again") from err


def inside(root: Path, rel: str) -> Path:
    """`root / rel` for a name a journal record gives: a plain name, or one directly in
    the tombstone folder. Anything else is a record the tool never writes (ValueError:
    `recover` sets it aside) — a step never writes outside the memory directory."""
    folder, _, name = rel.rpartition("/")
    if folder not in ("", TOMBSTONE_DIR) or not is_member_name(name):
        raise ValueError(f"journal record names {rel!r}, which is not a file of the memory "
                         "directory")
    return root / rel


def list_names(folder: Path) -> set[str]:
    """Names directly inside `folder` (empty when it does not exist)."""
    try:
        return set(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return set()


def topic_names(root: Path) -> set[str]:
    """Top-level topic files: `*.md` other than the index and the tool's own files."""
    return {name for name in list_names(root)
            if name.endswith(".md") and name != INDEX_FILE and name not in OWN_FILES
            and (root / name).is_file()}


def is_link(path: Path) -> bool:
    """A symlink (dangling or not): the engine never follows one out of the directory."""
    return path.is_symlink()


def refuse_link(path: Path, shown: str) -> None:
    """RefusedError when `path` is a symlink: such an entry is never touched."""
    if path.is_symlink():
        raise RefusedError(f"{shown} is a symlink; not touched")


def regular_files(folder: Path, suffix: str) -> list[Path]:
    """Plain files directly in `folder` whose names end in `suffix`, sorted; none when the
    folder is missing or is itself a link."""
    if folder.is_symlink() or not folder.is_dir():
        return []
    return [folder / name for name in sorted(list_names(folder))
            if name.endswith(suffix) and not (folder / name).is_symlink()
            and (folder / name).is_file()]


def file_key(path: Path) -> tuple[str, int, int, int]:
    """Identity and version of a file: what a cache of its parsed content is keyed on."""
    info = path.stat()
    return (str(path), info.st_ino, info.st_size, info.st_mtime_ns)


def remove_empty_folder(folder: Path) -> None:
    """Remove `folder` if it is a real, empty folder; anything else stays."""
    try:
        if folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
            os.rmdir(folder)
            atomic.fsync_dir(folder.parent)
    except FileNotFoundError:
        pass


def copy_times(source: Path, target: Path) -> None:
    """Give `target` the access and modification times of `source` (a snapshot's copy, say):
    an undone pass leaves no trace in the times the idle evidence reads. Best effort: a file
    that cannot take them keeps its bytes, which are what matters."""
    try:
        info = os.lstat(source)
        if not target.is_symlink():
            os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    except OSError:
        pass
