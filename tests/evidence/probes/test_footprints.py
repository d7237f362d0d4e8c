"""A tool the project dropped: the last of its files gone from the repo since the memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.probes.base import Verdict
from prune_memory.evidence.probes.footprints import FootprintProbe
from prune_memory.model import FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

WRITTEN = "2026-01-10T00:00:00+00:00"


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({".travis.yml": "language: python\n", "Dockerfile": "FROM python\n",
                ".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs -text\n",
                "app.py": "print(1)\n"}).commit("start")
    repo.rm(".travis.yml").write({".gitattributes": "*.bin -text\n"}).commit(
        "Replace Git LFS with gzip artifacts; CI moves off Travis",
        date="2026-02-01T12:00:00+00:00")
    return repo


def run(repo: GitRepo, *entries: object) -> StalenessReport:
    return probe_staleness(memdir(*entries), repo.root, NOW, Config(),  # type: ignore[arg-type]
                           probes=[FootprintProbe()])


def test_a_memory_about_a_dropped_tool_names_the_commit(repo: GitRepo) -> None:
    travis = entry("reference_ci.md", "Builds run on each push.\n", written=WRITTEN,
                   description="CI runs on Travis CI")
    lfs = entry("feedback_git_lfs_push.md", "Push large models with git lfs push first.\n",
                written=WRITTEN)
    report = run(repo, travis, lfs)
    (ci,) = report.findings["reference_ci.md"]
    assert ci.code is FindingCode.VERSION_DRIFT and ci.evidence["kind"] == "tool-dropped"
    assert ci.evidence["path"] == "`.travis.yml`" and ci.evidence["date"] == "2026-02-01"
    assert ci.evidence["central"] is True
    (gone,) = report.findings["feedback_git_lfs_push.md"]
    assert gone.evidence["tool"] == "Git LFS" and "filter=lfs" in gone.message


def test_a_tool_still_in_use_or_never_used_proves_nothing(repo: GitRepo) -> None:
    report = run(repo, entry("a.md", "Build the image with Docker; deploy on Heroku.\n",
                             written=WRITTEN))
    assert report.findings["a.md"] == ()
    assert [(c.text, c.verdict) for c in report.claims["a.md"]] == [
        ("Docker", Verdict.CONFIRMED)]


def test_a_tool_dropped_before_the_memory_may_be_its_history(repo: GitRepo) -> None:
    report = run(repo, entry("a.md", "We left Travis for Actions.\n",
                             written="2026-03-01T00:00:00+00:00"))
    assert report.findings["a.md"] == ()
