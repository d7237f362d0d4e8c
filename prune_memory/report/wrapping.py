"""Plain lines for a terminal of any width: broken at word boundaries, never mid-word.

Widths are terminal cells, not characters: a CJK character takes two cells, and a line of
Chinese or Japanese, which has no spaces, may break between any two such characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.cells import cell_len, get_character_cell_size

_TOKENS = re.compile(r"\s+|\S+")


def wrap(text: str, width: int, indent: str = "", hang: str = "") -> list[str]:
    """`text` broken at word boundaries; a word longer than a line (a path) stays whole.
    Spaces inside a line are kept as written (aligned columns stay aligned); a break
    drops the spaces it falls on. Secrets are masked in the whole text first: once
    broken, no line holds all of one."""
    from prune_memory.secrets.mask import mask_text

    out: list[str] = []
    for line in mask_text(text).expandtabs().splitlines() or [""]:
        out += _wrap_line(line, max(width, 20), indent, hang or indent) or [indent]
    return out


def _wrap_line(line: str, width: int, indent: str, hang: str) -> list[str]:
    lines: list[str] = []
    current, lead, gap = indent, indent, ""
    for token in _TOKENS.findall(line):
        if token.isspace():
            gap += token
            continue
        for n, piece in enumerate(_pieces(token)):
            space = gap if n == 0 else ""
            if current != lead and cell_len(current + space + piece) > width:
                lines.append(current)
                current, lead, space = hang, hang, ""
            current += space + piece
        gap = ""
    if current != lead:
        lines.append(current)
    return lines


def _pieces(word: str) -> list[str]:
    """A word's unbreakable parts: each wide (two-cell) character alone, runs of the rest
    together, so `因子业务` may break anywhere and `src/auth.py` nowhere."""
    pieces: list[str] = []
    run = ""
    for ch in word:
        if get_character_cell_size(ch) == 2:
            if run:
                pieces.append(run)
                run = ""
            pieces.append(ch)
        else:
            run += ch
    if run:
        pieces.append(run)
    return pieces


def labelled(items: Iterable[tuple[str, str]], width: int, label_width: int = 9) -> list[str]:
    """`  label  detail` lines with the detail wrapped under itself."""
    out: list[str] = []
    for label, detail in items:
        out += wrap(f"  {label:<{label_width}} {detail}", width, hang=" " * (label_width + 3))
    return out
