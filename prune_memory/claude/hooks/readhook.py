"""The read counter's hook: after Claude reads a memory topic file, count the read.

Only top-level `.md` topic files count; the index and the tool's own files do not. The count
goes to the recall log in the state directory (`recall.append_read`), never into memory.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from prune_memory.claude.hooks import payload
from prune_memory.claude.hooks.memroots import memory_dir_of, memory_roots


class ReadOutcome(NamedTuple):
    recorded: str | None = None  # the topic file counted, as the recall log names it
    problems: tuple[str, ...] = ()


def record_read(raw: bytes, now: dt.datetime, extra_roots: Sequence[str] = ()) -> ReadOutcome:
    """Count the read described by one PostToolUse payload, if it read a memory topic file."""
    try:
        data = payload.parse(raw)
        call = payload.read_call(data)
    except payload.PayloadError as err:
        return ReadOutcome(problems=(f"bad payload, nothing counted: {err}",))
    if call is None:
        return ReadOutcome()
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    memory_dir = memory_dir_of(call.path, memory_roots(extra_roots, cwd))
    if memory_dir is None:
        return ReadOutcome()
    name = topic_name(call.path, memory_dir)
    if name is None:
        return ReadOutcome()
    return _count(Path(memory_dir), name, call.session_id, now)


def topic_name(path: str, memory_dir: str) -> str | None:
    """The file's name when it is a topic file directly inside `memory_dir`, else None."""
    from prune_memory.model import INDEX_FILE, OWN_FILES

    relative = os.path.relpath(os.path.realpath(path), memory_dir)
    if os.sep in relative or not relative.endswith(".md"):
        return None
    return None if relative == INDEX_FILE or relative in OWN_FILES else relative


def _count(root: Path, name: str, session_id: str | None, now: dt.datetime) -> ReadOutcome:
    from prune_memory.claude.hooks.recall import append_read
    from prune_memory.errors import FileLoadError
    from prune_memory.store.safe_read import read_member
    from prune_memory.store.snapshot import stored_name

    shown = stored_name(name)  # a name that holds a secret is logged as a digest of it
    try:
        digest = hashlib.sha256(read_member(root, name)).hexdigest()
    except FileLoadError as err:
        return ReadOutcome(problems=(f"read of {shown} not counted: {err.reason}",))
    append_read(root, shown, digest, session_id, now)
    return ReadOutcome(recorded=shown)
