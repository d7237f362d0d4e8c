"""Tokens, normalised text, an exact set-similarity join over token sets, and the entries the
fidelity checks compare (their words worked out once, their text as evidence may show it).

The join finds every pair whose Jaccard similarity reaches a threshold, the same pairs a
comparison of all pairs would find, while looking at only a small fraction of them: tokens
are ranked rarest first, each set is indexed by a short prefix of its rarest tokens, and
candidates are cut by length, position and rank before their overlap is counted
(the AllPairs / PPJoin family; the engine is in `setjoin`, the reasoning in
references/similarity.md). A join of one side against the other at a low threshold counts
every overlap instead, many at once in one integer addition (`setjoin.cross_pairs`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain
from math import isqrt

from prune_memory.analysis.gcpause import collector_paused
from prune_memory.analysis.setjoin import Join, Pair, cross_pairs
from prune_memory.errors import BadInputError
from prune_memory.model import JSON, Entry, EntryKind
from prune_memory.secrets.mask import mask_text

# An apostrophe inside a word joins its halves: "don't" -> "dont", "it’s" -> "its".
_INNER_APOSTROPHE = re.compile(r"(?<=[^\W_])['’](?=[^\W_])")
# A token is a run of letters or digits; underscores and punctuation separate tokens.
_WORD = re.compile(r"[^\W_]+")
# On ASCII text the same split is a byte translation: letters and digits kept (folded to
# lowercase), everything else a space. About twice as fast as the regular expression.
_ASCII_SPACED = bytes(c + 32 if 65 <= c <= 90 else c if chr(c).isalnum() and c < 128 else 32
                      for c in range(256))
# Below this threshold a join across sides counts overlaps bit-parallel (see crossjoin): its
# prefixes would reach the common words. Measured on generated stores: the two engines cost
# the same near 0.6; at 0.5 the bit-parallel one takes half the time, at 0.8 twice as long.
PACKED_BELOW = Fraction(3, 5)
MASKED_VOCABULARY = 4096  # words, at most: a mask is then at most 512 bytes
COMMON_AT_LEAST = 16  # in a small store every word is rare: one-word keys are cheap there


def tokens(text: str) -> list[str]:
    """The words of `text`, case-folded, in order, repeats kept."""
    if text.isascii():  # casefold is lower here, and the translation does it
        if "'" in text:
            text = _INNER_APOSTROPHE.sub("", text)
        return text.encode().translate(_ASCII_SPACED).decode().split()
    folded = text.casefold()
    if "'" in folded or "’" in folded:
        folded = _INNER_APOSTROPHE.sub("", folded)
    return _WORD.findall(folded)


def has_words(text: str) -> bool:
    """`bool(tokens(text))`, without making the list."""
    return _WORD.search(text.casefold()) is not None


def normalise(text: str) -> str:
    """Lowercase, punctuation stripped, whitespace collapsed: the key for exact duplicates."""
    return " ".join(tokens(text))


def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def exact_groups(texts: Sequence[str]) -> list[list[int]]:
    """Indices of texts whose normalised forms are identical, groups of two or more only.

    Groups come in order of their first member; members in input order.
    """
    return equal_groups([normalise(text) for text in texts])


def equal_groups(keys: Sequence[str]) -> list[list[int]]:
    """Indices sharing a key, groups of two or more, in order of first appearance."""
    groups: dict[str, list[int]] = {}
    for position, key in enumerate(keys):
        groups.setdefault(key, []).append(position)
    return [members for members in groups.values() if len(members) > 1]


def threshold_fraction(threshold: float) -> Fraction:
    """The threshold as an exact fraction (0.8 -> 4/5), so comparisons never round."""
    if not 0 < threshold <= 1:
        raise BadInputError(f"similarity threshold must be in (0, 1], got {threshold}")
    return Fraction(str(threshold))


def jaccard(first: Collection[str], second: Collection[str]) -> float:
    """Token-set Jaccard similarity; two empty sets count as identical."""
    a, b = set(first), set(second)
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def similar_pairs(
    token_sets: Sequence[Collection[str]] | TokenSets,
    threshold: float,
    *,
    sides: Sequence[bool] | None = None,
) -> list[Pair]:
    """Every pair (i, j, jaccard), i < j, with Jaccard >= threshold, sorted.

    Empty sets never pair. With `sides`, only pairs whose two sides differ are returned
    (a join of one group against the other), which is much cheaper than filtering later.
    Pass a `TokenSets` to reuse its token order across several thresholds.
    """
    prepared = token_sets if isinstance(token_sets, TokenSets) else TokenSets(token_sets)
    return prepared.pairs(threshold, sides=sides)


def similar_pairs_across(
    left: Sequence[Collection[str]], right: Sequence[Collection[str]], threshold: float
) -> list[Pair]:
    """Pairs (left index, right index, jaccard) across two collections, Jaccard >= threshold."""
    sides = [False] * len(left) + [True] * len(right)
    pairs = similar_pairs([*left, *right], threshold, sides=sides)
    return sorted((i, j - len(left), sim) for i, j, sim in pairs)


class TokenSets:
    """Token sets with each one's tokens ranked rarest first, ready to be joined."""

    def __init__(self, token_sets: Sequence[Collection[str]]) -> None:
        with collector_paused():  # many small acyclic objects: see gcpause
            self.sets = [s if isinstance(s, frozenset) else frozenset(s) for s in token_sets]
            counts = Counter(chain.from_iterable(self.sets))
            # Rank 0 for the rarest token; ties broken by the token itself, for a stable order.
            ordered = sorted(counts, key=lambda token: (counts[token], token))
            rank = {token: position for position, token in enumerate(ordered)}
            self.vocabulary = len(rank)
            self.ranked = [sorted(map(rank.__getitem__, s)) for s in self.sets]
            # Words in more sets than this are common: they lead to partners in pairs (see
            # setjoin). The square root balances a rare word's list against a pair's.
            most = max(COMMON_AT_LEAST, isqrt(len(self.sets)))
            self.common = bisect_right([counts[token] for token in ordered], most)
            # Over a small vocabulary an overlap is the bit count of two masks, a few times
            # faster than intersecting the sets; the commonest words take the lowest bits.
            top = self.vocabulary - 1
            self.masks = [sum(1 << (top - r) for r in ranks) for ranks in self.ranked] \
                if self.vocabulary <= MASKED_VOCABULARY else None
            # by size, then index: the sort is stable
            self.order = sorted((i for i, r in enumerate(self.ranked) if r),
                                key=lambda i: len(self.ranked[i]))

    def __len__(self) -> int:
        return len(self.sets)

    def pairs(self, threshold: float, *, sides: Sequence[bool] | None = None) -> list[Pair]:
        """See `similar_pairs`."""
        if sides is not None and len(sides) != len(self.sets):
            raise ValueError("sides must give one flag per token set")
        t = threshold_fraction(threshold)
        if sides is not None and t < PACKED_BELOW:
            with collector_paused():
                return sorted(cross_pairs(self.sets, self.ranked, self.order, self.vocabulary,
                                          t, sides))
        return self._join(self.order, t, sides).run()

    def pairs_within(self, threshold: float, sides: Sequence[bool]) -> list[Pair]:
        """The pairs of `pairs(threshold)` whose two sets are on the same side, sorted."""
        t = threshold_fraction(threshold)
        found: list[Pair] = []
        for side in (False, True):
            order = [i for i in self.order if bool(sides[i]) is side]
            found.extend(self._join(order, t, None).stream())
        return sorted(found)

    def reaching(self, pairs: Iterable[Pair], threshold: float) -> list[Pair]:
        """The pairs whose Jaccard reaches `threshold`, decided in integers."""
        num, den = threshold_fraction(threshold).as_integer_ratio()
        kept = []
        for i, j, sim in pairs:
            overlap = len(self.sets[i] & self.sets[j])
            if overlap * den >= num * (len(self.sets[i]) + len(self.sets[j]) - overlap):
                kept.append((i, j, sim))
        return kept

    def iter_pairs(self, threshold: float, limit: int | None = None,
                   sides: Sequence[bool] | None = None) -> Iterator[Pair]:
        """The pairs of `pairs`, unsorted, as the join finds them (see `Join.stream`). With
        `limit`, a bounded search: see `setjoin`."""
        return self._join(self.order, threshold_fraction(threshold), sides, limit).stream()

    def _join(self, order: Sequence[int], t: Fraction, sides: Sequence[bool] | None,
              limit: int | None = None) -> Join:
        return Join(self.sets, self.ranked, order, t, sides, self.common, limit, self.masks)


