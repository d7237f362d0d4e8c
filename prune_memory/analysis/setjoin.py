"""The exact set-similarity join behind `similarity.similar_pairs` (PPJoin family).

Tokens are ranked rarest first and every set is a sorted list of ranks. Sets are taken in
order of size; each probes an inverted index of the sets before it (never larger) with the
first |x| - ceil(t|x|) + 1 of its tokens, then joins the index under its shortest safe
prefix. If x and y (|y| <= |x|) must share o = ceil(t(|x| + |y|) / (1 + t)) tokens, their
first shared token lies in y's first |y| - o + 1 tokens and x's first |x| - o + 1 tokens,
so a pair is never missed (the index keeps |y| - ceil(2t|y| / (1 + t)) + 1 tokens, enough
for any partner at least as large). Candidates are cut by a position bound while scanning
and a rank bound afterwards, then confirmed by counting the real overlap in integers.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import islice
from operator import itemgetter

from prune_memory.analysis.gcpause import collector_paused  # the join makes many acyclic objects

Pair = tuple[int, int, float]
# token rank -> the sets indexed under it as (set index, its tokens after this one, its size),
# in order of size
_Index = dict[int, list[tuple[int, int, int]]]
_SIZE = itemgetter(2)


class _SizeRules:
    """What a set of one size needs from its partners (all no larger than itself)."""

    def __init__(self, size: int, t: Fraction) -> None:
        num, den = t.numerator, t.denominator
        self.min_size = -(-num * size // den)  # length filter: |y| >= t|x|
        sizes = range(self.min_size, size + 1)
        # needed[s]: overlap required with a partner of size s
        self.needed = [0] * self.min_size + [-(-num * (size + s) // (num + den)) for s in sizes]
        self.probe_length = size - self.min_size + 1
        self.index_length = size - self.needed[size] + 1


class Join:
    """One run of the join over prepared token ranks; `sides` restricts it to cross pairs."""

    def __init__(self, sets: Sequence[frozenset[str]], ranked: Sequence[list[int]],
                 order: Sequence[int], t: Fraction, sides: Sequence[bool] | None) -> None:
        self.sets, self.ranked, self.order = sets, ranked, order
        self.t, self.sides = t, sides
        self.rules: dict[int, _SizeRules] = {}
        # indexed set -> (rank of its last indexed token, tokens after it, its size)
        self.prefix_end: dict[int, tuple[int, int, int]] = {}

    def run(self) -> list[Pair]:
        """Every pair, sorted."""
        return sorted(self.stream())

    def stream(self) -> Iterator[Pair]:
        """Every pair (smaller index first) as it is found, in no set order: a caller that
        keeps only a few per set holds memory linear in the sets, not in the pairs."""
        with collector_paused():
            for x, y, sim in self._pairs():
                yield (x, y, sim) if x < y else (y, x, sim)

    def _pairs(self) -> Iterator[Pair]:
        indexes: tuple[_Index, _Index] = ({}, {})
        for x in self.order:
            own = int(bool(self.sides[x])) if self.sides is not None else 0
            other = 1 - own if self.sides is not None else 0
            rules = self._rules(len(self.ranked[x]))
            candidates = self._candidates(x, rules, indexes[other])
            if candidates:
                yield from self._verify(x, candidates)
            self._add(x, rules.index_length, indexes[own])

    def _rules(self, size: int) -> _SizeRules:
        rules = self.rules.get(size)
        if rules is None:
            rules = self.rules[size] = _SizeRules(size, self.t)
        return rules

    def _add(self, x: int, length: int, index: _Index) -> None:
        record = self.ranked[x]
        size = len(record)
        self.prefix_end[x] = (record[length - 1], size - length, size)
        for j in range(length):
            members = index.get(record[j])
            if members is None:
                index[record[j]] = [(x, size - j - 1, size)]
            else:
                members.append((x, size - j - 1, size))

    def _candidates(self, x: int, rules: _SizeRules, index: _Index) -> list[int]:
        """Sets sharing a prefix token with x, counted over both prefixes and dropped as
        soon as even a perfect rest could not reach the overlap they need."""
        record, needed, min_size = self.ranked[x], rules.needed, rules.min_size
        size = len(record)
        counts: dict[int, int] = {}  # shared prefix tokens so far; -1 once ruled out
        for i in range(rules.probe_length):
            members = index.get(record[i])
            if members is None:
                continue
            left_x = size - i - 1
            start = bisect_left(members, min_size, key=_SIZE)
            for y, left_y, size_y in islice(members, start, None):
                seen = counts.get(y, 0)
                if seen >= 0:
                    # Position bound: shared so far + this token + what is left on both.
                    bound = seen + 1 + (left_x if left_x < left_y else left_y)
                    counts[y] = seen + 1 if bound >= needed[size_y] else -1
        return self._rank_bound(record, rules, counts) if counts else []

    def _rank_bound(self, record: list[int], rules: _SizeRules,
                    counts: dict[int, int]) -> list[int]:
        """Every shared token ranked up to where the two prefixes end was counted, so only
        tokens ranked above that, on both sides, can still add to the overlap. The cheap
        half of the bound goes first; the exact half needs a bisection."""
        size, needed = len(record), rules.needed
        last_x = record[rules.probe_length - 1]
        after_x = size - rules.probe_length
        survivors = []
        for y, seen in counts.items():
            if seen <= 0:
                continue
            last_y, after_y, size_y = self.prefix_end[y]
            need = needed[size_y]
            if last_x < last_y:
                if seen + after_x >= need and seen + min(
                        after_x, size_y - bisect_right(self.ranked[y], last_x)) >= need:
                    survivors.append(y)
            elif seen + after_y >= need and seen + min(
                    after_y, size - bisect_right(record, last_y)) >= need:
                survivors.append(y)
        return survivors

    def _verify(self, x: int, candidates: list[int]) -> list[Pair]:
        found: list[Pair] = []
        num, den = self.t.numerator, self.t.denominator
        set_x = self.sets[x]
        for y in candidates:
            overlap = len(set_x & self.sets[y])
            union = len(set_x) + len(self.sets[y]) - overlap
            if overlap * den >= num * union:  # overlap / union >= t, in integers
                found.append((x, y, overlap / union))
        return found
