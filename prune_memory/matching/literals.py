"""What a pattern's parse tree promises: literals every match holds, and whether a match can
reach past a line. The tree is the one `re.compile` itself builds (`re._parser`), so the
answers are about exactly the regex that runs.

`re._parser` is CPython's own module, not a documented API. So every use is guarded: a parser
that is missing or fails, or a node not named below, gives "cannot tell" (no literals, may
cross lines), which only ever keeps the regex running. The property tests hold both answers
to `re` on random patterns.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache
from typing import Any, Protocol

Needle = tuple[str, bool]  # (literal, folded: compare against the lower-cased text)
MIN_NEEDLE = 2  # a single character occurs in almost every text and buys nothing
MAX_STRINGS = 64  # joined literal parts stop growing past this many strings
NEWLINE = 10
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
_ASSERTS = frozenset({"ASSERT", "ASSERT_NOT"})
# Anchors that mean the same whether the text ends at a line's end or goes on.
_LINE_SAFE_AT = frozenset({"AT_BEGINNING", "AT_BEGINNING_STRING", "AT_BOUNDARY",
                           "AT_NON_BOUNDARY"})
_CATEGORY_HAS_NEWLINE = {"CATEGORY_SPACE": True, "CATEGORY_NOT_DIGIT": True,
                         "CATEGORY_NOT_WORD": True, "CATEGORY_DIGIT": False,
                         "CATEGORY_WORD": False, "CATEGORY_NOT_SPACE": False}



class Source(Protocol):
    """A pattern's source and flags: a compiled `re.Pattern` or a `LazyPattern`."""

    @property
    def pattern(self) -> str | bytes: ...

    @property
    def flags(self) -> int: ...


try:
    _PARSER: Any = importlib.import_module("re._parser")
except ImportError:  # another Python: nothing is gated, everything still runs
    _PARSER = None


def required_literals(pattern: Source) -> frozenset[Needle] | None:
    """Literals one of which every match of `pattern` contains; None when unknown."""
    return _facts(pattern.pattern, int(pattern.flags))[0]


def crosses_lines(pattern: Source) -> bool:
    """True unless every part of `pattern` provably keeps to one line (unknown: True)."""
    return _facts(pattern.pattern, int(pattern.flags))[1]


@lru_cache(maxsize=512)
def _facts(source: str | bytes, flags: int) -> tuple[frozenset[Needle] | None, bool]:
    if _PARSER is None or not isinstance(source, str):
        return None, True
    try:
        tree = _PARSER.parse(source, flags)
        flags = int(tree.state.flags)
        found = _sequence(tree, bool(flags & re.IGNORECASE))
        crosses = _crosses(tree, flags)
    except Exception:  # an error, a LOCALE flag, a parser that changed: "cannot tell"
        return None, True
    if found is not None and min(len(text) for text, _ in found) < MIN_NEEDLE:
        found = None
    return found, crosses


def _sequence(items: Any, folded: bool) -> frozenset[Needle] | None:
    """The best needle set among the parts of a sequence: each part's match is inside.

    Neighbouring literal parts are joined ("(?:this|next) session" gives "this session"
    and "next session"), as long as the number of strings stays small. A run goes on into
    the literal heads of an alternation after it: the parser moves a prefix the
    alternatives share in front of them (`AKIA|ASIA` is `A(?:KIA|SIA)`).
    """
    best: frozenset[Needle] | None = None
    run: set[str] = {""}
    for op, value in [*items, (None, None)]:
        kind = op.name if op is not None else ""
        strings = _strings(kind, value, folded) if kind else None
        if strings is not None and len(run) * len(strings) <= MAX_STRINGS:
            run = {head + tail for head in run for tail in strings}
            continue
        if run != {""}:
            best = _better(best, frozenset((text, folded) for text in run))
            if kind == "BRANCH" and strings is None:
                heads = _union([_head(alternative, folded)[0] for alternative in value[1]])
                if heads and len(run) * len(heads) <= MAX_STRINGS:
                    best = _better(best, frozenset((head + tail, folded)
                                                   for head in run for tail in heads))
        if kind and strings is None:
            best = _better(best, _part(kind, value, folded))
        run = strings if strings is not None else {""}
    return best


