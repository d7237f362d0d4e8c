"""Long tables drawn in part: a terminal shows the first rows and says how many more there
are; `--json` holds every one. Drawing 10,000 rows took half of a large `scan`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rich.table import Table
from rich.text import Text

SHOWN = 50  # rows drawn before the rest are counted instead
Row = TypeVar("Row")


def first(rows: Sequence[Row], limit: int = SHOWN) -> tuple[Sequence[Row], int]:
    """The rows to draw, and how many are left out."""
    return (rows, 0) if len(rows) <= limit else (rows[:limit], len(rows) - limit)


def fill(table: Table, rows: Sequence[Sequence[str | Text]], what: str,
         limit: int = SHOWN) -> Text | None:
    """Add the first `limit` rows to `table`; the line that counts the rest, if any."""
    shown, hidden = first(rows, limit)
    for row in shown:
        table.add_row(*row)
    return more(hidden, what)


def more(hidden: int, what: str) -> Text | None:
    return Text(f"… and {hidden:,} more {what}, not drawn here; `--json` lists them all") \
        if hidden else None
