"""Staleness decay score: how long a memory has sat idle, softened by how often it was recalled.

The score is a signal for review, never a withdrawal on its own: durable facts can be old,
untouched and still right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from prune_memory.model import JSON, Entry

FULL_DECAY_DAYS = 180


@dataclass(frozen=True)
class Decay:
    """A staleness score in 0..1 with every input it was computed from."""

    score: float
    base: float
    recall_factor: float
    days_idle: int
    idle_since: datetime
    idle_source: str
    recall_count: int
    recalls_measured: bool

    def to_json(self) -> JSON:
        return {
            "score": self.score, "base": self.base, "recall_factor": self.recall_factor,
            "days_idle": self.days_idle, "idle_since": self.idle_since.isoformat(),
            "idle_source": self.idle_source, "recall_count": self.recall_count,
            "recalls_measured": self.recalls_measured,
        }


def recall_factor(recall_count: int) -> float:
    """1 for a memory never recalled, 0.75 for 1-4 recalls, 0.5 for 5 or more."""
    if recall_count >= 5:
        return 0.5
    if recall_count >= 1:
        return 0.75
    return 1.0


def idle_days(now: datetime, since: datetime) -> int:
    """Whole days (floored) from `since` to `now`; never negative."""
    return max((now - since).days, 0)


def staleness(days_idle: int, recall_count: int) -> float:
    """The score: min(days idle / 180, 1) times the recall factor, to three decimals."""
    return round(min(days_idle / FULL_DECAY_DAYS, 1.0) * recall_factor(recall_count), 3)


def decay_score(
    now: datetime,
    touches: Sequence[tuple[str, datetime | None]],
    recall_count: int | None,
) -> Decay:
    """Score from the first known touch in `touches` (most telling first), e.g.
    [("last_recalled_at", …), ("updated_at", …), ("created_at", …)].

    An unmeasured recall count (None) counts as 0 and is labelled as not measured.
    """
    known = [(label, when) for label, when in touches if when is not None]
    if not known:
        raise ValueError("no date to measure staleness from")
    source, since = known[0]
    days = idle_days(now, since)
    count = recall_count or 0
    return Decay(score=staleness(days, count), base=round(min(days / FULL_DECAY_DAYS, 1.0), 3),
                 recall_factor=recall_factor(count), days_idle=days, idle_since=since,
                 idle_source=source, recall_count=count, recalls_measured=recall_count is not None)


def entry_decay(
    entry: Entry,
    now: datetime,
    *,
    last_recall: datetime | None = None,
    recall_count: int | None = None,
) -> Decay:
    """Staleness of a memory file: from its last measured recall, else `modified:`, else mtime."""
    return decay_score(
        now,
        [("last_recall", last_recall), ("modified", entry.modified), ("mtime", entry.mtime)],
        recall_count,
    )
