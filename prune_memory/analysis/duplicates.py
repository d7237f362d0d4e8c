"""Duplicates: where copies are found and which copy survives.

Exact copies share a normalised text (`similarity.exact_groups`); near copies come from the
similarity join (`similarity.Corpus.pairs`). Here:

- copies an exact match misses: one memory wholly inside a longer one, or two that differ
  only in articles and punctuation (`contained_pairs`). Jaccard similarity stays under any
  threshold when one copy adds a clause; containment does not. Candidates come from an
  index of each memory's rarest word, so the work grows with the real overlaps;
- near-duplicate pairs folded into groups, keeping only each entry's closest partners
  (`NearGroups`, `Closest`). A folder of hundreds of notes that differ by a word or two
  holds tens of thousands of near-duplicate pairs; a finding per pair made the plan
  quadratic (52,402 findings and 83 MB of JSON for 250 notes), so the pairs stream past
  once, each entry keeps its `MAX_PARTNERS` closest, and the pairs join entries into
  groups (connected components): memory and output grow with the entries, not the pairs;
- which copy survives, and why (`choose_survivor`, `survivor_reason`).

`procedure/fidelity.py` turns these into the plan's findings.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from prune_memory.analysis.setjoin import Pair
from prune_memory.analysis.similarity import tokens
from prune_memory.model import Entry, EntryKind

ARTICLES = frozenset({"a", "an", "the"})
MIN_WORDS = 8  # a shorter memory is contained in too much by chance
MAX_CANDIDATES = 64  # per memory: a very common rarest word is no lead
# The longer copy adds a clause or two; a memory ten times longer that happens to use the
# same words is a different memory that covers more (an index hook and its topic, say).
MAX_GROWTH = 2


@dataclass(frozen=True)
class Contained:
    """`inner` (an index) says nothing that `outer` does not also say."""

    inner: int
    outer: int
    same: bool  # equal once articles and punctuation are dropped


def article_free(text: str) -> str:
    """The words of `text` without articles: the key for copies differing only in those."""
    return without_articles(tokens(text))


def without_articles(words: Sequence[str]) -> str:
    """`article_free` of text already split into its words."""
    return " ".join(w for w in words if w not in ARTICLES)


def contained_pairs(texts: Sequence[str], kinds: Sequence[str] = (), *,
                    normalised: Sequence[str] | None = None) -> Iterator[Contained]:
    """Every memory whose words all appear in one longer (or article-equal) memory of the
    same kind (`kinds[i]`, when given: an index line is not a copy of a topic file).
    `normalised` (`similarity.normalise` of each text), when the caller has it, saves
    reading the words again."""
    words_of = [norm.split() for norm in normalised] if normalised is not None \
        else [tokens(t) for t in texts]
    sets = [frozenset(words) - ARTICLES for words in words_of]
    keys = [without_articles(words) for words in words_of]
    frequency = Counter(word for words in sets for word in words)
    postings: dict[str, list[int]] = defaultdict(list)
    for position, words in enumerate(sets):
        for word in words:
            postings[word].append(position)
    same_key: dict[str, list[int]] = defaultdict(list)
    for position, key in enumerate(keys):
        same_key[key].append(position)
    for inner, words in enumerate(sets):
        if len(words) < MIN_WORDS:
            # too short to be contained by chance-free evidence; a copy but for articles
            # and punctuation is still a copy
            for outer in same_key[keys[inner]]:
                if outer < inner and (not kinds or kinds[outer] == kinds[inner]) and words:
                    yield Contained(inner, outer, True)
            continue
        rarest = min(words, key=lambda w: (frequency[w], w))
        for outer in postings[rarest][:MAX_CANDIDATES]:
            if kinds and kinds[outer] != kinds[inner]:
                continue
            if outer == inner or len(sets[outer]) > MAX_GROWTH * len(words) \
                    or not words <= sets[outer]:
                continue
            same = keys[inner] == keys[outer]
            if same and inner > outer:
                continue  # one finding per equal pair, on the later copy
            if same or len(keys[outer]) > len(keys[inner]):
                yield Contained(inner, outer, same)


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


def completeness(entry: Entry) -> tuple[int, int, int]:
    """Body length, filled frontmatter fields, description length: more is more complete."""
    fields = sum(1 for value in entry.frontmatter.values() if value not in (None, "", [], {}))
    return len(entry.body.strip()), fields, len(entry.description)


def survivor_rank(entry: Entry, protected: frozenset[str]) -> tuple[int, ...]:
    """Sort key, best first: protected, then a topic file over an inline index fact, then the
    most complete copy (longest body, then one Claude Code stamped `modified:`, then more
    frontmatter, then a longer description), then one the index points at; equal ranks fall
    back to the file name."""
    body, fields, description = completeness(entry)
    return (
        -(entry.file in protected),
        -(entry.kind is EntryKind.TOPIC),
        -body,
        -(entry.modified is not None),
        -fields,
        -description,
        -entry.indexed,
    )


def choose_survivor(group: Sequence[Entry], protected: frozenset[str]) -> Entry:
    return min(group, key=lambda e: (survivor_rank(e, protected), e.file))


def survivor_reason(survivor: Entry, other: Entry, protected: frozenset[str]) -> str:
    """The first rule that separates the survivor from `other`, in words."""
    if survivor.file in protected and other.file not in protected:
        return "protected copy"
    if survivor.kind is EntryKind.TOPIC and other.kind is EntryKind.INDEX_LINE:
        return "topic file beats an inline index fact"
    mine, theirs = completeness(survivor), completeness(other)
    if mine[0] != theirs[0]:
        return f"longer text ({mine[0]} characters against {theirs[0]})"
    if survivor.modified is not None and other.modified is None:
        return "carries a `modified:` stamp"
    if mine[1] != theirs[1]:
        return f"more frontmatter ({mine[1]} fields against {theirs[1]})"
    if mine[2] != theirs[2]:
        return "longer description"
    if survivor.indexed != other.indexed:
        return "listed in the index"
    return "equally complete; first by file name"
