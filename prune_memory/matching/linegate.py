"""Search only the lines of a text that can hold a match.

Python's regex engine tries a pattern at every position. When no match of a pattern can
involve a line break, a search limited (with `pos` and `endpos`) to the lines holding one
of its required literals finds exactly what a search of the whole text finds, at a
fraction of the cost on a long text: that is what keeps the write-time gate fast.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from prune_memory.matching.regexgate import ASCII_LOOKALIKES, Regex, gate_literals, lowered
from prune_memory.matching.regexsyntax import Node, Unknown, parse


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


@lru_cache(maxsize=512)
def crosses_lines(pattern: Regex) -> bool:
    """True unless every part of `pattern` provably keeps to one line (unknown: True)."""
    if not isinstance(pattern.pattern, str):
        return True
    try:
        tree, flags = parse(pattern.pattern, int(pattern.flags))
    except Unknown:  # syntax the reader does not follow: "cannot tell"
        return True
    return _crosses(tree, flags)


# Categories that hold a line break: \s, \D and \W.
_NEWLINE_CATEGORIES = frozenset("sDW")
# Anchors that mean the same whether the text ends at a line's end or goes on.
_LINE_SAFE_AT = frozenset({"BEGINNING", "BEGINNING_STRING", "BOUNDARY", "NON_BOUNDARY"})


def _crosses(items: Sequence[Node], flags: int) -> bool:
    return any(_node_crosses(kind, value, flags) for kind, value in items)


def _node_crosses(kind: str, value: Any, flags: int) -> bool:
    if kind == "LITERAL":
        return bool(value == 10)
    if kind == "ANY":
        return bool(flags & re.DOTALL)
    if kind == "IN":
        return _set_has_newline(value)
    if kind == "AT":  # `$` without MULTILINE, and `\Z`, would move with endpos
        return value not in _LINE_SAFE_AT and not (value == "END" and flags & re.MULTILINE)
    if kind == "BRANCH":
        return any(_crosses(alternative, flags) for alternative in value)
    if kind == "GROUP":
        added, removed, inner = value
        return _crosses(inner, (flags | added) & ~removed)
    if kind == "REPEAT":
        return _crosses(value[2], flags)
    if kind == "ASSERT":
        return _crosses(value, flags)
    return kind != "GROUPREF"  # a back-reference repeats text already kept to the line


def _set_has_newline(members: Sequence[Node]) -> bool:
    """Whether a class matches a line break: a member does, unless the class is negated."""
    negate = False
    found = False
    for kind, value in members:
        if kind == "NEGATE":
            negate = True
        elif kind == "LITERAL":
            found = found or value == 10
        elif kind == "RANGE":
            found = found or value[0] <= 10 <= value[1]
        elif kind == "CATEGORY":
            found = found or value in _NEWLINE_CATEGORIES
        else:
            return True  # unknown member: assume the worst
    return found != negate
