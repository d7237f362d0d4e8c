"""Read a JSON-list or JSONL memory store into checked, frozen records.

A record has `id`, `text`, a date (`created_at`, `updated_at` or `last_recalled_at`) and
optionally `recall_count`, `pinned` and `key`; every other field is carried along untouched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prune_memory.errors import BadInputError
from prune_memory.model import JSON

DATE_FIELDS = ("last_recalled_at", "updated_at", "created_at")


@dataclass(frozen=True)
class StoreRecord:
    """One record of a store. `raw` is the object as read, for writing it back unchanged."""

    id: str
    text: str
    created_at: datetime | None
    updated_at: datetime | None
    last_recalled_at: datetime | None
    recall_count: int
    pinned: bool
    key: str | None
    raw: JSON
    line: int

    def touches(self) -> list[tuple[str, datetime | None]]:
        """Dates that show use, most telling first: last recall, update, creation."""
        return [(name, getattr(self, name)) for name in DATE_FIELDS]

    @property
    def last_touch(self) -> datetime:
        """The first of last recall, update and creation that is known (one always is)."""
        touch = self.last_recalled_at or self.updated_at or self.created_at
        assert touch is not None  # load_store refuses records without any date
        return touch


def load_store(path: Path) -> list[StoreRecord]:
    """Every record of a JSON list or JSONL file; anything unusable raises BadInputError."""
    records = [_record(obj, line) for obj, line in _objects(path, _read_text(path))]
    seen: dict[str, int] = {}
    for record in records:
        if record.id in seen:
            raise BadInputError(f"{path}: id {record.id!r} appears twice "
                                f"(records at lines {seen[record.id]} and {record.line})")
        seen[record.id] = record.line
    return records


def parse_date(value: Any) -> datetime:
    """An ISO 8601 date or datetime as an aware datetime (UTC when no zone is given)."""
    stamp = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def _read_text(path: Path) -> str:
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


def _objects(path: Path, text: str) -> Iterator[tuple[Any, int]]:
    """(object, line number) pairs from either a JSON list or one JSON object per line."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise BadInputError(f"{path}: invalid JSON at line {err.lineno}: {err.msg}") from err
        except RecursionError as err:
            raise BadInputError(f"{path}: {_TOO_DEEP}") from err
        if not isinstance(data, list):
            raise BadInputError(f"{path}: a JSON store must be a list of records")
        yield from ((obj, position + 1) for position, obj in enumerate(data))
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise BadInputError(f"{path}: line {number} is not JSON: {err.msg}") from err
        except RecursionError as err:
            raise BadInputError(f"{path}: line {number}: {_TOO_DEEP}") from err
        yield obj, number


def _record(obj: Any, line: int) -> StoreRecord:
    where = f"record at line {line}"
    if not isinstance(obj, dict):
        raise BadInputError(f"{where}: not a JSON object")
    rid, text = obj.get("id"), obj.get("text")
    if not isinstance(rid, str) or not rid:
        raise BadInputError(f"{where}: `id` must be a non-empty string")
    if not isinstance(text, str):
        raise BadInputError(f"{where} ({rid}): `text` must be a string")
    dates = {name: _date(obj.get(name), name, rid) for name in DATE_FIELDS}
    if all(value is None for value in dates.values()):
        raise BadInputError(f"{where} ({rid}): needs `created_at` (or another date)")
    key = obj.get("key")
    if key is not None and not isinstance(key, str):
        raise BadInputError(f"{where} ({rid}): `key` must be a string")
    return StoreRecord(
        id=rid, text=text, created_at=dates["created_at"], updated_at=dates["updated_at"],
        last_recalled_at=dates["last_recalled_at"],
        recall_count=_count(obj.get("recall_count"), rid), pinned=_flag(obj.get("pinned"), rid),
        key=key or None, raw=obj, line=line,
    )


def _date(value: Any, name: str, rid: str) -> datetime | None:
    if value is None or value == "":
        return None
    try:
        return parse_date(value)
    except ValueError as err:
        raise BadInputError(f"record {rid}: `{name}` is not an ISO 8601 date: {value!r}") from err


def _count(value: Any, rid: str) -> int:
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise BadInputError(f"record {rid}: `recall_count` must be a whole number >= 0")


def _flag(value: Any, rid: str) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in {"true", "false"}:
        return value.strip().lower() == "true"
    if value in (0, 1):
        return bool(value)
    raise BadInputError(f"record {rid}: `pinned` must be true or false")
