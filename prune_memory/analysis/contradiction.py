"""Likely contradictions: similar wording where only one side is negated, or one label, two texts.

A wording heuristic, not a finding of fact: it misses contradictions stated in different
words and flags pairs that merely discuss the same topic. Callers always route a flag to a
human (`review`), never resolve it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from prune_memory.analysis.similarity import Corpus, Pair, jaccard

CONTRADICTION_THRESHOLD = 0.5

# Tokens are case-folded with inner apostrophes dropped, so "don't" arrives as "dont".
NEGATIONS: frozenset[str] = frozenset({
    "not", "no", "never", "false", "nor", "neither", "none", "nothing", "nobody", "nowhere",
    "cannot", "cant", "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent",
    "wont", "wouldnt", "shouldnt", "couldnt", "mustnt", "hasnt", "havent", "hadnt",
    "neednt", "aint",
})
# The four words of the original JSONL audit, for output that must match it exactly.
SEED_NEGATIONS: frozenset[str] = frozenset({"not", "no", "never", "false"})

LIMITS = ("wording heuristic: it misses contradictions worded differently and can flag "
          "pairs that only discuss the same topic; decide from sources and dates")


class NegationSet(StrEnum):
    EXTENDED = "extended"
    SEED = "seed"


def negation_words(choice: NegationSet) -> frozenset[str]:
    if choice is NegationSet.EXTENDED:
        return NEGATIONS
    if choice is NegationSet.SEED:
        return SEED_NEGATIONS
    raise AssertionError(choice)  # pragma: no cover - every member is mapped above


@dataclass(frozen=True)
class Contradiction:
    """Two items (indices, first < second) flagged as a likely contradiction."""

    first: int
    second: int
    jaccard: float
    reason: str


def negated(tokens: Collection[str], negations: frozenset[str] = NEGATIONS) -> bool:
    return not negations.isdisjoint(tokens)


def negation_sides(corpus: Corpus, negations: frozenset[str] = NEGATIONS) -> list[bool]:
    """Per text, whether it is negated: the sides of the join for `contradictions`."""
    return [negated(s, negations) for s in corpus.sets]


def contradictions(
    corpus: Corpus,
    labels: Sequence[Sequence[tuple[str, str]]],
    *,
    negations: frozenset[str] = NEGATIONS,
    threshold: float = CONTRADICTION_THRESHOLD,
    similar: Sequence[Pair] | None = None,
) -> list[Contradiction]:
    """Every flagged pair of the corpus's texts, sorted; one flag per pair even when both
    rules fire.

    `labels[i]` holds (field, value) pairs such as ("key", "db-port"): two texts sharing one
    whose normal forms differ are flagged. Similar pairs come from the join, run only between
    negated and plain texts (a pair on one side can never qualify); a caller that already
    has `corpus.pairs(threshold, sides=negation_sides(corpus, negations))` passes them as
    `similar`.
    """
    if similar is None:
        similar = corpus.pairs(threshold, sides=negation_sides(corpus, negations))
    flags = {(i, j): Contradiction(i, j, sim, "negation differs") for i, j, sim in similar}
    for (i, j), field in _same_label_pairs(labels, corpus.normalised).items():
        if (i, j) not in flags:
            sim = jaccard(corpus.sets[i], corpus.sets[j])
            flags[(i, j)] = Contradiction(i, j, sim, f"same {field}, different text")
    return [flags[pair] for pair in sorted(flags)]


def _same_label_pairs(
    labels: Sequence[Sequence[tuple[str, str]]], normalised: Sequence[str]
) -> dict[tuple[int, int], str]:
    """Pairs sharing a label with different normalised text -> the first shared field."""
    members: dict[tuple[str, str], list[int]] = {}
    for position, item_labels in enumerate(labels):
        for label in item_labels:
            members.setdefault(label, []).append(position)
    found: dict[tuple[int, int], str] = {}
    for (field, _value), group in sorted(members.items()):
        for a, i in enumerate(group):
            for j in group[a + 1:]:
                if normalised[i] != normalised[j]:
                    found.setdefault((i, j), field)
    return found
