"""Read frontmatter the way Claude Code's own files are written, when strict YAML refuses it.

Claude Code writes `description: Fix: keep the lock` without quotes, which YAML rejects
("mapping values are not allowed"). Claude Code itself reads such files, so refusing them
would hide real memories. This reader takes `key: value` lines at the top level, one level
of nesting (`metadata:` with indented keys), `- item` lists and indented continuation lines,
and keeps every value as text. It never raises: a line it cannot read is skipped.
"""

from __future__ import annotations

import re

from prune_memory.model import JSON

_KEY = re.compile(r"^(?P<indent>[ \t]*)(?P<key>[^\s:#\-][^:]*?)[ \t]*:(?:[ \t]+(?P<value>.*))?$")
_ITEM = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?P<value>.*)$")
_QUOTED = re.compile(r"""^(?P<q>["'])(?P<inner>.*)(?P=q)$""")


def read_lenient(raw: str) -> JSON:
    """A mapping of the top-level keys of `raw`; nested keys under a key with no value."""
    out: JSON = {}
    parent: str | None = None  # a top-level key whose value is a nested mapping or list
    last: tuple[JSON, str] | None = None  # where a continuation line is appended
    for line in raw.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indented = line[:1] in (" ", "\t")
        key_match, item_match = _KEY.match(line), _ITEM.match(line)
        if not indented and key_match:
            key, value = key_match.group("key"), key_match.group("value")
            out[key] = _scalar(value) if value else {}
            parent = None if value else key
            last = (out, key) if value else None
        elif indented and parent is not None and item_match:
            out[parent] = _append(out[parent], _scalar(item_match.group("value")))
            last = None
        elif indented and parent is not None and key_match and isinstance(out[parent], dict):
            nested: JSON = out[parent]
            nested[key_match.group("key").strip()] = _scalar(key_match.group("value") or "")
            last = (nested, key_match.group("key").strip())
        elif indented and last is not None:
            holder, key = last  # a wrapped value: `description: one\n  two`
            holder[key] = f"{holder[key]} {line.strip()}".strip()
    return {k: ("" if v == {} else v) for k, v in out.items()}


def _scalar(value: str) -> str:
    text = value.strip()
    quoted = _QUOTED.match(text)
    return quoted.group("inner") if quoted else text


def _append(current: object, item: str) -> list[object]:
    items = list(current) if isinstance(current, list) else []
    return [*items, item]
