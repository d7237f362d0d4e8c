from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.analysis.similarity import (
    Corpus,
    TokenSets,
    exact_groups,
    jaccard,
    normalise,
    similar_pairs,
    similar_pairs_across,
    threshold_fraction,
    token_set,
    tokens,
)
from prune_memory.errors import BadInputError
from tests.reference_allpairs import reference_pairs

WORDS = [f"w{n}" for n in range(14)]
token_sets = st.lists(st.frozensets(st.sampled_from(WORDS), max_size=9), max_size=30)
thresholds = st.one_of(
    st.sampled_from([0.1, 0.25, 1 / 3, 0.5, 0.6, 2 / 3, 0.7, 0.75, 0.8, 0.9, 1.0]),
    st.floats(min_value=0.05, max_value=1.0),
)


def test_tokens_fold_case_split_punctuation_and_join_contractions() -> None:
    assert tokens("Don't run `npm_install` -- use PNPM 9!") == [
        "dont", "run", "npm", "install", "use", "pnpm", "9"]
    assert tokens("It’s the café's menu") == ["its", "the", "cafés", "menu"]
    assert tokens("'quoted' words") == ["quoted", "words"]


def test_normalise_collapses_whitespace_and_strips_punctuation() -> None:
    assert normalise("  Use PNPM,\n\tnot npm!! ") == "use pnpm not npm"
    assert normalise("...") == ""
    assert token_set("a b a") == frozenset({"a", "b"})


def test_exact_groups_keep_first_appearance_order() -> None:
    texts = ["B fact", "a fact.", "other", "A FACT", "b  fact!", "alone"]
    assert exact_groups(texts) == [[0, 4], [1, 3]]


def test_jaccard_and_threshold_fraction() -> None:
    assert jaccard({"a", "b"}, {"b", "c"}) == pytest.approx(1 / 3)
    assert jaccard(set(), set()) == 1.0
    assert threshold_fraction(0.8) == Fraction(4, 5)
    for bad in (0, -0.1, 1.01):
        with pytest.raises(BadInputError):
            threshold_fraction(bad)


def test_boundary_pair_at_exactly_the_threshold_is_included() -> None:
    four_of_five = [frozenset("abcd"), frozenset("abcde")]  # 4/5 = 0.8 exactly
    assert similar_pairs(four_of_five, 0.8) == [(0, 1, 0.8)]
    assert similar_pairs(four_of_five, 0.81) == []
    # 7/10 written as a float that is not exactly 0.7
    seven_of_ten = [frozenset("abcdefg"), frozenset("abcdefghij")]
    assert similar_pairs(seven_of_ten, 0.7) == [(0, 1, 0.7)]


def test_empty_sets_never_pair() -> None:
    assert similar_pairs([frozenset(), frozenset(), frozenset({"a"})], 0.5) == []


def test_sides_must_match_the_sets() -> None:
    with pytest.raises(ValueError):
        similar_pairs([{"a"}, {"a"}], 0.5, sides=[True])


@settings(max_examples=300, deadline=None)
@given(token_sets, thresholds)
def test_join_equals_all_pairs(sets: list[frozenset[str]], threshold: float) -> None:
    assert similar_pairs(sets, threshold) == reference_pairs(sets, threshold)


@settings(max_examples=200, deadline=None)
@given(token_sets, thresholds, st.data())
def test_sided_join_equals_all_cross_pairs(
    sets: list[frozenset[str]], threshold: float, data: st.DataObject
) -> None:
    sides = data.draw(st.lists(st.booleans(), min_size=len(sets), max_size=len(sets)))
    assert similar_pairs(sets, threshold, sides=sides) == reference_pairs(sets, threshold, sides)


@settings(max_examples=100, deadline=None)
@given(token_sets, token_sets, thresholds)
def test_join_across_two_collections(
    left: list[frozenset[str]], right: list[frozenset[str]], threshold: float
) -> None:
    limit = Fraction(str(threshold))
    expected = [
        (i, j, len(a & b) / len(a | b))
        for i, a in enumerate(left) for j, b in enumerate(right)
        if a and b and Fraction(len(a & b), len(a | b)) >= limit
    ]
    assert similar_pairs_across(left, right, threshold) == expected


def test_prepared_sets_can_be_joined_at_several_thresholds() -> None:
    texts = ["the build uses pnpm and vite", "the build uses pnpm and webpack",
             "deploys go through the staging branch", "the build does not use pnpm and vite"]
    prepared = TokenSets([token_set(t) for t in texts])
    for threshold in (0.5, 0.7, 0.9):
        naive = [(i, j) for i, j in combinations(range(len(texts)), 2)
                 if jaccard(prepared.sets[i], prepared.sets[j]) >= threshold]
        assert [(i, j) for i, j, _ in prepared.pairs(threshold)] == naive
    assert len(prepared) == 4


def test_corpus_joins_each_distinct_text_once_and_adds_copies_back() -> None:
    texts = ["Use pnpm, not npm.", "the build uses pnpm not npm", "USE PNPM -- NOT NPM",
             "use pnpm not npm", "unrelated words here", "The build uses pnpm, not npm!"]
    corpus = Corpus(texts)
    assert corpus.exact_groups() == [[0, 2, 3], [1, 5]] == exact_groups(texts)
    assert len(corpus.distinct) == 3 and len(corpus) == 6
    naive = [(i, j, s) for i, j, s in reference_pairs(corpus.sets, 0.4)
             if corpus.normalised[i] != corpus.normalised[j]]
    assert corpus.pairs(0.4) == naive and len(naive) == 6
    sides = [True, False, True, True, False, False]
    assert corpus.pairs(0.4, sides=sides) == [p for p in naive if sides[p[0]] != sides[p[1]]]
    assert corpus.pairs(0.4, sides=[True, True, True, True, False, True]) == []
