"""state-drift: an issue or PR called open that a commit closed or merged."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.probes.base import Verdict
from prune_memory.evidence.probes.states import StateProbe, open_claims
from prune_memory.model import Fidelity, FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"a.py": "1\n"}).commit("start")
    return repo


def run(repo: GitRepo, body: str) -> StalenessReport:
    return probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config(),
                           probes=[StateProbe()])


def test_closing_commit_contradicts_an_open_issue(repo: GitRepo) -> None:
    sha = repo.write({"a.py": "2\n"}).commit("Fix expiry behind the proxy (closes #42)",
                                             "2026-10-14T10:00:00+00:00")
    report = run(repo, "Issue #42 is still open: sessions expire early.\n")
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.STATE_DRIFT
    assert finding.evidence["memory_says"] == "Issue #42 is still open"
    assert (finding.evidence["commit"], finding.evidence["date"]) == (sha, "2026-10-14")
    assert finding.evidence["repo_says"] == "closed" and finding.proposed_text is None
    assert report.fidelity["a.md"] is Fidelity.FAILED


@pytest.mark.parametrize("message", ["Resolve #7 and #8", "fixes: #8", "Closed #9, #8"])
def test_closing_keywords_and_lists(repo: GitRepo, message: str) -> None:
    repo.write({"a.py": "3\n"}).commit(message)
    (finding,) = run(repo, "Currently debugging #8.\n").findings["a.md"]
    assert finding.evidence["reference"] == "issue #8"


def test_merged_pull_request(repo: GitRepo) -> None:
    repo.write({"a.py": "4\n"}).commit("Add the widget (#12)")
    (finding,) = run(repo, "PR #12 is pending review.\n").findings["a.md"]
    assert finding.evidence["repo_says"] == "merged"


def test_no_closing_commit_leaves_the_claim_unverifiable(repo: GitRepo) -> None:
    report = run(repo, "Issue #99 is in progress.\n")
    assert [f.code for f in report.findings["a.md"]] == [FindingCode.UNVERIFIABLE]
    assert [c.verdict for c in report.claims["a.md"]] == [Verdict.UNVERIFIABLE]


def test_sentences_that_say_it_is_done_are_not_open_claims() -> None:
    assert list(open_claims("Issue #42 was fixed last week. See #43 for the log.")) == []
    assert [c.number for c in open_claims("#5 is not fixed yet.")] == [5]


def test_work_called_not_committed_that_git_has_is_a_stale_status(repo: GitRepo) -> None:
    repo.write({"agent/window_flash.py": "def flash():\n    pass\n",
                "agent/views.py": "x = 1\n"}).commit("Flash the taskbar",
                                                      "2026-06-02T10:00:00+00:00")
    body = ("**Implementation** (source edits, NOT committed): `window_flash.py` holds "
            "`flash()`; `agent/views.py` calls it.\n")
    report = run(repo, body)
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.STATE_DRIFT
    assert finding.evidence["kind"] == "uncommitted-status"
    assert finding.evidence["files"] == ["agent/views.py", "agent/window_flash.py"]
    assert finding.evidence["date"] == "2026-06-02"
    assert "NOT committed" in finding.message


@pytest.mark.parametrize("body", [
    # much of what it names is not in git: it may well still be uncommitted
    "Not committed: `new/one.py`, `new/two.py` and `a.py`.\n",
    # a rule about uncommitted work in general, not a status
    "Other sessions may hold uncommitted edits in `a.py`; never reset the tree.\n",
])
def test_no_stale_status_without_the_files_or_the_status(repo: GitRepo, body: str) -> None:
    assert run(repo, body).findings["a.md"] == ()
