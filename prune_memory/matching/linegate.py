"""Search only the lines of a text that can hold a match.

Python's regex engine tries a pattern at every position. When no match of a pattern can
involve a line break, a search limited (with `pos` and `endpos`) to the lines holding one
of its required literals finds exactly what a search of the whole text finds, at a
fraction of the cost on a long text: that is what keeps the write-time gate fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from prune_memory.matching.literals import crosses_lines
from prune_memory.matching.regexgate import ASCII_LOOKALIKES, Regex, gate_literals, lowered


def needle_lines(pattern: Regex, text: str, *,
                 per_line: bool = False) -> list[tuple[int, int]] | None:
    """(start, end) of every line of `text` holding a literal each match of `pattern` has.

    When no match can involve a line break, searching only these lines (with `pos` and
    `endpos`) finds exactly what a search of the whole text would. `per_line` is for
    callers that search line by line anyway. None: search everything.
    """
    if not per_line and crosses_lines(pattern):
        return None
    gate = gate_literals(pattern)
    if not gate:
        return None
    exact, folded = gate
    lowered = _line_lowered(text) if folded else text
    if lowered is None or any("\n" in lit for lit in (*exact, *folded)):
        return None
    hits = sorted({at for lit in exact for at in occurrences(text, lit)}
                  | {at for lit in folded for at in occurrences(lowered, lit)})
    return lines_at(text, hits)


def _line_lowered(text: str) -> str | None:
    """`text` lower-cased with offsets unchanged, or None when that cannot be promised."""
    low = lowered(text)
    if len(low) != len(text) or any(c in text for c in ASCII_LOOKALIKES):
        return None
    return low


def lines_at(text: str, positions: Sequence[int]) -> list[tuple[int, int]]:
    """The distinct lines (start, end without the newline) holding these sorted offsets."""
    spans: list[tuple[int, int]] = []
    for at in positions:
        if spans and at < spans[-1][1]:
            continue
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        spans.append((start, len(text) if end < 0 else end))
    return spans


def occurrences(text: str, literal: str) -> Iterable[int]:
    """Every offset where `literal` starts in `text`."""
    at = text.find(literal)
    while at >= 0:
        yield at
        at = text.find(literal, at + 1)