class Corpus:
    """Texts worked into words once: normal forms, token sets, and the texts grouped by normal
    form. Joins run once per distinct text and the copies are added back to the pairs, so a
    fact stored fifty times costs one comparison, not 1,225."""

    def __init__(self, texts: Sequence[str]) -> None:
        with collector_paused():
            words = [tokens(text) for text in texts]
            self.normalised = [" ".join(w) for w in words]
            self.sets = [frozenset(w) for w in words]
            groups: dict[str, list[int]] = {}
            for position, norm in enumerate(self.normalised):
                groups.setdefault(norm, []).append(position)
            self.copies = list(groups.values())  # in order of first appearance
            self.distinct = TokenSets([self.sets[group[0]] for group in self.copies])

    def __len__(self) -> int:
        return len(self.sets)

    def exact_groups(self) -> list[list[int]]:
        """Same as `exact_groups(texts)`."""
        return [group for group in self.copies if len(group) > 1]

    def pairs(self, threshold: float, *, sides: Sequence[bool] | None = None) -> list[Pair]:
        """Pairs (i, j, jaccard), i < j, of texts with different normal forms and Jaccard >=
        threshold, sorted. `sides` (one flag per text) must agree among copies of a text."""
        found = self.distinct.pairs(threshold,
                                    sides=None if sides is None else self._distinct(sides))
        return self._with_copies(found)

    def pairs_and_across(self, threshold: float, across: float,
                         sides: Sequence[bool]) -> tuple[list[Pair], list[Pair]]:
        """`pairs(threshold)` and `pairs(across, sides=sides)` in one go. With across <=
        threshold, the pairs across sides reaching `threshold` are among the second, so the
        first join only pairs texts on the same side (a fifth less work when one text in
        eight is on the smaller side)."""
        if across > threshold:
            return self.pairs(threshold), self.pairs(across, sides=sides)
        flags = self._distinct(sides)
        crossed = self.distinct.pairs(across, sides=flags)
        near = self.distinct.pairs_within(threshold, flags)
        near = sorted(near + self.distinct.reaching(crossed, threshold))
        return self._with_copies(near), self._with_copies(crossed)

    def _distinct(self, sides: Sequence[bool]) -> list[bool]:
        return [sides[group[0]] for group in self.copies]

    def _with_copies(self, found: Iterable[Pair]) -> list[Pair]:
        """Pairs of distinct texts as pairs of texts, every copy of each, sorted."""
        return sorted((min(i, j), max(i, j), sim) for a, b, sim in found
                      for i in self.copies[a] for j in self.copies[b])

    def iter_pairs(self, threshold: float, limit: int | None = None,
                   sides: Sequence[bool] | None = None) -> Iterator[Pair]:
        """The pairs of `pairs`, unsorted and one at a time: memory stays linear however
        many there are (a folder of hundreds of near-identical notes has tens of thousands).
        `limit` makes the search bounded (see `setjoin`): no longer every pair."""
        flags = None if sides is None else self._distinct(sides)
        for a, b, sim in self.distinct.iter_pairs(threshold, limit, flags):
            for i in self.copies[a]:
                for j in self.copies[b]:
                    yield (min(i, j), max(i, j), sim)


