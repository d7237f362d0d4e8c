"""The temp files `atomic_write` makes: their names, and the record that lets a crash be
cleaned up.

A temp file's name is random and of fixed length (whatever the target's name), and is
noted in a record under the state directory before the file is created: cleaning up after
a crash removes only names found there, never a user's file that merely looks like ours.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path

TEMP_SUFFIX = ".pm-tmp"
_TEMP_NAME = re.compile(r"^\.[0-9a-f]{32}" + re.escape(TEMP_SUFFIX) + "$")


def new_temp_path(path: Path) -> Path:
    """A fresh temp name beside `path`, noted in the record before anything creates it."""
    temp = path.with_name(f".{secrets.token_hex(16)}{TEMP_SUFFIX}")
    note_temp(temp)
    return temp


def is_temp_name(name: str) -> bool:
    """The shape of the names `atomic_write` gives its temp files."""
    return _TEMP_NAME.match(name) is not None


def _temps_record(directory: Path) -> Path:
    """Where the temp names created in `directory` are noted (outside it, in the state
    directory, one file per directory)."""
    from prune_memory.state import dir_key, state_subdir  # the gate never writes

    return state_subdir("temps") / f"{dir_key(directory / '_')}.txt"


def note_temp(temp: Path) -> None:
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


def forget_temps(directory: Path) -> None:
    """Drop `directory`'s record once its leftovers are gone."""
    with contextlib.suppress(FileNotFoundError):
        _temps_record(directory).unlink()
