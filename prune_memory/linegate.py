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

from prune_memory import warmcache
from prune_memory.regexgate import Regex, gate_literals, lowered, pattern_key

try:  # the standard library's regex parser; without it nothing is line-gated
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _p = None

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


# Non-ASCII letters that IGNORECASE matches to ASCII ones (ſ, K, İ, ı): with one of them in
# the text a lower-cased search could miss a match, so such texts are searched in full.
_ASCII_LOOKALIKES = ("\u017f", "\u212a", "\u0130", "\u0131")


def _line_lowered(text: str) -> str | None:
    """`text` lower-cased with offsets unchanged, or None when that cannot be promised."""
    low = lowered(text)
    if len(low) != len(text) or any(c in text for c in _ASCII_LOOKALIKES):
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
    key = pattern_key(pattern)
    known = warmcache.get("crosses", key)
    if isinstance(known, bool):
        return known
    found = _crosses_lines(pattern)
    warmcache.put("crosses", key, found)
    return found


def _crosses_lines(pattern: Regex) -> bool:
    if _p is None or not isinstance(pattern.pattern, str):
        return True
    try:
        tree = _p.parse(pattern.pattern, pattern.flags)
        return _crosses(list(tree), tree.state.flags)
    except Exception:  # an unexpected tree means "cannot tell"
        return True


_NEWLINE_CATEGORIES = {"CATEGORY_SPACE", "CATEGORY_NOT_DIGIT", "CATEGORY_NOT_WORD",
                       "CATEGORY_LINEBREAK", "CATEGORY_UNI_SPACE", "CATEGORY_UNI_NOT_DIGIT",
                       "CATEGORY_UNI_NOT_WORD", "CATEGORY_UNI_LINEBREAK"}
_LINE_SAFE_AT = {"AT_BEGINNING", "AT_BEGINNING_LINE", "AT_END_LINE", "AT_BOUNDARY",
                 "AT_NON_BOUNDARY", "AT_BEGINNING_STRING", "AT_UNI_BOUNDARY",
                 "AT_UNI_NON_BOUNDARY", "AT_LOC_BOUNDARY", "AT_LOC_NON_BOUNDARY"}


def _crosses(items: Sequence[tuple[Any, Any]], flags: int) -> bool:
    return any(_node_crosses(op, arg, flags) for op, arg in items)


def _node_crosses(op: Any, arg: Any, flags: int) -> bool:
    name = str(op)
    if name == "LITERAL":
        return bool(arg == 10)
    if name == "NOT_LITERAL":
        return bool(arg != 10)
    if name == "ANY":
        return bool(flags & re.DOTALL)
    if name == "IN":
        return _set_has_newline(arg)
    if name == "AT":  # `$` without MULTILINE, and `\Z`, would move with endpos
        multiline_end = str(arg) == "AT_END" and bool(flags & re.MULTILINE)
        return str(arg) not in _LINE_SAFE_AT and not multiline_end
    if name == "BRANCH":
        return any(_crosses(list(alt), flags) for alt in arg[1])
    if name == "SUBPATTERN":
        _group, add, remove, sub = arg
        return _crosses(list(sub), (flags | add) & ~remove)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return _crosses(list(arg[2]), flags)
    if name in ("ASSERT", "ASSERT_NOT"):
        return _crosses(list(arg[1]), flags)
    if name == "ATOMIC_GROUP":
        return _crosses(list(arg), flags)
    return name != "GROUPREF"  # a back-reference repeats text already kept to the line


def _set_has_newline(items: Sequence[tuple[Any, Any]]) -> bool:
    negate = False
    found = False
    for op, arg in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            found = found or arg == 10
        elif name == "RANGE":
            found = found or arg[0] <= 10 <= arg[1]
        elif name == "CATEGORY":
            found = found or str(arg) in _NEWLINE_CATEGORIES
        else:
            return True  # unknown member: assume the worst
    return found != negate
