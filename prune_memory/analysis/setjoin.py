"""The exact set-similarity joins behind `similarity.similar_pairs`: prefix filtering (`Join`)
and, one group against another at a low threshold, counting bit-parallel (`cross_pairs`).

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

`cross_pairs`, one group of token sets against another, counted bit-parallel.

At a low threshold prefix filtering has little to cut: at 0.5 a prefix is half of each set
and reaches the common words, so most pairs sharing one are counted and then dropped. Here
every set of the smaller group instead gets a field of a few bytes in one Python integer
per token (1 where that set holds the token), and summing the integers of a larger-group
set's tokens counts its overlap with every smaller-group set at once, in C. Each field
starts at 2^(8w-1) - o, where o is the overlap that pair needs for Jaccard >= t, so its top
bit ends up set exactly when the pair qualifies: nothing is missed and nothing guessed.
Fields are wide enough that no count carries into the next one.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations, groupby, islice

from prune_memory.analysis.gcpause import collector_paused

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


# Smaller-group sets per pass: bounds every integer to BLOCK fields, whatever the store size.
BLOCK = 4096


def cross_pairs(sets: Sequence[frozenset[str]], ranked: Sequence[list[int]],
                order: Sequence[int], vocabulary: int, t: Fraction,
                sides: Sequence[bool]) -> Iterator[Pair]:
    """Every pair (i, j, jaccard), i < j, sides differing, Jaccard >= t, in no set order.

    `ranked[i]` holds set i's tokens as ranks below `vocabulary`; `order` lists the
    non-empty sets by size, smallest first."""
    groups = ([i for i in order if sides[i]], [i for i in order if not sides[i]])
    small, large = sorted(groups, key=len)
    if not small:
        return
    # The top bit of a field must lie above any count or required overlap (both <= a size).
    width = (len(ranked[order[-1]]).bit_length() + 8) // 8
    for start in range(0, len(small), BLOCK):
        block = _Block(ranked, small[start:start + BLOCK], width, vocabulary, t)
        for y, x in block.hits(large):
            overlap = len(sets[x] & sets[y])
            union = len(sets[x]) + len(sets[y]) - overlap
            yield (x, y, overlap / union) if x < y else (y, x, overlap / union)


class _Block:
    """Up to BLOCK sets of the smaller group, one field each, in order of size."""

    def __init__(self, ranked: Sequence[list[int]], members: list[int], width: int,
                 vocabulary: int, t: Fraction) -> None:
        self.ranked, self.members, self.width, self.t = ranked, members, width, t
        self.top = 1 << (8 * width - 1)
        self.packed = self._packed(vocabulary)
        self.high = int.from_bytes(self.top.to_bytes(width, "little") * len(members), "little")
        # (size, how many in a row): members come in order of size, so a few runs cover them
        self.runs = [(size, sum(1 for _ in run))
                     for size, run in groupby(len(ranked[m]) for m in members)]

    def _packed(self, vocabulary: int) -> list[int]:
        """Per token rank, an integer holding 1 in the field of each member with the token."""
        fields: list[list[int]] = [[] for _ in range(vocabulary)]
        for field, member in enumerate(self.members):
            for rank in self.ranked[member]:
                fields[rank].append(field)
        packed = [0] * vocabulary
        for rank, where in enumerate(fields):
            if where:
                buffer = bytearray(self.width * (where[-1] + 1))
                for field in where:
                    buffer[field * self.width] = 1
                packed[rank] = int.from_bytes(buffer, "little")
        return packed

    def _start(self, size: int) -> int:
        """Every field at top - (overlap its member needs with a set of `size` tokens)."""
        num, den = self.t.numerator, self.t.denominator
        return int.from_bytes(b"".join(
            (self.top + (num * (own + size)) // -(num + den)).to_bytes(self.width, "little")
            * count for own, count in self.runs), "little")

    def hits(self, large: Sequence[int]) -> Iterator[tuple[int, int]]:
        """(large-group set, member) for every pair reaching the threshold."""
        get, ranked, high = self.packed.__getitem__, self.ranked, self.high
        bits = 8 * self.width
        for size, group in groupby(large, key=lambda i: len(ranked[i])):
            start = self._start(size)
            for y in group:
                found = sum(filter(None, map(get, ranked[y])), start) & high
                while found:
                    lowest = found & -found
                    found ^= lowest
                    yield y, self.members[(lowest.bit_length() - 1) // bits]
