"""Output for a pipe or a file: one line per entry, no boxes, nothing wrapped.

A terminal gets rich tables; anything else gets the same rows as tab-separated lines
(a title line, a header line, then one line per row), so `grep`, `cut` and `wc -l` work
and a path is never broken across two lines.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text


def plain_lines(shown: RenderableType) -> list[str]:
    """What `shown` says, as plain lines."""
    if isinstance(shown, Group):
        return [line for part in shown.renderables for line in plain_lines(part)]
    if isinstance(shown, Table):
        return _table(shown)
    if isinstance(shown, Text):
        return shown.plain.splitlines() or [""]
    return str(shown).splitlines() or [""]


def _table(table: Table) -> list[str]:
    lines = [_cell(table.title)] if table.title else []
    columns = table.columns
    if table.show_header:
        lines.append("\t".join(_cell(c.header) for c in columns))
    rows = zip(*(list(c.cells) for c in columns), strict=True)
    lines += ["\t".join(_cell(cell) for cell in row) for row in rows]
    return lines


def _cell(cell: object) -> str:
    text = cell.plain if isinstance(cell, Text) else str(cell)
    return " ".join(text.split())  # a tab or newline inside a cell would break the row
