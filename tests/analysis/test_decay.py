from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from prune_memory.analysis.decay import decay_score, entry_decay, recall_factor
from prune_memory.model import Entry, EntryKind

NOW = datetime(2026, 10, 12, tzinfo=UTC)


def _days_ago(days: float) -> datetime:
    return NOW - timedelta(days=days)


@pytest.mark.parametrize(("count", "factor"), [(0, 1.0), (1, 0.75), (4, 0.75), (5, 0.5), (40, 0.5)])
def test_recall_factor_steps(count: int, factor: float) -> None:
    assert recall_factor(count) == factor


def test_score_is_idle_fraction_of_180_days_times_recall_factor() -> None:
    decay = decay_score(NOW, [("created_at", _days_ago(90))], 2)
    assert (decay.base, decay.recall_factor, decay.score) == (0.5, 0.75, 0.375)
    assert decay.days_idle == 90 and decay.idle_source == "created_at"
    assert decay.recalls_measured


def test_score_caps_at_one_and_counts_whole_days() -> None:
    old = decay_score(NOW, [("created_at", datetime(2024, 1, 1, tzinfo=UTC))], 0)
    assert (old.days_idle, old.score) == (1015, 1.0)
    partial = decay_score(NOW, [("created_at", _days_ago(10.9))], 0)
    assert partial.days_idle == 10 and partial.score == round(10 / 180, 3)


def test_first_known_touch_wins_and_future_dates_count_as_zero() -> None:
    touches = [("last_recalled_at", None), ("updated_at", _days_ago(3)),
               ("created_at", _days_ago(300))]
    decay = decay_score(NOW, touches, None)
    assert (decay.idle_source, decay.days_idle) == ("updated_at", 3)
    assert not decay.recalls_measured and decay.recall_factor == 1.0
    assert decay_score(NOW, [("created_at", NOW + timedelta(days=5))], 0).days_idle == 0


def test_no_date_at_all_is_an_error() -> None:
    with pytest.raises(ValueError):
        decay_score(NOW, [("created_at", None)], 0)


def test_decay_serialises_with_its_inputs() -> None:
    data = decay_score(NOW, [("modified", _days_ago(45))], 7).to_json()
    assert data == {"score": 0.125, "base": 0.25, "recall_factor": 0.5, "days_idle": 45,
                    "idle_since": _days_ago(45).isoformat(), "idle_source": "modified",
                    "recall_count": 7, "recalls_measured": True}


def _entry(modified: datetime | None) -> Entry:
    return Entry(file="a.md", kind=EntryKind.TOPIC, name="a", description="", memory_type=None,
                 frontmatter={}, body="x", sha256="0", size=1, mtime=_days_ago(200),
                 modified=modified)


def test_entry_decay_prefers_recall_then_modified_then_mtime() -> None:
    assert entry_decay(_entry(None), NOW).idle_source == "mtime"
    assert entry_decay(_entry(_days_ago(20)), NOW).days_idle == 20
    recalled = entry_decay(_entry(_days_ago(20)), NOW, last_recall=_days_ago(2), recall_count=3)
    assert (recalled.idle_source, recalled.days_idle, recalled.recall_factor) == (
        "last_recall", 2, 0.75)
