"""The write-ahead journal: one JSON record per multi-file step, written before the step starts.

A record is written atomically (so it exists whole or not at all) under the state directory,
outside the memory directory. The step removes it when every file is in place; a record
still present means the step was interrupted and `recover` must finish or undo it.
"""

from __future__ import annotations

import base64
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prune_memory.errors import RefusedError
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic

JSON = dict[str, Any]
_RECORD = re.compile(r"^step-(\d{8})\.json$")


@dataclass(frozen=True)
class Pending:
    """An interrupted step found in the journal."""

    path: Path
    step: JSON


def journal_dir(root: Path) -> Path:
    return state_subdir("journal", dir_key(root))


def begin(root: Path, step: JSON) -> Path:
    """Record `step` durably before any of its files change; return the record's path."""
    folder = journal_dir(root)
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := _RECORD.match(p.name))]
    path = folder / f"step-{max(numbers, default=0) + 1:08d}.json"
    data = json.dumps({"memory_dir": str(root.resolve()), **step}, ensure_ascii=False)
    atomic.atomic_write(path, data.encode("utf-8"))
    path.chmod(0o600)  # it can hold a memory's body
    return path


def finish(record: Path) -> None:
    """The step is complete on disk: drop its record. No directory fsync: if the removal
    is lost in a power cut, recovery runs the finished step again, which changes nothing."""
    record.unlink(missing_ok=True)


def pending(root: Path) -> list[Pending]:
    """Interrupted steps of `root`, oldest first; an unreadable record is refused, not guessed."""
    folder = journal_dir(root)
    found: list[Pending] = []
    for path in sorted(p for p in folder.iterdir() if _RECORD.match(p.name)):
        try:
            step = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise RefusedError(f"journal record {path} cannot be read ({err}); inspect it, "
                               "then move it away and run `prune-memory recover` again") from err
        found.append(Pending(path=path, step=step))
    return found


def set_aside(record: Path, root: Path) -> Path:
    """Move a record no run can finish out of the journal, keeping it for a person; the
    journal then stops blocking every later write."""
    folder = state_subdir("set-aside", dir_key(root))
    target = folder / f"{record.stem}.{secrets.token_hex(4)}.json"
    os.replace(record, target)
    return target


def clean_temps(root: Path) -> list[Path]:
    return atomic.clean_temps(journal_dir(root))


def pack(data: bytes) -> str:
    """Bytes as text for a JSON record."""
    return base64.b64encode(data).decode("ascii")


def unpack(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"))
