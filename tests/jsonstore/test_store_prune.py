from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from prune_memory.errors import BadInputError
from prune_memory.jsonstore.analysis import analyse
from prune_memory.jsonstore.prune import plan_prune, write_outcome
from prune_memory.jsonstore.records import load_store
from tests.jsonstore.seed_example import RECORDS, write_store

NOW = datetime(2026, 10, 12, tzinfo=UTC)


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_worked_example_prune(tmp_path: Path) -> None:
    store = write_store(tmp_path / "memories.jsonl")
    before = store.read_bytes()
    records = load_store(store)
    outcome = plan_prune(records, analyse(records, NOW))
    assert outcome.summary() == {"kept": 5, "archived": 2,
                                 "kept_ids": ["m1", "m3", "m5", "m6", "m7"],
                                 "archived_ids": ["m2", "m4"]}
    write_outcome(outcome, store, tmp_path / "kept.jsonl", tmp_path / "archived.jsonl")
    assert _read(tmp_path / "kept.jsonl") == [r for r in RECORDS if r["id"] not in {"m2", "m4"}]
    archived = _read(tmp_path / "archived.jsonl")
    assert [(a["id"], a["_archive_reason"]) for a in archived] == [
        ("m2", "exact duplicate"), ("m4", "stale score 1.0")]
    assert {k: v for k, v in archived[0].items() if k != "_archive_reason"} == RECORDS[1]
    assert store.read_bytes() == before


def test_thresholds_and_pins(tmp_path: Path) -> None:
    records = load_store(write_store(tmp_path / "m.jsonl"))
    analysis = analyse(records, NOW)
    strict = plan_prune(records, analysis, stale_threshold=0.05, min_age_days=10)
    # m2 (0.056, 10 days) is a later exact copy anyway; m5 (0.046) stays under 0.05
    assert strict.summary()["archived_ids"] == ["m2", "m4"]
    loose = plan_prune(records, analysis, stale_threshold=0.04, min_age_days=10)
    assert loose.summary()["archived_ids"] == ["m2", "m4", "m5", "m6"]
    assert "m7" in loose.summary()["kept_ids"]  # pinned, though its score is 1.0
    old_enough = plan_prune(records, analysis, stale_threshold=0.8, min_age_days=2000)
    assert old_enough.summary()["archived_ids"] == ["m2"]


def test_near_duplicates_and_contradictions_are_never_archived(tmp_path: Path) -> None:
    records = load_store(write_store(tmp_path / "m.jsonl"))
    analysis = analyse(records, NOW)
    assert analysis.near_pairs and analysis.contradictions
    archived = set(plan_prune(records, analysis).summary()["archived_ids"])
    assert archived.isdisjoint({"m3", "m5", "m6"})


def test_outputs_must_not_overwrite_the_store(tmp_path: Path) -> None:
    store = write_store(tmp_path / "m.jsonl")
    records = load_store(store)
    outcome = plan_prune(records, analyse(records, NOW))
    for out, archive in ((store, tmp_path / "a.jsonl"), (tmp_path / "k.jsonl", store),
                         (tmp_path / "same.jsonl", tmp_path / "same.jsonl")):
        with pytest.raises(BadInputError):
            write_outcome(outcome, store, out, archive)
    with pytest.raises(BadInputError, match="folder does not exist"):
        write_outcome(outcome, store, tmp_path / "no" / "k.jsonl", tmp_path / "a.jsonl")
