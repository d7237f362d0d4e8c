"""A SUPERSEDED note is never written from pasted-together fields, nor against CLAUDE.md."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.analysis.inoculation_check import inoculation_problem
from prune_memory.plan import Inoculation
from tests.conftest import CliResult, tree_hash

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
NOTE = Inoculation(pattern="cache GitHub OAuth results in Redis for an hour",
                   evidence="revoked grants kept working", abandonment_reason="unsafe",
                   do_not_rederive="slow sign-in")
CLAUDE_MD = [("CLAUDE.md", "# Rules\n\nCache GitHub OAuth results in Redis for an hour.\n")]


def test_distinct_fields_and_no_conflict_pass() -> None:
    assert inoculation_problem(NOTE, [("CLAUDE.md", "# Rules\n\nUse tabs in Go files.\n")]) \
        is None


def test_one_sentence_pasted_into_every_field_is_refused() -> None:
    same = Inoculation("it broke", "it broke", "It  broke", "it broke")
    assert "all the same text" in str(inoculation_problem(same, []))
    assert "needs text" in str(inoculation_problem(Inoculation("a", " ", "c", "d"), []))


def test_a_note_against_what_claude_md_prescribes_is_refused() -> None:
    problem = inoculation_problem(NOTE, CLAUDE_MD)
    assert problem is not None and "CLAUDE.md line 3 still prescribes" in problem


def test_the_inoculate_command_refuses_it_and_writes_nothing(
        cli: Cli, demo_memory: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "CLAUDE.md").write_text(CLAUDE_MD[0][1])
    before = tree_hash(demo_memory)
    result = cli("inoculate", "project_token_cache_abandoned.md", "--memory-dir", demo_memory,
                 "--pattern", NOTE.pattern, "--evidence", "e", "--reason", "r",
                 "--do-not-rederive", "d", "--now", NOW, "--repo", project)
    assert result.code == 4 and "still prescribes" in result.err
    assert tree_hash(demo_memory) == before


@pytest.mark.usefixtures("trust_all")  # so `run --yes` would withdraw and inoculate it
def test_run_yes_leaves_that_inoculation_pending_and_says_why(
        cli: Cli, demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(demo_repo, repo, symlinks=True)
    (repo / "CLAUDE.md").write_text("In April 2026 GitHub OAuth results were cached in Redis "
                                    "for an hour to make sign-in faster.\n")
    result = cli("run", demo_memory, "--repo", repo, "--yes", "--now", NOW,
                 "--snapshot-dir", tmp_path / "snaps")
    assert result.code == 0, result.err
    assert (demo_memory / "project_token_cache_abandoned.md").exists()
    said = " ".join(result.out.split())
    assert "project_token_cache_abandoned.md: not inoculated: CLAUDE.md line 1" in said
