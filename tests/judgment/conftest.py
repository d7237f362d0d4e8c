"""Small memory folders and repos in the shapes real Claude Code folders have (our own words)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.plan import Plan, PlanEntry
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from tests.conftest import write_tree
from tests.evidence.probes.gitbuild import GitRepo

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
Planner = Callable[[dict[str, str]], Plan]


def memory_file(name: str, body: str, *, description: str = "", type_: str = "project") -> str:
    return (f"---\nname: {name}\ndescription: {description or 'About ' + name}\n"
            f"type: {type_}\n---\n{body}\n")


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


@pytest.fixture
def planner(tmp_path: Path, repo: GitRepo) -> Planner:
    """Write a memory folder (an index linking every file is added) and plan it."""
    def plan(files: dict[str, str]) -> Plan:
        topics = sorted(f for f in files if f.endswith(".md") and f != "MEMORY.md")
        index = files.get("MEMORY.md") or "# Memory\n" + "".join(
            f"- [{f}]({f}) — a memory\n" for f in topics)
        root = write_tree(tmp_path / "memory", {**files, "MEMORY.md": index})
        return build_plan(root, PassOptions(repo=repo.root, now=NOW))
    return plan


def entry_of(plan: Plan, file: str) -> PlanEntry:
    found = plan.entry(file)
    assert found is not None, file
    return found


def messages(entry: PlanEntry) -> str:
    return " | ".join(f.message for f in entry.findings)
