"""The store audit: exact and near duplicates, contradiction flags and staleness per record.

`report` renders it with the keys and shapes of the original JSONL audit (seed 000), so
tools written against that output keep working.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from prune_memory.analysis.contradiction import NEGATIONS, Contradiction, contradictions
from prune_memory.analysis.decay import idle_days, staleness
from prune_memory.analysis.gcpause import collector_paused
from prune_memory.analysis.similarity import Corpus, Pair, jaccard
from prune_memory.jsonstore.records import StoreRecord
from prune_memory.model import JSON

NEAR_THRESHOLD = 0.8


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
        corpus = Corpus([record.text for record in records])
        labels = [(("key", r.key),) if r.key else () for r in records]
        return StoreAnalysis(
            exact_groups=tuple(tuple(group) for group in corpus.exact_groups()),
            near_pairs=tuple(corpus.pairs(near_threshold)),
            contradictions=tuple(contradictions(corpus, labels, negations=negations)),
            decay=tuple(_age(record, now) for record in records),
        )


def _age(record: StoreRecord, now: datetime) -> RecordAge:
    days = idle_days(now, record.last_touch)
    return RecordAge(staleness(days, record.recall_count), days)


DENIAL_REASON = "one statement denies the other"


def denial_flags(records: Sequence[StoreRecord], analysis: StoreAnalysis) -> list[JSON]:
    """Contradiction flags the negation-word rule misses ("resets nightly" against "does not
    reset nightly" share too few words), in the report's flag shape; pairs it already
    flagged are left out."""
    from prune_memory.analysis.negation import denied_pairs
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
