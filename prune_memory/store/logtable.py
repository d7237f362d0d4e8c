"""Markdown table rows for the pruning log: one line per row, pipes escaped."""

from __future__ import annotations

import re

_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def cell(text: str) -> str:
    """Text made safe for one table cell: a single line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def render_row(cells: tuple[str, ...] | list[str]) -> str:
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def render_header(columns: tuple[str, ...]) -> list[str]:
    return [render_row(columns), "|" + "---|" * len(columns)]


def split_row(line: str) -> list[str]:
    """Cells of one `| a | b |` line, unescaped and trimmed."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [part.strip().replace("\\|", "|") for part in _UNESCAPED_PIPE.split(inner)]
