"""Plain lines for a terminal of any width: broken at word boundaries, never mid-word."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable


def wrap(text: str, width: int, indent: str = "", hang: str = "") -> list[str]:
    """`text` broken at word boundaries; a word longer than a line (a path) stays whole.
    Secrets are masked in the whole text first: once broken, no line holds all of one."""
    from prune_memory.secrets.mask import mask_text

    out: list[str] = []
    for line in mask_text(text).splitlines() or [""]:
        out += textwrap.wrap(line, width=max(width, 20), initial_indent=indent,
                             subsequent_indent=hang or indent, break_long_words=False,
                             break_on_hyphens=False, drop_whitespace=True) or [indent]
    return out


def labelled(items: Iterable[tuple[str, str]], width: int, label_width: int = 9) -> list[str]:
    """`  label  detail` lines with the detail wrapped under itself."""
    out: list[str] = []
    for label, detail in items:
        out += wrap(f"  {label:<{label_width}} {detail}", width, hang=" " * (label_width + 3))
    return out
