"""An exact similarity join of one group of token sets against another, counted bit-parallel.

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

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import groupby

from prune_memory.analysis.setjoin import Pair

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
