"""The store audit must find exactly what comparing every pair finds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.analysis.contradictions import NEGATIONS, SEED_NEGATIONS
from prune_memory.jsonstore.analysis import StoreAnalysis, analyse
from prune_memory.jsonstore.records import StoreRecord
from tests.jsonstore.storegen import generate_records
from tests.reference_allpairs import reference_store

NOW = datetime(2026, 10, 12, tzinfo=UTC)
WORDS = ["deploy", "staging", "Friday", "cache", "shared", "not", "never", "isn't", "the",
         "tests", "use", "pnpm", "npm", "no", "port", "5432", "café", "lockfile"]


def _records(texts: list[str], keys: list[str | None]) -> list[StoreRecord]:
    return [StoreRecord(id=f"r{n}", text=text, created_at=NOW, updated_at=None,
                        last_recalled_at=None, recall_count=0, pinned=False, key=key,
                        raw={}, line=n + 1)
            for n, (text, key) in enumerate(zip(texts, keys, strict=True))]


def _assert_matches_reference(records: list[StoreRecord], analysis: StoreAnalysis,
                              near_threshold: float, negations: frozenset[str]) -> None:
    exact, near, flags = reference_store([r.text for r in records], [r.key for r in records],
                                         near_threshold=near_threshold, negations=negations)
    assert [list(g) for g in analysis.exact_groups] == exact
    assert list(analysis.near_pairs) == near
    assert [(c.first, c.second, c.jaccard, c.reason) for c in analysis.contradictions] == flags


texts = st.lists(st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join), max_size=25)


@settings(max_examples=200, deadline=None)
@given(texts, st.data(), st.sampled_from([0.5, 0.6, 0.75, 0.8, 0.9, 1.0]),
       st.sampled_from([NEGATIONS, SEED_NEGATIONS]))
def test_random_stores_match_all_pairs(
    store_texts: list[str], data: st.DataObject, near_threshold: float,
    negations: frozenset[str],
) -> None:
    keys = data.draw(st.lists(st.sampled_from([None, "", "k1", "k2"]),
                              min_size=len(store_texts), max_size=len(store_texts)))
    records = _records(store_texts, keys)
    analysis = analyse(records, NOW, near_threshold=near_threshold, negations=negations)
    _assert_matches_reference(records, analysis, near_threshold, negations)


@pytest.mark.parametrize("size", [2000])
def test_generated_store_matches_all_pairs(size: int) -> None:
    raw = generate_records(size, seed=11)
    records = _records([r["text"] for r in raw], [r.get("key") for r in raw])
    analysis = analyse(records, NOW)
    assert len(analysis.exact_groups) > 20 and len(analysis.near_pairs) > 50
    assert len(analysis.contradictions) > 50
    _assert_matches_reference(records, analysis, 0.8, NEGATIONS)


@pytest.mark.long
def test_large_generated_store_matches_all_pairs() -> None:
    raw = generate_records(6000, seed=3, vocab_size=3000)
    records = _records([r["text"] for r in raw], [r.get("key") for r in raw])
    _assert_matches_reference(records, analyse(records, NOW), 0.8, NEGATIONS)


def test_a_shared_key_with_one_side_negated_is_named_as_the_original_names_it() -> None:
    """The original audit says "negation differs" for any flagged pair with one side
    negated, here one flagged only for its key (Jaccard 0.1)."""
    records = _records(["the port is 5432", "staging never uses pnpm"], ["db", "db"])
    flags = analyse(records, NOW, negations=SEED_NEGATIONS).contradictions
    assert [(c.first, c.second, c.reason) for c in flags] == [(0, 1, "negation differs")]
