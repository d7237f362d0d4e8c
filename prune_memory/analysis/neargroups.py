"""Near-duplicate pairs folded into groups, keeping only each entry's closest partners.

A folder of hundreds of notes that differ by a word or two holds tens of thousands of
near-duplicate pairs. A finding per pair made the plan quadratic (52,402 findings and
83 MB of JSON for 250 notes); here the pairs stream past once, each entry keeps its
`MAX_PARTNERS` closest partners, and the pairs join entries into groups (connected
components), so memory and output grow with the entries, not with the pairs.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from prune_memory.analysis.setjoin import Pair

MAX_PARTNERS = 5  # partners named per entry; the rest are counted in its group's size


class NearGroups:
    """Each entry's closest partners, and the group each entry belongs to."""

    def __init__(self, pairs: Iterable[Pair], size: int, limit: int = MAX_PARTNERS) -> None:
        self._parent = list(range(size))
        # per entry, a min-heap of its best partners: (similarity, -partner) so that among
        # equals the lower index wins, whatever order the pairs came in
        self._best: dict[int, list[tuple[float, int]]] = {}
        for i, j, sim in pairs:
            self._union(i, j)
            self._offer(i, j, sim, limit)
            self._offer(j, i, sim, limit)
        self._members: dict[int, list[int]] = {}
        for entry in sorted(self._best):
            self._members.setdefault(self.root(entry), []).append(entry)

    def entries(self) -> list[int]:
        """The entries with at least one near-duplicate, in order."""
        return sorted(self._best)

    def closest(self, entry: int) -> list[tuple[int, float]]:
        """(partner, similarity), the most similar first (ties: the lower index)."""
        ranked = sorted(self._best.get(entry, ()), reverse=True)
        return [(-negated, sim) for sim, negated in ranked]

    def group(self, entry: int) -> list[int]:
        """Every entry linked to `entry` through near-duplicate pairs, itself included."""
        return self._members.get(self.root(entry), [entry])

    def root(self, entry: int) -> int:
        parent = self._parent
        while parent[entry] != entry:
            parent[entry] = parent[parent[entry]]  # halve the path as we go
            entry = parent[entry]
        return entry

    def _union(self, i: int, j: int) -> None:
        a, b = self.root(i), self.root(j)
        if a != b:
            self._parent[max(a, b)] = min(a, b)

    def _offer(self, entry: int, partner: int, sim: float, limit: int) -> None:
        heap = self._best.setdefault(entry, [])
        item = (sim, -partner)
        if len(heap) < limit:
            heapq.heappush(heap, item)
        elif item > heap[0]:
            heapq.heapreplace(heap, item)


class Closest:
    """Each item's `limit` closest partners (ties: the lower index); the pairs kept are
    those in either member's list, so every pair is kept when no item has more."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.best: dict[int, list[tuple[float, int]]] = {}

    def offer(self, i: int, j: int, sim: float) -> None:
        for this, other in ((i, j), (j, i)):
            heap = self.best.setdefault(this, [])
            item = (sim, -other)
            if len(heap) < self.limit:
                heapq.heappush(heap, item)
            elif item > heap[0]:
                heapq.heapreplace(heap, item)

    def pairs(self) -> list[tuple[int, int, float]]:
        """The pairs kept, in index order (smaller index first)."""
        kept = {(min(this, -other), max(this, -other)): sim
                for this, heap in self.best.items() for sim, other in heap}
        return sorted((i, j, sim) for (i, j), sim in kept.items())
