"""Markdown table rows for the pruning log: one line per row, pipes escaped."""

from __future__ import annotations

import json
import re

from prune_memory.secrets.mask import mask_text

_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def cell(text: str) -> str:
    """Text made safe for one table cell: a single line, pipes escaped, and any secret
    masked (the log sits in the memory directory: nothing written there carries one)."""
    return mask_text(" ".join(text.split())).replace("|", "\\|")


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


def keeps_exactly(text: str) -> bool:
    """True when a table cell (and a pair of backticks) hold `text` exactly as it is."""
    return text == " ".join(text.split()) and text.isprintable() and "`" not in text \
        and not text.startswith('"')


def code_name(name: str) -> str:
    """A file name in backticks for a log row. A name a cell would change — runs of spaces,
    tabs, line or page breaks, a backtick, anything unprintable — is written as a JSON
    string (every such character escaped), so the name reads back exactly."""
    if keeps_exactly(name):
        return f"`{name}`"
    quoted = json.dumps(name).replace(" ", "\\u0020").replace("`", "\\u0060")
    return f"`{quoted}`"


def name_from_code(text: str) -> str:
    """The file name `code_name` wrote (between the backticks)."""
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        try:
            name = json.loads(text)
        except ValueError:
            return text
        return name if isinstance(name, str) else text
    return text
