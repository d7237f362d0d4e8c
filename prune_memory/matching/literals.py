"""What a pattern promises, read from its source: literals every match holds, and whether a
match can reach past a line. `regexsyntax.py` reads the source; whatever it does not follow
gives "cannot tell" (no literals, may cross lines), which only ever keeps the regex running.

The standard library keeps its own parser private, and the public readers (RE2's
FilteredRE2, greenery, interegular) read no look-arounds or `\b`, which most shipped
patterns use: so the syntax is read here, and the property tests hold both answers to `re`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, Protocol

from prune_memory.matching.regexsyntax import Node, Unknown, parse

Needle = tuple[str, bool]  # (literal, folded: compare against the lower-cased text)
MIN_NEEDLE = 2  # a single character occurs in almost every text and buys nothing
MAX_STRINGS = 64  # joined literal parts stop growing past this many strings


class Source(Protocol):
    """A pattern's source and flags: a compiled `re.Pattern` or a `LazyPattern`."""

    @property
    def pattern(self) -> str | bytes: ...

    @property
    def flags(self) -> int: ...


@lru_cache(maxsize=512)
def required_literals(pattern: Source) -> frozenset[Needle] | None:
    """Literals one of which every match of `pattern` contains; None when unknown."""
    if not isinstance(pattern.pattern, str):
        return None
    try:
        tree, flags = parse(pattern.pattern, int(pattern.flags))
    except Unknown:  # syntax the reader does not follow: "cannot tell", never a failure
        return None
    found = _sequence(tree, bool(flags & re.IGNORECASE))
    if found is None or min(len(text) for text, _ in found) < MIN_NEEDLE:
        return None
    return found


def _sequence(items: Sequence[Node], folded: bool) -> frozenset[Needle] | None:
    """The best needle set among the parts of a sequence: each part's match is inside.

    Neighbouring literal parts are joined ("(?:this|next) session" gives "this session"
    and "next session"), as long as the number of strings stays small.
    """
    candidates: list[frozenset[Needle]] = []
    run: set[str] = {""}
    for node in [*items, None]:
        strings = _strings(node, folded) if node is not None else None
        if strings is not None and len(run) * len(strings) <= MAX_STRINGS:
            run = {head + tail for head in run for tail in strings}
            continue
        candidates.extend(_literals(run, folded))
        run = strings if strings is not None else {""}
        if node is not None and strings is None:
            candidates.extend(_part(node, folded))
    return max(candidates, key=_quality, default=None)


def _strings(node: Node, folded: bool) -> set[str] | None:
    """Every string a small, purely literal part can match ({""} for zero-width parts)."""
    kind, value = node
    if kind == "LITERAL":
        char = chr(value)
        if folded and not char.isascii() and not char.lower() == char == char.upper():
            return None  # a non-ASCII letter may fold to an ASCII one (ſ, K): no safe needle
        return {char.lower() if folded else char}  # a caseless one (必) is itself alone
    if kind in ("AT", "ASSERT"):
        return {""}
    if kind == "IN" and len(value) <= 8 and all(member == "LITERAL" for member, _ in value):
        found = [_strings(member, folded) for member in value]
        return None if None in found else set().union(*found)  # type: ignore[arg-type]
    if kind == "BRANCH":
        options = [_only_strings(alternative, folded) for alternative in value]
        return None if None in options else set().union(*options)  # type: ignore[arg-type]
    if kind == "GROUP" and not (value[0] or value[1]):
        return _only_strings(value[2], folded)
    return None


def _only_strings(items: Sequence[Node], folded: bool) -> set[str] | None:
    """The strings a sequence of literal parts can match, or None if any part is not one."""
    run: set[str] = {""}
    for node in items:
        strings = _strings(node, folded)
        if strings is None or len(run) * len(strings) > MAX_STRINGS:
            return None
        run = {head + tail for head in run for tail in strings}
    return run


def _literals(run: set[str], folded: bool) -> list[frozenset[Needle]]:
    return [] if run == {""} else [frozenset((text, folded) for text in run)]


def _part(node: Node, folded: bool) -> Iterable[frozenset[Needle]]:
    kind, value = node
    found: frozenset[Needle] | None = None
    if kind == "BRANCH":
        alternatives = [_sequence(alternative, folded) for alternative in value]
        if all(alternative is not None for alternative in alternatives):
            found = frozenset().union(*alternatives)  # type: ignore[arg-type]
    elif kind == "GROUP":
        added, removed, inner = value
        scoped = (folded or bool(added & re.IGNORECASE)) and not removed & re.IGNORECASE
        found = _sequence(inner, scoped)
    elif kind == "REPEAT" and value[0] >= 1:
        found = _sequence(value[2], folded)
    if found is not None:
        yield found
    # Anything else (classes, anchors, look-arounds, back-references) constrains nothing.


def _quality(needles: frozenset[Needle]) -> tuple[int, int]:
    """Longer shortest needle first, then fewer needles."""
    return (min(len(text) for text, _ in needles), -len(needles))


@lru_cache(maxsize=512)
def crosses_lines(pattern: Source) -> bool:
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
