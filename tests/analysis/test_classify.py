from __future__ import annotations

import datetime as dt

import pytest

from prune_memory.analysis.classify import classify
from prune_memory.model import Entry, EntryKind, MemoryClass

NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)


def entry(body: str, memory_type: str | None = "project") -> Entry:
    return Entry(file="x.md", kind=EntryKind.TOPIC, name="x", description="", frontmatter={},
                 memory_type=memory_type, body=body, sha256="0", size=len(body), mtime=NOW)


@pytest.mark.parametrize(("body", "memory_type", "expected"), [
    ("Currently debugging the login flake; pick up next session.", "project",
     MemoryClass.EPHEMERAL),
    ("User prefers kebab-case file names.", "feedback", MemoryClass.FEEDBACK),
    ("The user is a data engineer.", "user", MemoryClass.FEEDBACK),
    ("Linear board: https://linear.app/acme", "reference", MemoryClass.REFERENCE),
    ("We chose Postgres over Mongo because of joins.", "project", MemoryClass.DECISION),
    ("Exit code 5 means a quoting error; workaround: use a temp file.", "project",
     MemoryClass.PATTERN),
    ("The API lives in src/api/.", "project", MemoryClass.PROJECT),
    ("Always use pnpm, never npm.", None, MemoryClass.FEEDBACK),
    ("Docs at https://docs.example.org/", None, MemoryClass.REFERENCE),
    ("SUPERSEDED 2026-01-02", "superseded", MemoryClass.DECISION),
])
def test_classes_and_their_signals(body: str, memory_type: str | None,
                                   expected: MemoryClass) -> None:
    result = classify(entry(body, memory_type))
    assert result.cls is expected
    assert result.signal


def test_every_class_is_reachable() -> None:
    bodies = {
        MemoryClass.EPHEMERAL: ("this session I fixed it", "project"),
        MemoryClass.FEEDBACK: ("x", "feedback"),
        MemoryClass.REFERENCE: ("x", "reference"),
        MemoryClass.DECISION: ("decided to use x", "project"),
        MemoryClass.PATTERN: ("root cause was y", "project"),
        MemoryClass.PROJECT: ("a fact", "project"),
    }
    assert {classify(entry(b, t)).cls for b, t in bodies.values()} == set(MemoryClass)
