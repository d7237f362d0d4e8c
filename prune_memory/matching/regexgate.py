"""Regexes that run only where they can match.

Python's regex engine tries a pattern at every position of a text, so a dozen patterns over
ten thousand memories cost seconds even when nothing matches, which is the usual case. A
pattern compiles on first use; it is skipped on a text holding none of the literals every
match contains (`literals.py`), and when no match can reach past a line, searched only on
the lines holding one. The gate errs only towards running the regex: a non-ASCII text under
IGNORECASE, or a pattern that cannot be read, keeps it in play, so results never change.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import ahocorasick

from prune_memory.matching.literals import crosses_lines, required_literals

# Non-ASCII letters that IGNORECASE matches to ASCII ones (ſ, K, İ, ı): a text holding one
# may match a folded literal it does not spell.
ASCII_LOOKALIKES = ("\u017f", "\u212a", "\u0130", "\u0131")


def folds_unseen(text: str) -> bool:
    """Whether `text` holds a letter IGNORECASE matches to an ASCII one its lower-cased form
    does not spell (ſ is s, K is k): then a literal looked for in `lowered(text)` proves
    nothing."""
    return not text.isascii() and any(c in text for c in ASCII_LOOKALIKES)
FEW = 8  # up to this many needles, `in` for each is quicker than one automaton pass


class Needles:
    """Substrings looked for together: one Aho-Corasick pass (pyahocorasick) over the text
    however many there are, or `in` for each when they are few."""

    __slots__ = ("_automaton", "words")

    def __init__(self, words: Iterable[str]) -> None:
        self.words = tuple(sorted(set(words)))
        self._automaton: Any = None
        if len(self.words) > FEW and "" not in self.words:
            self._automaton = ahocorasick.Automaton()
            for word in self.words:
                self._automaton.add_word(word, word)
            self._automaton.make_automaton()

    def __bool__(self) -> bool:
        return bool(self.words)

    def found_in(self, text: str) -> bool:
        if self._automaton is not None:
            return next(self._automaton.iter(text), None) is not None
        return any(word in text for word in self.words)

    def present(self, text: str) -> set[str]:
        """The words that occur in `text`."""
        if self._automaton is None:
            return {word for word in self.words if word in text}
        return {word for _, word in self._automaton.iter(text)}

    def where(self, text: str) -> dict[str, list[int]]:
        """Each word that occurs in `text`, with the offsets where it begins, in order."""
        if self._automaton is None:
            found = {word: list(_occurrences(text, word)) for word in self.words}
            return {word: starts for word, starts in found.items() if starts}
        where: dict[str, list[int]] = {}
        for end, word in self._automaton.iter(text):
            where.setdefault(word, []).append(end - len(word) + 1)
        return where

    def starts(self, text: str) -> set[int]:
        """Every offset where one of the words begins in `text`."""
        if self._automaton is not None:
            return {end - len(word) + 1 for end, word in self._automaton.iter(text)}
        return {at for word in self.words for at in _occurrences(text, word)}


def _occurrences(text: str, word: str) -> Iterator[int]:
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


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
Gate = tuple[Needles, Needles] | tuple[()]  # (exact, lower-cased); (): cannot be gated
_GATES: dict[Regex, Gate] = {}


def gate_of(pattern: Regex) -> Gate:
    """(exact literals, lower-cased literals) one of which every match holds; () if unknown."""
    gate = _GATES.get(pattern)
    if gate is None:
        needles = required_literals(pattern)
        gate = _GATES[pattern] = () if needles is None else (
            Needles(text for text, folded in needles if not folded),
            Needles(text for text, folded in needles if folded))
    return gate


def may_match(pattern: Regex, text: str) -> bool:
    """False only when `pattern` cannot match anywhere in `text` (or any part of it)."""
    gate = _GATES.get(pattern)  # asked for every pattern of every memory: kept short
    if gate is None:
        gate = gate_of(pattern)
    if not gate:
        return True
    exact, folded = gate
    if exact.found_in(text):
        return True
    if folded:
        if not text.isascii():
            return True  # Unicode case folding has surprises; let the regex decide
        return folded.found_in(lowered(text))
    return False


_LAST: list[tuple[str, str]] = [("", "")]


def lowered(text: str) -> str:
    """`text.lower()`, kept for the last text: every pattern asks about the same one."""
    last, low = _LAST[0]
    if last is not text:
        low = text.lower()
        _LAST[0] = (text, low)
    return low


def needle_lines(pattern: Regex, text: str, *,
                 per_line: bool = False) -> list[tuple[int, int]] | None:
    """(start, end) of every line of `text` holding a literal each match of `pattern` has.

    When no match can involve a line break, searching only these lines (with `pos` and
    `endpos`) finds exactly what a search of the whole text would. `per_line` is for
    callers that search line by line anyway. None: search everything.
    """
    if not per_line and crosses_lines(pattern):
        return None
    gate = gate_of(pattern)
    if not gate or any("\n" in word for needles in gate for word in needles.words):
        return None
    exact, folded = gate
    low = lowered(text) if folded else text
    if len(low) != len(text) or (folded and any(c in text for c in ASCII_LOOKALIKES)):
        return None  # the lower-cased offsets would not be the text's
    return lines_at(text, sorted(exact.starts(text) | folded.starts(low)))


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