def _strings(kind: str, value: Any, folded: bool) -> set[str] | None:
    """Every string a small, purely literal part can match ({""} for zero-width parts)."""
    if kind == "LITERAL":
        char = chr(value)
        if folded and not char.isascii() and not char.lower() == char == char.upper():
            return None  # a non-ASCII letter may fold to an ASCII one (ſ, K): no safe needle
        return {char.lower() if folded else char}  # a caseless one (必) is itself alone
    if kind == "AT" or kind in _ASSERTS:
        return {""}
    if kind == "IN" and len(value) <= 8:
        return _union([_strings(op.name, member, folded) for op, member in value])
    if kind == "BRANCH":
        return _union([_only_strings(alternative, folded) for alternative in value[1]])
    if kind == "SUBPATTERN" and not (value[1] or value[2]):
        return _only_strings(value[3], folded)
    return None


def _only_strings(items: Any, folded: bool) -> set[str] | None:
    """The strings a sequence of literal parts can match, or None if any part is not one."""
    strings, whole = _head(items, folded)
    return strings if whole else None


def _head(items: Any, folded: bool) -> tuple[set[str], bool]:
    """The strings the literal parts at the start of a sequence match, and whether those
    parts are the whole sequence."""
    run: set[str] = {""}
    for op, value in items:
        strings = _strings(op.name, value, folded)
        if strings is None or len(run) * len(strings) > MAX_STRINGS:
            return run, False
        run = {head + tail for head in run for tail in strings}
    return run, True


def _union(options: list[set[str] | None]) -> set[str] | None:
    found: set[str] = set()
    for option in options:
        if option is None:
            return None
        found |= option
    return found


def _part(kind: str, value: Any, folded: bool) -> frozenset[Needle] | None:
    """The needles of a part that is not plain literals. Anything not named here (classes,
    anchors, look-arounds, back-references, conditionals) constrains nothing."""
    if kind == "BRANCH":
        alternatives = [_sequence(alternative, folded) for alternative in value[1]]
        if all(alternative is not None for alternative in alternatives):
            return frozenset().union(*alternatives)  # type: ignore[arg-type]
    elif kind == "SUBPATTERN":
        _, added, removed, inner = value
        return _sequence(inner, (folded or bool(added & re.IGNORECASE))
                         and not removed & re.IGNORECASE)
    elif kind == "ATOMIC_GROUP":
        return _sequence(value, folded)
    elif kind in _REPEATS and value[0] >= 1:
        return _sequence(value[2], folded)
    return None


def _better(best: frozenset[Needle] | None,
            found: frozenset[Needle] | None) -> frozenset[Needle] | None:
    """Longer shortest needle first, then fewer needles; the earlier on a tie."""
    if found is None or (best is not None and _quality(found) <= _quality(best)):
        return best
    return found


def _quality(needles: frozenset[Needle]) -> tuple[int, int]:
    return (min(len(text) for text, _ in needles), -len(needles))


def _crosses(items: Any, flags: int) -> bool:
    return any(_node_crosses(op.name, value, flags) for op, value in items)


def _node_crosses(kind: str, value: Any, flags: int) -> bool:
    if kind == "LITERAL":
        return bool(value == NEWLINE)
    if kind == "NOT_LITERAL":
        return bool(value != NEWLINE)
    if kind == "ANY":
        return bool(flags & re.DOTALL)
    if kind == "IN":
        return _class_has_newline(value)
    if kind == "AT":  # `$` without MULTILINE, and `\Z`, would move with endpos
        return value.name not in _LINE_SAFE_AT and not (
            value.name == "AT_END" and flags & re.MULTILINE)
    if kind == "BRANCH":
        return any(_crosses(alternative, flags) for alternative in value[1])
    if kind == "SUBPATTERN":
        return _crosses(value[3], (flags | value[1]) & ~value[2])
    if kind in _REPEATS:
        return _crosses(value[2], flags)
    if kind == "ATOMIC_GROUP":
        return _crosses(value, flags)
    if kind in _ASSERTS:
        return _crosses(value[1], flags)
    return kind != "GROUPREF"  # a back-reference repeats text already kept to the line


def _class_has_newline(members: Any) -> bool:
    """Whether a class matches a line break: a member does, unless the class is negated."""
    negate = found = False
    for op, value in members:
        kind = op.name
        if kind == "NEGATE":
            negate = True
        elif kind == "LITERAL":
            found = found or value == NEWLINE
        elif kind == "RANGE":
            found = found or value[0] <= NEWLINE <= value[1]
        elif kind == "CATEGORY" and value.name in _CATEGORY_HAS_NEWLINE:
            found = found or _CATEGORY_HAS_NEWLINE[value.name]
        else:
            return True  # a member not named here: assume the worst
    return found != negate
