"""Questions a write step asks of `pruning-log.md`'s text, each answered in one pass over it
without a full parse: the next register id, which ids have rows, the protected list."""

from __future__ import annotations

import re

from prune_memory.store.lineends import bare_lines
from prune_memory.store.pruninglog import (
    PROTECTED_HEADING,
    ProtectedItem,
    heading_level,
    protected_items,
)

_ROW_ID = re.compile(r"^[ \t]*\|[ \t]*(\d{4}-\d{2}-\d{2})-(\d{2,})[ \t]*\|", re.MULTILINE)


def next_register_id_in(text: str, day: str) -> str:
    """`next_register_id` straight from the log's text: cheap enough to call every step."""
    numbers = [int(m.group(2)) for m in _ROW_ID.finditer(_lf(text)) if m.group(1) == day]
    return f"{day}-{max(numbers, default=0) + 1:02d}"


def first_cells(text: str) -> set[str]:
    """The first cell of every table row in the log: with `has_register_row`'s reading, the
    register ids a batch of steps asks about, in one pass over the text."""
    return {m.group(1) for m in _FIRST_CELL.finditer(_lf(text))}


_FIRST_CELL = re.compile(r"^[ \t]*\|[ \t]*([^|\n]*?)[ \t]*\|", re.MULTILINE)


def has_register_row(text: str, register_id: str) -> bool:
    pattern = rf"^[ \t]*\|[ \t]*{re.escape(register_id)}[ \t]*\|"
    return re.search(pattern, _lf(text), re.MULTILINE) is not None


def _lf(text: str) -> str:
    """`text` with CR and CRLF line ends read as LF, for the line-anchored searches."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def protected_in(text: str) -> tuple[ProtectedItem, ...]:
    """Just the `## Protected` list (the check every write makes first)."""
    return listed_in(text, PROTECTED_HEADING)


def listed_in(text: str, heading: str) -> tuple[ProtectedItem, ...]:
    """The `- file — reason (date)` items under a level-2 `heading` (Protected, Flagged)."""
    lines = bare_lines(text.removeprefix("\ufeff"))
    start = next((n for n, ln in enumerate(lines) if ln.strip() == heading), None)
    if start is None:
        return ()
    end = next((n for n in range(start + 1, len(lines))
                if 0 < heading_level(lines[n]) <= 3), len(lines))
    return tuple(protected_items(lines, range(start + 1, end)))
