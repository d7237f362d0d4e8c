"""A substring test that rules a regex out before it runs.

Python's regex engine tries a pattern at every position of a text, so a dozen patterns over
ten thousand memories cost seconds even when nothing matches, which is the usual case.
`literals.py` gives literal strings of which every match must contain at least one; when
none of them is in the text, the pattern cannot match and is skipped. The test
errs only towards running the regex: anything it cannot reason about (a non-ASCII literal
under IGNORECASE, a non-ASCII text under IGNORECASE, LOCALE, an unknown node) keeps the
regex in play, so results never change.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from prune_memory.matching.literals import Needle, required_literals

# Non-ASCII letters that IGNORECASE matches to ASCII ones (ſ, K, İ, ı): a text holding one
# may match a folded literal it does not spell.
ASCII_LOOKALIKES = ("\u017f", "\u212a", "\u0130", "\u0131")


class LazyPattern:
    """A regex compiled on first use. The write-time gate compiles only the patterns whose
    literals turn up in the text; the rest cost nothing but their source string."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0,
                 endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(text, pos, endpos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(text)


class GatedPattern(LazyPattern):
    """A `LazyPattern` that runs only on texts holding one of its literals (`may_match`):
    for the word patterns asked of every memory, most of which hold none of the words."""

    __slots__ = ()

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos) if may_match(self, text) else None

    def finditer(self, text: str, pos: int = 0,
                 endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text, pos, endpos) if may_match(self, text) else iter(())

    def findall(self, text: str) -> list[Any]:
        return self.compiled.findall(text) if may_match(self, text) else []


Regex = re.Pattern[str] | LazyPattern


def gate_literals(pattern: Regex) -> tuple[tuple[str, ...], tuple[str, ...]] | tuple[()]:
    """(exact literals, lower-cased literals) one of which every match holds; () if unknown."""
    gate = _GATES.get(pattern)
    if gate is None:
        gate = _GATES[pattern] = _split(required_literals(pattern))
    return gate


def may_match(pattern: Regex, text: str) -> bool:
    """False only when `pattern` cannot match anywhere in `text` (or any part of it)."""
    gate = _GATES.get(pattern)  # asked for every pattern of every memory: kept short
    if gate is None:
        gate = gate_literals(pattern)
    if not gate:
        return True
    exact, folded = gate
    for literal in exact:
        if literal in text:
            return True
    if folded:
        if not text.isascii():
            return True  # Unicode case folding has surprises; let the regex decide
        low = lowered(text)
        for literal in folded:
            if literal in low:
                return True
    return False


def any_of(needles: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern that finds any of `needles` (None when there are none).

    The alternatives are merged by common prefix (`a(?:kia|sia)`), so the engine tests each
    position against one set of first characters instead of trying every needle in turn.
    """
    trie: dict[str, Any] = {}
    for needle in needles:
        node = trie
        for char in needle:
            node = node.setdefault(char, {})
        node[""] = {}
    return re.compile(_trie_pattern(trie)) if trie else None


def _trie_pattern(node: dict[str, Any]) -> str:
    branches = [re.escape(char) + _trie_pattern(node[char]) for char in sorted(node) if char]
    if not branches:
        return ""
    joined = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{joined})?" if "" in node else joined


_GATES: dict[Regex, tuple[tuple[str, ...], tuple[str, ...]] | tuple[()]] = {}


def _split(needles: frozenset[Needle] | None
           ) -> tuple[tuple[str, ...], tuple[str, ...]] | tuple[()]:
    """(exact literals, lower-cased literals), or () when the pattern cannot be gated."""
    if needles is None:
        return ()
    return (tuple(sorted(t for t, folded in needles if not folded)),
            tuple(sorted(t for t, folded in needles if folded)))


_LAST: list[tuple[str, str]] = [("", "")]


def lowered(text: str) -> str:
    """`text.lower()`, kept for the last text: every pattern asks about the same one."""
    last, low = _LAST[0]
    if last is not text:
        low = text.lower()
        _LAST[0] = (text, low)
    return low
