"""The slow, obviously right answer: compare every pair of texts.

The similarity join in `prune_memory.analysis.similarity` must return exactly what this
returns. Thresholds are compared as fractions, never as rounded floats. Only the
tokeniser is shared with the package, since it defines what a word is.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fractions import Fraction
from itertools import combinations

from prune_memory.analysis.similarity import tokens

Pair = tuple[int, int, float]
Flag = tuple[int, int, float, str]


def reference_pairs(
    token_sets: Sequence[Collection[str]], threshold: float,
    sides: Sequence[bool] | None = None,
) -> list[Pair]:
    """Every pair i < j of non-empty sets with |A∩B| / |A∪B| >= threshold."""
    limit = Fraction(str(threshold))
    sets = [set(s) for s in token_sets]
    found: list[Pair] = []
    for i, j in combinations(range(len(sets)), 2):
        if not sets[i] or not sets[j] or (sides is not None and sides[i] == sides[j]):
            continue
        overlap, union = len(sets[i] & sets[j]), len(sets[i] | sets[j])
        if Fraction(overlap, union) >= limit:
            found.append((i, j, overlap / union))
    return found


def reference_store(
    texts: Sequence[str],
    keys: Sequence[str | None],
    *,
    near_threshold: float,
    negations: frozenset[str],
    contradiction_threshold: float = 0.5,
) -> tuple[list[list[int]], list[Pair], list[Flag]]:
    """Exact groups, near pairs and contradiction flags of a store, by brute force."""
    words = [tokens(text) for text in texts]
    norms = [" ".join(w) for w in words]
    sets = [set(w) for w in words]
    groups: dict[str, list[int]] = {}
    for i, norm in enumerate(norms):
        groups.setdefault(norm, []).append(i)
    exact = [g for g in groups.values() if len(g) > 1]
    near_num, near_den = _ratio(near_threshold)
    contra_num, contra_den = _ratio(contradiction_threshold)
    negated = [bool(s & negations) for s in sets]
    near: list[Pair] = []
    flags: list[Flag] = []
    for i, j in combinations(range(len(texts)), 2):
        overlap = len(sets[i] & sets[j])
        union = len(sets[i]) + len(sets[j]) - overlap
        sim = overlap / union if union else 1.0
        # overlap / union >= num / den, in integers; an empty union only pairs two empty texts
        if overlap * near_den >= near_num * union and norms[i] != norms[j] and union:
            near.append((i, j, sim))
        if negated[i] != negated[j] and overlap * contra_den >= contra_num * union:
            flags.append((i, j, sim, "negation differs"))
        elif keys[i] and keys[i] == keys[j] and norms[i] != norms[j]:
            # as the original audit words it: a negation named first, whatever the Jaccard
            flags.append((i, j, sim, "negation differs" if negated[i] != negated[j]
                          else "same key, different text"))
    return exact, near, flags


def _ratio(threshold: float) -> tuple[int, int]:
    exact = Fraction(str(threshold))
    return exact.numerator, exact.denominator
