"""The bit-parallel join across sides against brute force, at every threshold it could see."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.analysis import setjoin
from prune_memory.analysis.setjoin import cross_pairs
from prune_memory.analysis.similarity import Corpus, TokenSets, threshold_fraction
from tests.reference_allpairs import reference_pairs

WORDS = [f"w{n}" for n in range(14)]
token_sets = st.lists(st.frozensets(st.sampled_from(WORDS), max_size=9), max_size=30)
thresholds = st.one_of(
    st.sampled_from([0.1, 0.25, 1 / 3, 0.5, 0.55, 0.6, 2 / 3, 0.8, 0.9, 1.0]),
    st.floats(min_value=0.05, max_value=1.0),
)


def crossed(sets: list[frozenset[str]], threshold: float,
            sides: list[bool]) -> list[tuple[int, int, float]]:
    prepared = TokenSets(sets)
    return sorted(cross_pairs(prepared.sets, prepared.ranked, prepared.order,
                              prepared.vocabulary, threshold_fraction(threshold), sides))


@settings(max_examples=300, deadline=None)
@given(token_sets, thresholds, st.data())
def test_cross_join_equals_all_cross_pairs(
    sets: list[frozenset[str]], threshold: float, data: st.DataObject
) -> None:
    sides = data.draw(st.lists(st.booleans(), min_size=len(sets), max_size=len(sets)))
    assert crossed(sets, threshold, sides) == reference_pairs(sets, threshold, sides)


@settings(max_examples=50, deadline=None)
@given(token_sets, thresholds, st.data())
def test_blocks_of_the_smaller_side_change_nothing(
    sets: list[frozenset[str]], threshold: float, data: st.DataObject
) -> None:
    sides = data.draw(st.lists(st.booleans(), min_size=len(sets), max_size=len(sets)))
    block = setjoin.BLOCK
    try:
        setjoin.BLOCK = data.draw(st.integers(min_value=1, max_value=4))
        assert crossed(sets, threshold, sides) == reference_pairs(sets, threshold, sides)
    finally:
        setjoin.BLOCK = block


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=100, max_value=300), min_size=2, max_size=6),
       st.sampled_from([0.3, 0.5, 0.9]), st.data())
def test_sets_past_127_tokens_get_wider_fields(
    sizes: list[int], threshold: float, data: st.DataObject
) -> None:
    """A field of one byte holds counts up to 127; larger sets need two bytes per field."""
    sets = [frozenset(f"w{n}" for n in range(size)) | {f"own{i}"} for i, size in enumerate(sizes)]
    sides = data.draw(st.lists(st.booleans(), min_size=len(sets), max_size=len(sets)))
    assert crossed(sets, threshold, sides) == reference_pairs(sets, threshold, sides)


def test_one_side_empty_gives_no_pairs() -> None:
    sets = [frozenset({"a", "b"}), frozenset({"a", "b"}), frozenset()]
    assert crossed(sets, 0.5, [False, False, True]) == []
    assert crossed(sets, 0.5, [True, False, False]) == [(0, 1, 1.0)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), max_size=8), max_size=25),
       thresholds, thresholds)
def test_near_and_across_pairs_together_equal_two_separate_joins(
    texts_words: list[list[str]], first: float, second: float
) -> None:
    """`pairs_and_across` takes the pairs across sides from one join for both answers."""
    texts = [" ".join(words) for words in texts_words]
    corpus = Corpus(texts)
    sides = [WORDS[0] in corpus.sets[i] for i in range(len(texts))]  # agrees among copies
    near, across = corpus.pairs_and_across(first, second, sides)
    assert near == [(i, j, sim) for i, j, sim in reference_pairs(corpus.sets, first)
                    if corpus.normalised[i] != corpus.normalised[j]]
    assert across == reference_pairs(corpus.sets, second, sides)
