"""Read a JSON or JSONL memory store into checked, frozen records.

Three shapes are read: a JSON list of records, an object holding that list under `entries`,
and one JSON object per line. A record has `id`, `text`, a date (`created_at` or `created`,
`updated_at` or `updated`, `last_recalled_at`) and optionally `recall_count`, `pinned` and
`key`; every other field is carried along untouched.

`load_store` refuses a store with any unusable record (the audit needs every date);
`read_store_leniently` keeps going, turning each unusable field into a problem the lint
reports as one violation, as a store lint should.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from prune_memory.errors import BadInputError
from prune_memory.jsonstore.storefile import BrokenLine, objects, read_text
from prune_memory.model import JSON

DATE_FIELDS = ("last_recalled_at", "updated_at", "created_at")
# Other spellings of the same dates, as the store lint's own format writes them.
DATE_ALIASES = {"updated_at": ("updated",), "created_at": ("created",)}


class _Problem(NamedTuple):
    message: str
    about_date: bool = False  # the lint reports these as its own freshness violation


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


@dataclass(frozen=True)
class LenientStore:
    """Every record that could be read, and what was wrong with the others (or with parts)."""

    records: tuple[StoreRecord, ...]
    problems: tuple[tuple[str, str], ...] = field(default=())  # (record id or place, message)


def load_store(path: Path) -> list[StoreRecord]:
    """Every record of the store; anything unusable raises BadInputError."""
    records: list[StoreRecord] = []
    for obj, line in objects(path, read_text(path)):
        record, problems = _record(obj, line)
        if problems:
            raise BadInputError(problems[0].message)
        assert record is not None
        records.append(record)
    seen: dict[str, int] = {}
    for record in records:
        if record.id in seen:
            raise BadInputError(f"{path}: id {record.id!r} appears twice "
                                f"(records at lines {seen[record.id]} and {record.line})")
        seen[record.id] = record.line
    return records


def read_store_leniently(path: Path) -> LenientStore:
    """The records of a store, carrying on past bad ones (a JSON line that cannot be read is
    one of them). Only a missing or unparsable file, or JSON lines none of which can be
    read, raises BadInputError: then there is nothing to lint."""
    records: list[StoreRecord] = []
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    read = 0
    for obj, line in objects(path, read_text(path), lenient=True):
        if isinstance(obj, BrokenLine):
            problems.append((f"(record at line {line})", obj.message))
            continue
        read += 1
        record, found = _record(obj, line)
        where = record.id if record is not None else f"(record at line {line})"
        # A missing or unreadable date is the lint's freshness violation, not a second one.
        problems.extend((where, p.message) for p in found if not p.about_date)
        if record is None:
            continue
        if record.id in seen:
            problems.append((record.id, f"id {record.id!r} appears twice (again at line "
                                        f"{record.line})"))
        seen.add(record.id)
        records.append(record)
    if problems and not read:
        raise BadInputError(f"{path}: {problems[0][1]}, and no line is a JSON record")
    return LenientStore(tuple(records), tuple(problems))


def parse_date(value: Any) -> datetime:
    """An ISO 8601 date or datetime as an aware datetime (UTC when no zone is given)."""
    stamp = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def _record(obj: Any, line: int) -> tuple[StoreRecord | None, list[_Problem]]:
    """The record and every problem with it; no record when it is not an object."""
    where = f"record at line {line}"
    if not isinstance(obj, dict):
        return None, [_Problem(f"{where}: not a JSON object")]
    problems: list[_Problem] = []
    rid, text = obj.get("id"), obj.get("text")
    if not isinstance(rid, str) or not rid:
        problems.append(_Problem(f"{where}: `id` must be a non-empty string"))
        rid = f"line-{line}"
    else:
        where = f"{where} ({rid})"
    if not isinstance(text, str):
        problems.append(_Problem(f"{where}: `text` must be a string"))
        text = ""
    dates = {name: _date(obj, name, rid, problems) for name in DATE_FIELDS}
    if all(value is None for value in dates.values()) and not problems:
        problems.append(_Problem(f"{where}: needs `created_at` (or another date)", True))
    key = obj.get("key")
    if key is not None and not isinstance(key, str):
        problems.append(_Problem(f"{where}: `key` must be a string"))
        key = None
    record = StoreRecord(
        id=rid, text=text, created_at=dates["created_at"], updated_at=dates["updated_at"],
        last_recalled_at=dates["last_recalled_at"],
        recall_count=_count(obj.get("recall_count"), rid, problems),
        pinned=_flag(obj.get("pinned"), rid, problems), key=key or None, raw=obj, line=line,
    )
    return record, problems


def _date(obj: JSON, name: str, rid: str, problems: list[_Problem]) -> datetime | None:
    spelled = next((alias for alias in (name, *DATE_ALIASES.get(name, ()))
                    if obj.get(alias) not in (None, "")), None)
    if spelled is None:
        return None
    value = obj[spelled]
    try:
        return parse_date(value)
    except (ValueError, TypeError):
        problems.append(_Problem(f"record {rid}: `{spelled}` is not an ISO 8601 date: "
                                 f"{value!r}", True))
        return None


def _count(value: Any, rid: str, problems: list[_Problem]) -> int:
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    problems.append(_Problem(f"record {rid}: `recall_count` must be a whole number >= 0"))
    return 0


def _flag(value: Any, rid: str, problems: list[_Problem]) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in {"true", "false"}:
        return value.strip().lower() == "true"
    if value in (0, 1):
        return bool(value)
    problems.append(_Problem(f"record {rid}: `pinned` must be true or false"))
    return False
