"""The store audit: exact and near duplicates, contradiction flags and staleness per record.

`report` renders it with the keys and shapes of the original JSONL audit (seed 000), so
tools written against that output keep working.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

from prune_memory.analysis.contradictions import (
    CONTRADICTION_THRESHOLD,
    NEGATIONS,
    Contradiction,
    contradictions,
    negation_sides,
)
from prune_memory.analysis.decay import idle_days, staleness
from prune_memory.analysis.gcpause import collector_paused
from prune_memory.analysis.setjoin import Pair
from prune_memory.analysis.similarity import Corpus, jaccard
from prune_memory.jsonstore.records import StoreRecord
from prune_memory.model import JSON

NEAR_THRESHOLD = 0.8
NEGATION_DIFFERS = "negation differs"


class RecordAge(NamedTuple):
    """Staleness score and whole days idle of one record (decay.py's formula)."""

    score: float
    days_idle: int


@dataclass(frozen=True)
class StoreAnalysis:
    """Findings by record position (0-based, in store order)."""

    exact_groups: tuple[tuple[int, ...], ...]
    near_pairs: tuple[Pair, ...]
    contradictions: tuple[Contradiction, ...]
    decay: tuple[RecordAge, ...]


def analyse(
    records: Sequence[StoreRecord],
    now: datetime,
    *,
    near_threshold: float = NEAR_THRESHOLD,
    negations: frozenset[str] = NEGATIONS,
) -> StoreAnalysis:
    """Run every check over the records; pairs are found by the exact similarity join."""
    with collector_paused():  # a store's worth of small acyclic objects: see gcpause
        # The corpus is freed before the collector resumes, or its first pass would
        # walk every token set still alive (a sixth of the whole run at 10,000 records).
        return _analyse(records, now, near_threshold, negations)


def _analyse(records: Sequence[StoreRecord], now: datetime, near_threshold: float,
             negations: frozenset[str]) -> StoreAnalysis:
    corpus = Corpus([record.text for record in records])
    labels = [(("key", r.key),) if r.key else () for r in records]
    sides = negation_sides(corpus, negations)
    near, similar = corpus.pairs_and_across(near_threshold, CONTRADICTION_THRESHOLD, sides)
    flags = contradictions(corpus, labels, negations=negations, similar=similar)
    return StoreAnalysis(
        exact_groups=tuple(tuple(group) for group in corpus.exact_groups()),
        near_pairs=tuple(near),
        contradictions=tuple(_negation_first(flags, sides)),
        decay=_ages(records, now),
    )


def _negation_first(flags: list[Contradiction], sides: Sequence[bool]) -> list[Contradiction]:
    """The original audit names a flagged pair's reason "negation differs" whenever one
    side is negated, even when the pair was flagged for its shared key at a low Jaccard."""
    return [replace(flag, reason=NEGATION_DIFFERS)
            if flag.reason != NEGATION_DIFFERS and sides[flag.first] != sides[flag.second]
            else flag for flag in flags]


def _ages(records: Sequence[StoreRecord], now: datetime) -> tuple[RecordAge, ...]:
    """Each record's age; records idle as long and recalled as often share one (a store of
    10,000 has about 3,500 such pairs, and rounding the score is the slow part)."""
    known: dict[tuple[int, int], RecordAge] = {}
    ages = []
    for record in records:
        days = idle_days(now, record.last_touch)
        age = known.get((days, record.recall_count))
        if age is None:
            age = known[days, record.recall_count] = RecordAge(
                staleness(days, record.recall_count), days)
        ages.append(age)
    return tuple(ages)


DENIAL_REASON = "one statement denies the other"


def denial_flags(records: Sequence[StoreRecord], analysis: StoreAnalysis) -> list[JSON]:
    """Contradiction flags the negation-word rule misses ("resets nightly" against "does not
    reset nightly" share too few words), in the report's flag shape; pairs it already
    flagged are left out."""
    from prune_memory.analysis.contradictions import denied_pairs
    from prune_memory.analysis.similarity import token_set

    flagged = {(c.first, c.second) for c in analysis.contradictions}
    ids = [record.id for record in records]
    return [{"ids": [ids[i], ids[j]],
             "jaccard": round(jaccard(token_set(records[i].text), token_set(records[j].text)), 3),
             "reason": DENIAL_REASON}
            for i, j in denied_pairs([record.text for record in records])
            if (i, j) not in flagged]


def report(records: Sequence[StoreRecord], analysis: StoreAnalysis) -> JSON:
    """The audit as JSON, key for key the shape of the original `report` command."""
    ids = [record.id for record in records]
    idle = sorted(age.days_idle for age in analysis.decay)
    # upper median, as the original audit reports it
    oldest, median = (idle[-1], idle[len(idle) // 2]) if idle else (0, 0)
    return {
        "total_records": len(records),
        "total_text_chars": sum(len(record.text) for record in records),
        "oldest_age_days": oldest,
        "median_age_days": median,
        "never_recalled": sum(1 for record in records if record.recall_count == 0),
        "pinned": sum(1 for record in records if record.pinned),
        "exact_duplicate_groups": [[ids[i] for i in group] for group in analysis.exact_groups],
        "near_duplicate_pairs": [{"ids": [ids[i], ids[j]], "jaccard": round(sim, 3)}
                                 for i, j, sim in analysis.near_pairs],
        "contradiction_flags": [
            {"ids": [ids[c.first], ids[c.second]], "jaccard": round(c.jaccard, 3),
             "reason": c.reason}
            for c in analysis.contradictions
        ],
        "staleness": [
            {"id": record.id, "staleness": decay.score, "age_days": decay.days_idle,
             "recall_count": record.recall_count, "pinned": record.pinned}
            for record, decay in zip(records, analysis.decay, strict=True)
        ],
    }
