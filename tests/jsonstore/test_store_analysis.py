from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prune_memory.analysis.contradictions import SEED_NEGATIONS
from prune_memory.jsonstore.analysis import analyse, report
from prune_memory.jsonstore.records import load_store
from tests.jsonstore.seed_example import write_store

NOW = datetime(2026, 10, 12, tzinfo=UTC)
REPORT_KEYS = ["total_records", "total_text_chars", "oldest_age_days", "median_age_days",
               "never_recalled", "pinned", "exact_duplicate_groups", "near_duplicate_pairs",
               "contradiction_flags", "staleness"]


def _store(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    path = tmp_path / "store.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _report(path: Path, **options: Any) -> dict[str, Any]:
    records = load_store(path)
    return report(records, analyse(records, NOW, **options))


def test_worked_example_numbers(tmp_path: Path) -> None:
    data = _report(write_store(tmp_path / "memories.jsonl"))
    assert list(data) == REPORT_KEYS
    assert data["total_records"] == 7 and data["total_text_chars"] == 319
    assert (data["oldest_age_days"], data["median_age_days"]) == (1015, 10)
    assert (data["never_recalled"], data["pinned"]) == (3, 1)
    assert data["exact_duplicate_groups"] == [["m1", "m2"]]
    assert data["near_duplicate_pairs"] == [
        {"ids": ["m1", "m3"], "jaccard": 0.818}, {"ids": ["m2", "m3"], "jaccard": 0.818},
        {"ids": ["m5", "m6"], "jaccard": 0.875}]
    assert data["contradiction_flags"] == [
        {"ids": ["m5", "m6"], "jaccard": 0.875, "reason": "negation differs"}]
    stale = {s["id"]: s for s in data["staleness"]}
    assert stale["m4"] == {"id": "m4", "staleness": 1.0, "age_days": 1015, "recall_count": 0,
                           "pinned": False}
    assert stale["m7"]["staleness"] == 1.0 and stale["m7"]["age_days"] == 863
    assert stale["m1"] == {"id": "m1", "staleness": 0.006, "age_days": 2, "recall_count": 6,
                           "pinned": False}


def test_json_list_store_gives_the_same_report(tmp_path: Path) -> None:
    lines = _report(write_store(tmp_path / "a.jsonl"))
    listed = _report(write_store(tmp_path / "b.json", as_list=True))
    assert lines == listed


def test_same_key_with_different_text_is_flagged(tmp_path: Path) -> None:
    path = _store(tmp_path, [
        {"id": "a", "text": "Deploys run on Fridays", "created_at": "2026-01-01", "key": "deploy"},
        {"id": "b", "text": "Deploys moved to Tuesdays", "created_at": "2026-02-01",
         "key": "deploy"},
        {"id": "c", "text": "DEPLOYS RUN ON FRIDAYS!", "created_at": "2026-03-01", "key": "deploy"},
        {"id": "d", "text": "Unrelated", "created_at": "2026-03-01", "key": ""},
    ])
    flags = _report(path)["contradiction_flags"]
    assert flags == [
        {"ids": ["a", "b"], "jaccard": 0.143, "reason": "same key, different text"},
        {"ids": ["b", "c"], "jaccard": 0.143, "reason": "same key, different text"}]


def test_negation_list_is_switchable(tmp_path: Path) -> None:
    path = _store(tmp_path, [
        {"id": "a", "text": "The cache is shared between workers", "created_at": "2026-01-01"},
        {"id": "b", "text": "The cache isn't shared between workers", "created_at": "2026-01-01"},
    ])
    assert _report(path)["contradiction_flags"][0]["ids"] == ["a", "b"]
    assert _report(path, negations=SEED_NEGATIONS)["contradiction_flags"] == []


def test_near_threshold_is_configurable(tmp_path: Path) -> None:
    path = write_store(tmp_path / "m.jsonl")
    assert [p["ids"] for p in _report(path, near_threshold=0.85)["near_duplicate_pairs"]] == [
        ["m5", "m6"]]


def test_empty_store_reports_zeros(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    data = _report(path)
    assert data["total_records"] == 0 and data["oldest_age_days"] == 0
    assert data["staleness"] == [] and data["exact_duplicate_groups"] == []