@dataclass(frozen=True)
class ComparedTexts:
    """The entries that say something, with their words worked out once."""

    entries: list[Entry]
    texts: list[str]
    corpus: Corpus
    masked: dict[int, str] = field(default_factory=dict)

    def shown(self, i: int) -> str:
        """Entry i's text with secret values masked, as evidence may be printed or logged."""
        text = self.masked.get(i)
        if text is None:
            text = self.masked[i] = mask_text(self.texts[i])
        return text


def analysed_text(entry: Entry) -> str:
    """What is compared: the frontmatter-free body; for an inline index fact, the line's text."""
    if entry.kind is EntryKind.INDEX_LINE:
        return entry.body or entry.description
    return entry.body


def compared_texts(entries: Sequence[Entry]) -> ComparedTexts:
    # an entry without words is the noise check's business, not a duplicate
    said = [(entry, analysed_text(entry)) for entry in entries]
    said = [(entry, text) for entry, text in said if has_words(text)]
    return ComparedTexts([entry for entry, _ in said], [text for _, text in said],
                  Corpus([text for _, text in said]))


def pair_texts(data: ComparedTexts, this: int, that: int) -> JSON:
    return {"text": data.shown(this), "other_file": data.entries[that].file,
            "other_text": data.shown(that)}


def written_dates(this: Entry, other: Entry) -> JSON:
    """When each side was last written, and by which signal (modified: or mtime)."""
    return {"written": {e.file: f"{e.written_at[0].isoformat()} ({e.written_at[1]})"
                        for e in (this, other)}}
