"""Compression loss: a short decision memory whose source commit gave a reason it dropped."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.gitrepo import read_repo_facts
from prune_memory.evidence.probes.compression import CommitIndex, CompressionProbe
from prune_memory.model import FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

WHY = ("Switch the importer queue to Postgres advisory locks\n\n"
       "Redis locks expired during long imports because the TTL was shorter than the "
       "slowest batch, so two workers processed the same file.")


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    for n in range(12):
        repo.write({f"f{n}.txt": str(n)}).commit(f"Routine change {n}")
    repo.write({"importer.py": "lock = 'pg'\n"}).commit(WHY)
    return repo


def run(repo: GitRepo, body: str) -> StalenessReport:
    return probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config(),
                           probes=[CompressionProbe()])


def test_a_summary_that_kept_the_topic_but_not_the_reason(repo: GitRepo) -> None:
    (finding,) = run(repo, "Decided: the importer uses Postgres advisory locks.\n"
                     ).findings["a.md"]
    assert finding.code is FindingCode.LOW_UTILITY
    assert finding.evidence["kind"] == "compression-loss"
    assert finding.evidence["subject"] == "Switch the importer queue to Postgres advisory locks"
    assert finding.evidence["reason"].startswith("Redis locks expired during long imports")
    assert {"advisory", "importer"} <= set(finding.evidence["key_terms"])


@pytest.mark.parametrize("body", [
    # the memory kept the reason
    "Decided: the importer uses Postgres advisory locks because Redis locks expired.\n",
    # not a decision or a pattern
    "The importer lives in importer.py.\n",
    # a decision the history does not discuss
    "Decided: release notes are written by hand.\n",
])
def test_nothing_lost_or_nothing_to_compare(repo: GitRepo, body: str) -> None:
    assert run(repo, body).findings["a.md"] == ()


def test_a_message_without_a_reason_loses_nothing(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"a.txt": "1"}).commit("Adopt advisory locks in the importer")
    assert run(repo, "Decided: the importer uses advisory locks.\n").findings["a.md"] == ()


def test_the_search_runs_on_the_one_log_pass_alone(repo: GitRepo) -> None:
    facts = read_repo_facts(repo.root)
    assert len(CommitIndex.build(facts.commits).commits) == 13
    shutil.rmtree(repo.root)  # no git call can succeed from here on
    report = probe_staleness(memdir(entry("a.md", "Decided: the importer uses Postgres "
                                                  "advisory locks.\n")),
                             None, NOW, Config(), facts=facts, probes=[CompressionProbe()])
    assert [f.evidence["kind"] for f in report.findings["a.md"]] == ["compression-loss"]
