"""decision-reversal: SUPERSEDED records and later memories that override a decision."""

from __future__ import annotations

from pathlib import Path

from prune_memory.config import Config
from prune_memory.evidence.probes.decisions import DecisionProbe
from prune_memory.model import Fidelity, FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

MARCH = entry("errors_march.md", "Decision: errors are problem details, built by "
              "`api/errors.py`.\n", name="errors-march", written="2026-03-25T09:00:00+00:00")


def run(*entries: object, repo: Path | None = None) -> StalenessReport:
    return probe_staleness(memdir(*entries), repo, NOW, Config(),  # type: ignore[arg-type]
                           probes=[DecisionProbe()])


def test_a_later_memory_that_replaces_it_by_name() -> None:
    august = entry("errors_august.md", "Errors are a flat envelope. This replaces "
                   "[[errors-march]].\n", written="2026-08-26T10:00:00+00:00")
    report = run(MARCH, august)
    (finding,) = report.findings["errors_march.md"]
    assert finding.code is FindingCode.DECISION_REVERSAL
    assert finding.related == ("errors_august.md",)
    assert finding.evidence["overridden_on"] == "2026-08-26"
    assert report.findings["errors_august.md"] == ()
    assert report.fidelity["errors_march.md"] is Fidelity.UNVERIFIABLE  # not a wrong fact


def test_the_repo_commit_between_the_two_dates_is_evidence(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"api/errors.py": "problem = 1\n"}).commit("add", "2026-03-24T09:00:00+00:00")
    sha = repo.write({"api/errors.py": "envelope = 1\n"}).commit(
        "Flat error envelope", "2026-08-25T09:00:00+00:00")
    august = entry("errors_august.md", "`api/errors.py` builds an envelope now; it "
                   "supersedes [errors](errors_march.md).\n", written="2026-08-26T10:00:00+00:00")
    (finding,) = run(MARCH, august, repo=repo.root).findings["errors_march.md"]
    assert finding.evidence["commit"] == sha
    assert "the repo agrees" in finding.message


def test_an_earlier_memory_never_overrides_a_later_one() -> None:
    older = entry("errors_old.md", "This replaces [[errors-march]].\n",
                  written="2026-01-01T00:00:00+00:00")
    assert run(MARCH, older).findings["errors_march.md"] == ()


def test_a_superseded_record_pointing_at_the_entry() -> None:
    record = entry("superseded_cache.md", "SUPERSEDED 2026-05-12\nPattern: token cache\n"
                   "Supersedes: errors_march.md\n", memory_type="superseded")
    report = run(MARCH, record)
    (finding,) = report.findings["errors_march.md"]
    assert finding.evidence["inoculated"] is True
    assert "superseded_cache.md" not in report.findings  # records are not probed


def test_switched_from_x_to_y_needs_a_decision_for_x() -> None:
    decided = entry("queue.md", "We decided to use SQLite for the job queue.\n",
                    written="2026-02-01T00:00:00+00:00")
    mentioned = entry("notes.md", "SQLite is handy for local experiments.\n",
                      written="2026-02-01T00:00:00+00:00")
    switch = entry("move.md", "We moved the job queue from SQLite to Postgres.\n",
                   written="2026-08-12T00:00:00+00:00")
    report = run(decided, mentioned, switch)
    (finding,) = report.findings["queue.md"]
    assert "from SQLite to Postgres" in finding.evidence["how"]
    assert report.findings["notes.md"] == ()
