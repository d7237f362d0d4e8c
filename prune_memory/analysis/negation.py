"""Contradictions a whole-text comparison misses: one statement denies another.

"The cache resets nightly" and "the cache does not reset nightly" share too few words for
the similarity check (the negation and its auxiliary change them), yet they cannot both be
true. Here each memory, and each CLAUDE.md file, is cut into statements (`statements.py`);
two statements contradict when one denies what the other asserts in the same words. Against
CLAUDE.md a total that disagrees ("12 services" against "9 services") counts too. Every
finding is `contradiction`: a wording heuristic that a person settles (`review`).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from prune_memory.analysis.compared import analysed_text
from prune_memory.analysis.instructions import claude_md_units
from prune_memory.analysis.statements import Statement, statements, stem
from prune_memory.model import Entry, Finding, FindingCode, MemoryDir
from prune_memory.secrets.mask import mask_text

LIMITS = ("wording heuristic: it misses denials worded differently and can pair statements "
          "about different things; decide from sources and dates which holds")
SUBSET_AT = 0.75  # a shorter statement inside a longer one still counts this close
_TOTAL = re.compile(r"\b(\d{1,6})\s+([a-z][a-z-]{2,}s)\b", re.IGNORECASE)
_NOT_COUNTED = frozenset({"seconds", "minutes", "hours", "days", "weeks", "months", "years",
                          "times", "lines", "bytes", "chars", "characters", "percent", "steps",
                          "retries", "attempts", "tokens", "words", "ms", "mins", "secs"})


@dataclass(frozen=True)
class Denial:
    """Statement `first` and statement `second`, one denying the other."""

    first: Statement
    second: Statement
    kind: str  # "negated-statement" or "different-total"


def denials(left: Sequence[Statement], right: Sequence[Statement], *,
            same_side: bool) -> list[Denial]:
    """Pairs (one from each list, or two of one list when `same_side`) where one statement
    denies the other; statements of the same owner are never paired on the same side.

    Only the few negated statements are walked; the plain ones are looked up through an
    index of pairs of their words (`_Plain`)."""
    found: dict[tuple[int, int, int, int], Denial] = {}
    for denied, plain, flipped in ((left, right, False), (right, left, True)):
        if same_side and flipped:
            break  # one list: each pair is met from its negated side already
        index = _Plain(plain)
        for a in denied:
            if not a.negated or a.hedged:
                continue
            for b in index.matches(a):
                if same_side and a.owner == b.owner:
                    continue
                first, second = (b, a) if flipped else (a, b)
                key = (first.owner, first.line, second.owner, second.line)
                found.setdefault(key, Denial(first, second, "negated-statement"))
    return list(found.values())


class _Plain:
    """The plain statements of one side, filed by pairs of words for `matches`.

    A match shares at least SUBSET_AT of the words of each of the two statements (the
    smaller one lies inside the larger, and is at least that share of it). In one global
    order of words (rarest first), two statements sharing m words have their first two
    shared words among each one's first len - m + 2: so each is filed under every pair of
    words of that prefix, and only statements filed under a pair of the negated one's are
    compared. On notes from a small vocabulary the one-word prefix reached most of them."""

    def __init__(self, plain: Sequence[Statement]) -> None:
        self.statements = [s for s in plain if not s.negated and not s.hedged]
        self.count = Counter(word for s in self.statements for word in s.core)
        self.position = {id(s): n for n, s in enumerate(self.statements)}
        self.filed: dict[tuple[str, ...], list[Statement]] = defaultdict(list)
        for statement in self.statements:
            for key in self._keys(self._ordered(statement.core)):
                self.filed[key].append(statement)

    def _ordered(self, core: frozenset[str]) -> list[str]:
        return sorted(core, key=lambda word: (self.count.get(word, 0), word))

    @staticmethod
    def _keys(words: list[str]) -> Iterable[tuple[str, ...]]:
        if len(words) < 2:  # a one-word statement matches only the same one word
            return [tuple(words)]
        return combinations(words[:len(words) - math.ceil(SUBSET_AT * len(words)) + 2], 2)

    def matches(self, statement: Statement) -> list[Statement]:
        """The plain statements that make the same claim, in the order of the rarest word
        they share with it, then in the order given."""
        words = self._ordered(statement.core)
        seen: dict[int, Statement] = {}
        for key in self._keys(words):
            for other in self.filed.get(key, ()):
                seen.setdefault(id(other), other)
        hits = [b for b in seen.values() if same_claim(statement.core, b.core)]
        rank = {word: n for n, word in enumerate(words)}
        return sorted(hits, key=lambda b: (min(rank[w] for w in b.core if w in rank),
                                           self.position[id(b)]))


def denied_pairs(texts: Sequence[str]) -> list[tuple[int, int]]:
    """(i, j), i < j, for texts where a statement of one denies a statement of the other."""
    said = [s for n, text in enumerate(texts) for s in statements(n, text)]
    pairs = {tuple(sorted((d.first.owner, d.second.owner)))
             for d in denials(said, said, same_side=True)}
    return sorted((i, j) for i, j in pairs)


def same_claim(a: frozenset[str], b: frozenset[str]) -> bool:
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return small <= large and len(small) / len(large) >= SUBSET_AT


def different_totals(left: Sequence[Statement], right: Sequence[Statement]) -> list[Denial]:
    """Pairs stating a different number of the same thing, in otherwise similar words."""
    totals = [(s, _totals(s.text)) for s in right]
    out: list[Denial] = []
    for a in left:
        for noun, number in _totals(a.text).items():
            for b, theirs in totals:
                other = theirs.get(noun)
                if other is not None and other != number and _similar_context(a, b, noun):
                    out.append(Denial(a, b, "different-total"))
    return out


def _totals(text: str) -> dict[str, str]:
    return {stem(m.group(2).lower()): m.group(1) for m in _TOTAL.finditer(text)
            if m.group(2).lower() not in _NOT_COUNTED}


def _similar_context(a: Statement, b: Statement, noun: str) -> bool:
    words_a = {w for w in a.core if not w.isdigit()}
    words_b = {w for w in b.core if not w.isdigit()}
    shared = words_a & words_b
    return noun in shared and len(shared) >= 2 and len(shared) / len(words_a | words_b) >= 0.5


def check_negations(memdir: MemoryDir,
                    claude_md: Sequence[tuple[str, str]] = ()) -> dict[str, tuple[Finding, ...]]:
    """`contradiction` findings per entry file: against other memories, and against CLAUDE.md."""
    entries = [e for e in memdir.entries if e.memory_type != "superseded"]
    said = [s for n, e in enumerate(entries) for s in statements(n, analysed_text(e))]
    found: dict[str, list[Finding]] = defaultdict(list)
    for denial in denials(said, said, same_side=True):
        for this, that in ((denial.first, denial.second), (denial.second, denial.first)):
            other = entries[that.owner]
            found[entries[this.owner].file].append(_between_memories(this, that, other))
    units = claude_md_units(claude_md)
    theirs = [s for n, unit in enumerate(units) for s in statements(n, unit.text)
              if "\n" not in unit.text]  # lines only: a paragraph repeats its lines
    for denial in [*denials(said, theirs, same_side=False), *different_totals(said, theirs)]:
        unit = units[denial.second.owner]
        found[entries[denial.first.owner].file].append(
            _against_claude_md(denial, unit.source, unit.line))
    return {file: tuple(items) for file, items in sorted(found.items())}


def _between_memories(this: Statement, that: Statement, other: Entry) -> Finding:
    return Finding(
        FindingCode.CONTRADICTION,
        f"line {this.line} says “{_shown(this)}” but {other.file} line {that.line} says "
        f"“{_shown(that)}”; {LIMITS}",
        {"kind": "negated-statement", "line": this.line, "claim": _shown(this),
         "other_file": other.file, "other_line": that.line, "other_claim": _shown(that),
         "limits": LIMITS},
        related=(other.file,))


def _against_claude_md(denial: Denial, source: str, line: int) -> Finding:
    mine, theirs = denial.first, denial.second
    how = "contradicts" if denial.kind == "negated-statement" else "gives another total than"
    return Finding(
        FindingCode.CONTRADICTION,
        f"line {mine.line} “{_shown(mine)}” {how} {source} line {line} “{_shown(theirs)}”, "
        f"which Claude Code loads every session; {LIMITS}",
        {"kind": f"claude-md-{denial.kind}", "line": mine.line, "claim": _shown(mine),
         "claude_md": source, "claude_md_line": line, "claude_md_text": _shown(theirs),
         "limits": LIMITS})


def _shown(statement: Statement, limit: int = 160) -> str:
    text = " ".join(mask_text(statement.text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
