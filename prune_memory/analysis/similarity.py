"""Tokens, normalised text and an exact set-similarity join over token sets.

The join finds every pair whose Jaccard similarity reaches a threshold, the same pairs a
comparison of all pairs would find, while looking at only a small fraction of them: tokens
are ranked rarest first, each set is indexed by a short prefix of its rarest tokens, and
candidates are cut by length, position and rank before their overlap is counted
(the AllPairs / PPJoin family; the engine is in `setjoin`, the reasoning in
references/similarity.md).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from fractions import Fraction
from itertools import chain

from prune_memory.analysis.gcpause import collector_paused
from prune_memory.analysis.setjoin import Join, Pair
from prune_memory.errors import BadInputError

__all__ = ["Corpus", "Pair", "TokenSets", "equal_groups", "exact_groups", "has_words", "jaccard",
           "normalise", "similar_pairs", "similar_pairs_across", "threshold_fraction",
           "token_set", "tokens"]

# An apostrophe inside a word joins its halves: "don't" -> "dont", "it’s" -> "its".
_INNER_APOSTROPHE = re.compile(r"(?<=[^\W_])['’](?=[^\W_])")
# A token is a run of letters or digits; underscores and punctuation separate tokens.
_WORD = re.compile(r"[^\W_]+")
_ASCII_WORD = re.compile(r"[a-z0-9]+")  # the same, faster, once text is case-folded ASCII



def tokens(text: str) -> list[str]:
    """The words of `text`, case-folded, in order, repeats kept."""
    folded = text.casefold()
    if "'" in folded or "’" in folded:
        folded = _INNER_APOSTROPHE.sub("", folded)
    return (_ASCII_WORD if folded.isascii() else _WORD).findall(folded)


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
            self.ranked = [sorted(map(rank.__getitem__, s)) for s in self.sets]
            self.order = sorted((i for i, r in enumerate(self.ranked) if r),
                                key=lambda i: (len(self.ranked[i]), i))

    def __len__(self) -> int:
        return len(self.sets)

    def pairs(self, threshold: float, *, sides: Sequence[bool] | None = None) -> list[Pair]:
        """See `similar_pairs`."""
        if sides is not None and len(sides) != len(self.sets):
            raise ValueError("sides must give one flag per token set")
        return Join(self.sets, self.ranked, self.order, threshold_fraction(threshold),
                    sides).run()

    def iter_pairs(self, threshold: float) -> Iterator[Pair]:
        """The pairs of `pairs`, unsorted, as the join finds them (see `Join.stream`)."""
        return Join(self.sets, self.ranked, self.order, threshold_fraction(threshold),
                    None).stream()


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
        first = [group[0] for group in self.copies]
        found = self.distinct.pairs(threshold,
                                    sides=None if sides is None else [sides[i] for i in first])
        return sorted((min(i, j), max(i, j), sim) for a, b, sim in found
                      for i in self.copies[a] for j in self.copies[b])

    def iter_pairs(self, threshold: float) -> Iterator[Pair]:
        """The pairs of `pairs`, unsorted and one at a time: memory stays linear however
        many there are (a folder of hundreds of near-identical notes has tens of thousands)."""
        for a, b, sim in self.distinct.iter_pairs(threshold):
            for i in self.copies[a]:
                for j in self.copies[b]:
                    yield (min(i, j), max(i, j), sim)
