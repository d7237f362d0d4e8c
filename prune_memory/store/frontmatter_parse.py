"""Split a memory file into its YAML frontmatter and body, accepting both Claude Code shapes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler

from prune_memory.errors import FileLoadError
from prune_memory.model import JSON
from prune_memory.store.lenient_yaml import read_lenient

_HANDLER = YAMLHandler()
# A memory's frontmatter holds a handful of values. YAML aliases let a few hundred bytes
# stand for billions of them, and deep nesting exhausts the stack: both are refused.
MAX_VALUES = 10_000
MAX_DEPTH = 64
# libyaml's loader is ten times faster than the pure-Python one; both are the safe subset.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _DatesAsTextLoader(_SAFE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, keeping date-shaped values as the text they are: `modified:
    2026-02-30` is no date, and must not stop the file (or the pass) from loading."""


_DatesAsTextLoader.add_constructor("tag:yaml.org,2002:timestamp",
                                   lambda loader, node: loader.construct_scalar(node))


@dataclass(frozen=True)
class ParsedFile:
    meta: JSON
    body: str
    has_frontmatter: bool
    lenient: bool = False  # the YAML was not strict; read line by line, as Claude Code does
    problem: str = ""  # why it was read leniently: YAML's own first line


def parse_memory_text(name: str, text: str) -> ParsedFile:
    """Frontmatter (JSON-safe) and body of one file; malformed YAML raises FileLoadError."""
    if not _HANDLER.detect(text):
        return ParsedFile(meta={}, body=text.strip(), has_frontmatter=False)
    try:
        raw_meta, body = _HANDLER.split(text)
    except ValueError as err:
        raise FileLoadError(name, "frontmatter opens with --- but never closes") from err
    try:
        meta = _load_yaml(raw_meta)
    except yaml.YAMLError as err:
        return _lenient(name, raw_meta, body, err)
    except RecursionError as err:
        raise FileLoadError(name, "frontmatter nests too deeply") from err
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise FileLoadError(name, "frontmatter is not a mapping of keys to values")
    try:
        safe = bounded_json(meta)
    except ValueError as err:
        raise FileLoadError(name, f"frontmatter {err}") from err
    return ParsedFile(meta=safe, body=body.strip(), has_frontmatter=True)


def _lenient(name: str, raw_meta: str, body: str, err: yaml.YAMLError) -> ParsedFile:
    """Strict YAML failed: read `key: value` lines instead, or report the file when even
    that finds no key at all (then it is not frontmatter Claude Code could read either)."""
    meta = read_lenient(raw_meta)
    if not meta:
        raise FileLoadError(name, f"malformed YAML frontmatter: {_first_line(err)}") from err
    return ParsedFile(meta=meta, body=body.strip(), has_frontmatter=True, lenient=True,
                      problem=_first_line(err))


def _load_yaml(raw_meta: str) -> Any:
    """The frontmatter's values. A date-shaped value that is no real date (`2026-02-30`,
    `0000-00-00`) stays text, which `parse_timestamp` then ignores as a write-time signal."""
    try:
        return yaml.load(raw_meta, Loader=_SAFE_LOADER)
    except ValueError:  # raised by the timestamp constructor, not a YAMLError
        return yaml.load(raw_meta, Loader=_DatesAsTextLoader)


def memory_type(meta: JSON) -> str | None:
    """`type:` at the top, or nested as `metadata: {type: …}` in newer files."""
    value = meta.get("type")
    nested = meta.get("metadata")
    if value is None and isinstance(nested, dict):
        value = nested.get("type")
    return str(value).strip().lower() if value is not None else None


def parse_timestamp(value: Any) -> dt.datetime | None:
    """An ISO 8601 stamp (string, date or datetime) as aware UTC; None when unusable."""
    if isinstance(value, dt.datetime):
        stamp = value
    elif isinstance(value, dt.date):
        stamp = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        try:
            stamp = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    else:
        return None
    return stamp.replace(tzinfo=dt.UTC) if stamp.tzinfo is None else stamp.astimezone(dt.UTC)


def json_safe(value: Any) -> Any:
    """Frontmatter with dates turned into ISO strings, so plans serialise."""
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


_FLAT = (str, int, float, type(None), dt.date)  # bool is an int; datetime is a date


def bounded_json(value: Any, *, limit: int = MAX_VALUES, depth: int = MAX_DEPTH) -> Any:
    """`json_safe(value)`, or ValueError when it nests deeper than `depth` or expands to
    more than `limit` values (YAML aliases share one object among many places)."""
    if isinstance(value, dict) and len(value) < limit and all(
            isinstance(key, str) and isinstance(item, _FLAT) for key, item in value.items()):
        # The usual frontmatter: a few keys with plain values, nothing to walk.
        return {key: item.isoformat() if isinstance(item, dt.date) else item
                for key, item in value.items()}
    budget = [limit]

    def walk(item: Any, level: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError(f"expands to more than {limit:,} values")
        if level > depth:
            raise ValueError(f"nests deeper than {depth} levels")
        children = item.values() if isinstance(item, dict) else \
            item if isinstance(item, list | tuple) else ()
        for child in children:
            walk(child, level + 1)

    walk(value, 0)
    return json_safe(value)


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
