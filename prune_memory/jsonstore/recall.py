"""Recall checks: after a prune, can the facts that matter still be found?

A check passes when its expected record (or memory file) ranks in the top three by how
many query tokens it shares, ties broken by id. Deliberately simple: it proves a fact is
still present and findable by its words, not how a model would rank it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prune_memory.analysis.similarity import token_set
from prune_memory.errors import BadInputError
from prune_memory.jsonstore.records import StoreRecord
from prune_memory.model import JSON, MemoryDir

TOP_HITS = 3


@dataclass(frozen=True)
class RecallCheck:
    query: str
    expect: str


@dataclass(frozen=True)
class CheckResult:
    check: RecallCheck
    top_hits: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return self.check.expect in self.top_hits

    def to_json(self, expect_field: str) -> JSON:
        return {"query": self.check.query, expect_field: self.check.expect,
                "top_hits": list(self.top_hits), "pass": self.passed}


Document = tuple[str, frozenset[str]]


def load_checks(path: Path, expect_field: str) -> list[RecallCheck]:
    """A JSON list of {"query": ..., <expect_field>: ...} objects."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError as err:
        raise BadInputError(f"checks file not found: {path}") from err
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise BadInputError(f"cannot read checks file {path}: {err}") from err
    except RecursionError as err:
        raise BadInputError(f"checks file {path} nests too deeply to be a list of checks") \
            from err
    if not isinstance(data, list):
        raise BadInputError(f"{path}: checks must be a JSON list")
    return [_check(item, number, expect_field) for number, item in enumerate(data, start=1)]


def _check(item: Any, number: int, expect_field: str) -> RecallCheck:
    if not isinstance(item, dict):
        raise BadInputError(f"check {number}: not a JSON object")
    query, expect = item.get("query"), item.get(expect_field)
    if not isinstance(query, str) or not isinstance(expect, str) or not expect:
        raise BadInputError(f"check {number}: needs a string `query` and `{expect_field}`")
    return RecallCheck(query=query, expect=expect)


def top_hits(query: str, documents: Sequence[Document], top: int = TOP_HITS) -> tuple[str, ...]:
    """Ids of the documents sharing the most query tokens (at least one), ties by id."""
    wanted = token_set(query)
    scored = [(len(wanted & words), doc_id) for doc_id, words in documents]
    scored = [pair for pair in scored if pair[0] > 0]
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return tuple(doc_id for _score, doc_id in scored[:top])


def run_checks(checks: Sequence[RecallCheck], documents: Sequence[Document]) -> list[CheckResult]:
    return [CheckResult(check, top_hits(check.query, documents)) for check in checks]


def store_documents(records: Sequence[StoreRecord]) -> list[Document]:
    """Records of a JSON/JSONL store as (id, tokens of its text)."""
    return [(record.id, token_set(record.text)) for record in records]


def memory_documents(memdir: MemoryDir) -> list[Document]:
    """Topic files of a memory directory as (file, tokens of name, description and body)."""
    return [(entry.file, token_set(f"{entry.name}\n{entry.text}")) for entry in memdir.topics]
