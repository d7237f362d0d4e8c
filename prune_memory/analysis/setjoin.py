"""The exact set-similarity join behind `similarity.similar_pairs`: prefix filtering whose
keys are single rare words or pairs of common ones.

Tokens are ranked rarest first and every set is a sorted list of ranks. If x and y (|y| <=
|x|) must share o = ceil(t(|x| + |y|) / (1 + t)) tokens, their first shared token lies in
x's first |x| - o + 1 tokens and y's first |y| - o + 1 (the usual prefix filter), and when
o >= 2 their first two shared tokens lie one token further on (after the second come o - 2
more). A rare first shared word is a key on its own. A common one is not: on notes drawn
from a small vocabulary even the rarest word of a note is in a tenth of the store, and a
one-word key pairs every note with most others. A common first shared word is followed only
by common ones, so it and the next shared word form a key, a pair of common words, held by
far fewer sets, most of them real partners. Pairs that need only one shared word (t(|x| +
|y|) <= 1 + t: a word or two each) key their common words alone too.

Sets are taken in order of size; each probes the keys of the sets before it (never larger)
from its first |x| - ceil(t|x|) + 1 tokens (+1 for pairs), then is filed under its first
|y| - ceil(2t|y| / (1 + t)) + 1 (+1), enough for any partner at least as large.
Candidates are confirmed by counting the real overlap in integers, so the answer is exactly
that of comparing every pair.

`limit` bounds the search instead: under each of a set's keys only the latest sets (the
closest in size) are looked at, about `limit` in all. Nothing changes until a key is held by
more sets than that, which takes hundreds of near copies of one note; from there the cost
grows with the sets, not with their pairs, and each set finds partners among a bounded number
of candidates. The plan's near-duplicate groups and fragment merges keep each entry's
closest few and use it; `jsonl report`, which promises every pair, does not.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations, islice

from prune_memory.analysis.gcpause import collector_paused  # the join makes many acyclic objects

Pair = tuple[int, int, float]
_Index = dict[int, list[int]]  # key -> the sets filed under it, in order of size
BOUNDED = 64  # sets looked at per set in a bounded search (`limit`), spread over its keys
WAITING_SCAN = 4  # earlier sets looked over per waiting set taken, in a bounded search
MIN_PER_KEY = 2  # a bounded search still looks at this many sets under each key


class _SizeRules:
    """What a set of one size needs from its partners (all no larger than itself)."""

    def __init__(self, size: int, t: Fraction) -> None:
        num, den = t.numerator, t.denominator
        self.min_size = max(1, -(-num * size // den))  # length filter: |y| >= t|x|
        least = -(-num * size // den)  # overlap needed with the smallest partner
        same = -(-num * 2 * size // (num + den))  # overlap needed with a partner of this size
        # prefixes holding the first shared token (one-word keys) and the first two (pairs)
        self.probe_length = size - least + 1
        self.index_length = size - same + 1
        self.probe_pairs = min(size, self.probe_length + 1)
        self.index_pairs = min(size, self.index_length + 1)
        # A pair that needs one shared word (num (|x| + |y|) <= num + den): sets of a word
        # or two. Their common words are keys alone, filed and probed by such sets only.
        self.probe_lone = num * (size + self.min_size) <= num + den
        self.index_lone = num * 2 * size <= num + den


class Join:
    """One run of the join over prepared token ranks; `sides` restricts it to cross pairs.

    `common` is the first rank of the common words (ranks are rarest first): a shared word
    ranked below it leads to the pair through its one-word key, one at or above it through
    the pair of it and the next shared word."""

    def __init__(self, sets: Sequence[frozenset[str]], ranked: Sequence[list[int]],
                 order: Sequence[int], t: Fraction, sides: Sequence[bool] | None,
                 common: int, limit: int | None = None,
                 masks: Sequence[int] | None = None) -> None:
        self.sets, self.ranked, self.order, self.masks = sets, ranked, order, masks
        self.t, self.sides, self.limit, self.common = t, sides, limit, common
        self.rules: dict[int, _SizeRules] = {}
        self.width = 1 + max((r[-1] for r in ranked if r), default=0)  # key = a * width + b
        self.sizes = [len(r) for r in ranked]
        self.paired = bytearray(len(ranked))  # sets a pair has reached (a bounded search)
        self.cursors: dict[int, int] = {}  # key -> where its sets with no partner start

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
            rules = self._rules(self.sizes[x])
            probe = self._keys(self.ranked[x], rules.probe_length, rules.probe_pairs,
                               rules.probe_lone)
            candidates = self._candidates(probe, rules, indexes[other])
            if candidates:
                for pair in self._verify(x, candidates):
                    self.paired[pair[0]] = self.paired[pair[1]] = 1
                    yield pair
            index = indexes[own]
            for key in self._keys(self.ranked[x], rules.index_length, rules.index_pairs,
                                  rules.index_lone):
                members = index.get(key)
                if members is None:
                    index[key] = [x]
                else:
                    members.append(x)

    def _rules(self, size: int) -> _SizeRules:
        rules = self.rules.get(size)
        if rules is None:
            rules = self.rules[size] = _SizeRules(size, self.t)
        return rules

    def _keys(self, record: list[int], length: int, pairs: int, lone: bool) -> list[int]:
        """The rare words of the `length` prefix, each a key (below `width`), and every pair
        of common words of the `pairs` prefix (keys from `width` up). `lone`: a partner may
        need a single shared word, so the common words of the prefix are keys alone too."""
        common = bisect_left(record, self.common)
        keys = record[:length] if lone else record[:min(common, length)]
        if pairs - common >= 2:
            width = self.width
            keys += [(a + 1) * width + b for a, b in combinations(record[common:pairs], 2)]
        return keys

    def _candidates(self, keys: list[int], rules: _SizeRules, index: _Index) -> set[int]:
        """Sets sharing a key with x and large enough to reach the threshold with it; in a
        bounded search, only the latest `limit / len(keys)` sets under each key, and as
        many of the earlier ones that no pair has reached yet."""
        sizes, min_size = self.sizes, rules.min_size
        per_key = None if self.limit is None else max(MIN_PER_KEY, self.limit // len(keys))
        found: set[int] = set()
        for key in keys:
            members = index.get(key)
            if members is not None:
                cut = 0 if per_key is None else max(0, len(members) - per_key)
                start = cut
                if sizes[members[start]] < min_size:  # the length filter
                    start = bisect_left(members, min_size, start, key=sizes.__getitem__)
                found.update(members[start:] if start else members)
                if cut and per_key is not None:
                    found.update(self._waiting(key, members, cut, per_key, min_size))
        return found

    def _waiting(self, key: int, members: list[int], end: int, count: int,
                 min_size: int) -> list[int]:
        """Up to `count` of the sets filed under `key` before `end` that have no partner
        yet: a bounded search looks at the latest sets, and without these the first ones
        would never be looked at again. Sets partnered or too small (sizes only grow) are
        passed over for good."""
        paired, sizes = self.paired, self.sizes
        cursor = self.cursors.get(key, 0)
        while cursor < end and (paired[members[cursor]] or sizes[members[cursor]] < min_size):
            cursor += 1
        self.cursors[key] = cursor
        out: list[int] = []
        for y in islice(members, cursor, min(end, cursor + WAITING_SCAN * count)):
            if not paired[y] and sizes[y] >= min_size:
                out.append(y)
                if len(out) == count:
                    break
        return out

    def _verify(self, x: int, candidates: set[int]) -> list[Pair]:
        num, den = self.t.numerator, self.t.denominator
        sizes, masks = self.sizes, self.masks
        size_x = sizes[x]
        if masks is not None:  # overlaps as bit counts of the two masks
            mask_x = masks[x]
            overlaps = [(y, (mask_x & masks[y]).bit_count()) for y in candidates]
        else:
            set_x, sets = self.sets[x], self.sets
            overlaps = [(y, len(set_x & sets[y])) for y in candidates]
        found: list[Pair] = []
        for y, overlap in overlaps:
            union = size_x + sizes[y] - overlap
            if overlap * den >= num * union:  # overlap / union >= t, in integers
                found.append((x, y, overlap / union))
        return found
