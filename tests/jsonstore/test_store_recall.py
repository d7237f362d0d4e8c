from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.analysis.similarity import token_set
from prune_memory.errors import BadInputError
from prune_memory.jsonstore.recall import (
    load_checks,
    memory_documents,
    run_checks,
    store_documents,
    top_hits,
)
from prune_memory.jsonstore.records import load_store
from prune_memory.model import Entry, EntryKind, MemoryDir
from tests.jsonstore.seed_example import CHECK_ARCHIVED, CHECKS, write_store


def test_top_hits_rank_by_shared_words_then_id() -> None:
    docs = [(rid, token_set(text)) for rid, text in [
        ("d", "deploy staging friday"), ("b", "deploy staging"), ("a", "deploy staging"),
        ("c", "deploy"), ("e", "unrelated")]]
    assert top_hits("Deploy to staging on Friday", docs) == ("d", "a", "b")
    assert top_hits("nothing matches", docs) == ()


def test_worked_example_checks(tmp_path: Path) -> None:
    records = load_store(write_store(tmp_path / "m.jsonl"))
    checks_path = tmp_path / "checks.json"
    checks_path.write_text(json.dumps([*CHECKS, CHECK_ARCHIVED]), encoding="utf-8")
    kept = [r for r in records if r.id not in {"m2", "m4"}]
    results = run_checks(load_checks(checks_path, "expect_id"), store_documents(kept))
    assert [r.passed for r in results] == [True, True, False]
    assert results[0].to_json("expect_id") == {
        "query": "office wifi guests", "expect_id": "m5", "top_hits": ["m5", "m6"], "pass": True}


def test_memory_directory_documents_use_name_description_and_body() -> None:
    entry = Entry(file="deploy.md", kind=EntryKind.TOPIC, name="deploy-days",
                  description="When we ship", memory_type="project", frontmatter={},
                  body="Releases go out on Tuesdays.", sha256="0", size=1,
                  mtime=datetime(2026, 1, 1, tzinfo=UTC))
    fact = Entry(file="MEMORY.md#L3", kind=EntryKind.INDEX_LINE, name="x", description="",
                 memory_type=None, frontmatter={}, body="Tuesdays are quiet", sha256="0",
                 size=1, mtime=datetime(2026, 1, 1, tzinfo=UTC))
    docs = memory_documents(MemoryDir(root=Path("/m"), index=None, entries=(entry, fact)))
    assert [doc_id for doc_id, _ in docs] == ["deploy.md"]
    assert {"deploy", "days", "ship", "tuesdays"} <= docs[0][1]


@pytest.mark.parametrize(("content", "message"), [
    ('{"query": "x"}', "must be a JSON list"),
    ('[{"query": "x"}]', "needs a string `query` and `expect_id`"),
    ('["x"]', "not a JSON object"),
    ("[", "cannot read checks file"),
])
def test_bad_checks_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "checks.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BadInputError, match=message):
        load_checks(path, "expect_id")
    with pytest.raises(BadInputError, match="not found"):
        load_checks(tmp_path / "absent.json", "expect_id")
