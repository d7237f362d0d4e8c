"""What reaches the terminal: every string rich renders goes through `printable` first.

`console()` hands out a `PrintableConsole`, so a table cell, a printed line or a prompt
that carries memory text cannot send the terminal an escape sequence; rich's own styling
is added after, and stays.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from prune_memory.printable import printable


class PrintableConsole(Console):
    """A rich console whose every string is masked and made printable before it is laid
    out: a table that wraps a cell cuts a token into pieces no line-by-line masking finds
    again, so each value is masked whole, first."""

    def render_str(self, text: str, *args: Any, **kwargs: Any) -> Text:
        return super().render_str(shown(text), *args, **kwargs)

    def print(self, *objects: Any, **kwargs: Any) -> None:
        super().print(*(_printable(o) for o in objects), **kwargs)


def shown(text: str) -> str:
    """What the terminal gets of one whole value: secrets masked, controls made visible."""
    from prune_memory.secrets.mask import mask_text

    return printable(mask_text(text))


def _printable(obj: Any) -> Any:
    if isinstance(obj, Text) and (plain := obj.plain) != shown(plain):
        return Text(shown(plain), style=obj.style)
    return obj

