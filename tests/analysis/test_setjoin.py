"""The join keyed by word pairs against brute force, and the bounded search's size.

Small stores have no common words at the usual cut (every word is in few sets), so the tests
lower it: then most words are common and pairs of them lead to the partners, the path that
notes from a small vocabulary take.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.analysis import similarity
from prune_memory.analysis.setjoin import BOUNDED
from prune_memory.analysis.similarity import Corpus, TokenSets, similar_pairs
from tests.reference_allpairs import reference_pairs

WORDS = [f"w{n}" for n in range(12)]
token_sets = st.lists(st.frozensets(st.sampled_from(WORDS), max_size=8), max_size=40)
thresholds = st.one_of(st.sampled_from([0.3, 0.5, 0.6, 0.75, 0.8, 0.9, 1.0]),
                       st.floats(min_value=0.2, max_value=1.0))


@contextmanager
def common_from(count: int) -> Iterator[None]:
    """Words in more than `count` sets count as common, whatever the store's size."""
    with mock.patch.object(similarity, "COMMON_AT_LEAST", count), \
            mock.patch.object(similarity, "isqrt", lambda _n: 0):
        yield


@settings(max_examples=300, deadline=None)
@given(token_sets, thresholds, st.sampled_from([0, 1, 3, 6]))
def test_pairs_of_common_words_find_every_pair(
    sets: list[frozenset[str]], threshold: float, cut: int
) -> None:
    with common_from(cut):
        assert similar_pairs(sets, threshold) == reference_pairs(sets, threshold)


@settings(max_examples=200, deadline=None)
@given(token_sets, st.sampled_from([0.6, 0.8, 1.0]), st.sampled_from([0, 2]), st.data())
def test_pairs_of_common_words_across_sides(
    sets: list[frozenset[str]], threshold: float, cut: int, data: st.DataObject
) -> None:
    sides = data.draw(st.lists(st.booleans(), min_size=len(sets), max_size=len(sets)))
    with common_from(cut):
        assert similar_pairs(sets, threshold, sides=sides) == \
            reference_pairs(sets, threshold, sides)


@settings(max_examples=100, deadline=None)
@given(token_sets, thresholds)
def test_a_bounded_search_of_a_small_store_is_exact(
    sets: list[frozenset[str]], threshold: float
) -> None:
    """Fewer sets than a bounded search may look at: nothing is left out."""
    found = sorted(TokenSets(sets).iter_pairs(threshold, BOUNDED))
    assert found == reference_pairs(sets, threshold)


def _near_copies(count: int) -> list[str]:
    """`count` notes that differ from one another in one word of sixteen."""
    base = [f"word{n}" for n in range(15)]
    return [" ".join([*base, f"tail{n}"]) for n in range(count)]


def test_a_bounded_search_stays_linear_on_near_copies() -> None:
    """1,500 notes that are all near copies: 1,124,250 pairs, of which a bounded search
    keeps a number that grows with the notes (the plan keeps each note's closest few)."""
    texts = _near_copies(1500)
    corpus = Corpus(texts)
    bounded = list(corpus.iter_pairs(0.8, BOUNDED))
    assert len(texts) <= len(bounded) <= BOUNDED * len(texts)
    assert len({i for pair in bounded for i in pair[:2]}) == len(texts)  # each has partners
    assert all(sim >= 0.8 for _, _, sim in bounded)
    assert sum(1 for _ in Corpus(texts[:300]).iter_pairs(0.8)) == 300 * 299 // 2  # exact
