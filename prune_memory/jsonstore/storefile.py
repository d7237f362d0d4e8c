"""A store file as it lies on disk: which of the three shapes it has, and its objects.

A JSON list of records, an object holding that list under `entries`, or one JSON object per
line. Each object comes with the line it starts on, for messages a person can find.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from prune_memory.errors import BadInputError

WRAPPER_KEY = "entries"


def read_text(path: Path) -> str:
    """The store's text; a missing or unreadable file is bad input, said in one line."""
    if not path.exists():
        raise BadInputError(f"store not found: {path}")
    if not path.is_file():
        raise BadInputError(f"store is not a file: {path}")
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        reason = (err.strerror or str(err)) if isinstance(err, OSError) else "not UTF-8 text"
        raise BadInputError(f"cannot read store {path}: {reason}") from err


_TOO_DEEP = "nests too deeply to be a store of records (lists or objects inside each " \
    "other hundreds of levels down)"


class BrokenLine(NamedTuple):
    """A JSON line that could not be read: the lenient reader reports it and carries on."""

    message: str


def objects(path: Path, text: str, *,
            lenient: bool = False) -> Iterator[tuple[Any, int]]:
    """(object, line number) pairs from a JSON list, an `entries` object, or JSON lines.
    `lenient`: a JSON line that cannot be read comes as a `BrokenLine`, not an error."""
    stripped = text.strip()
    if stripped.startswith("["):
        yield from _listed(path, _whole(path, stripped))
        return
    if stripped.startswith("{"):
        wrapped = _wrapped(stripped)
        if wrapped is not None:
            yield from _listed(path, wrapped)
            return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as err:
            said = f"line {number} is not JSON: {err.msg}" \
                if isinstance(err, json.JSONDecodeError) else f"line {number}: {_TOO_DEEP}"
            if not lenient:
                raise BadInputError(f"{path}: {said}") from err
            obj = BrokenLine(said)
        yield obj, number


def _whole(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise BadInputError(f"{path}: invalid JSON at line {err.lineno}: {err.msg}") from err
    except RecursionError as err:
        raise BadInputError(f"{path}: {_TOO_DEEP}") from err


def _wrapped(text: str) -> Any:
    """The `entries` of a store written as one object, else None (then it is JSON lines)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None  # several objects, one per line (or too deep: the line reader says so)
    if isinstance(data, dict) and WRAPPER_KEY in data:
        return data[WRAPPER_KEY]
    return None


def _listed(path: Path, data: Any) -> Iterator[tuple[Any, int]]:
    if not isinstance(data, list):
        raise BadInputError(f"{path}: a JSON store must be a list of records "
                            f"(or an object with an `{WRAPPER_KEY}` list)")
    yield from ((obj, position + 1) for position, obj in enumerate(data))
