"""Totals in prose are recounted only where the noun points at one countable thing in the
repo; a differing total is an update for a person to accept, never a failed entry."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.probes.base import Verdict
from prune_memory.evidence.probes.prosecounts import ProseCountProbe
from prune_memory.model import Action, Fidelity, FindingCode
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.conftest import topic, write_tree
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

COMPOSE = """services:
  api: {image: "api:1"}
  worker: {image: "api:1"}
  db: {image: "postgres:16"}
  cache: {image: "redis:7"}
volumes:
  data: {}
"""


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"docker-compose.yml": COMPOSE,
                ".github/workflows/ci.yml": "on: push\n",
                ".github/workflows/release.yaml": "on: tag\n",
                "src/plugins/audio/main.py": "", "src/plugins/video/main.py": "",
                "src/plugins/text/main.py": "", "docs/guides/a.md": "", "lib/guides/b.md": ""})
    repo.commit("start")
    return repo


def run(repo: GitRepo, body: str) -> StalenessReport:
    report = probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config(),
                             probes=[ProseCountProbe()])
    # the inferred claims stay unverifiable: the one note that says so is not under test
    kept = {file: tuple(f for f in found if f.code is not FindingCode.UNVERIFIABLE)
            for file, found in report.findings.items()}
    return dataclasses.replace(report, findings=kept)


def test_compose_services_are_recounted(repo: GitRepo) -> None:
    report = run(repo, "Locally the stack runs 3 services behind one proxy.\n")
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.COUNT_DRIFT
    assert (finding.evidence["memory_says"], finding.evidence["repo_says"]) == (3, 4)
    assert finding.evidence["inferred"] is True
    assert "services defined in `docker-compose.yml`" in finding.message
    assert finding.proposed_text == "Locally the stack runs 4 services behind one proxy.\n"
    # an inferred rule is not a measurement: the claim stays unverifiable, nothing fails
    assert [c.verdict for c in report.claims["a.md"]] == [Verdict.UNVERIFIABLE]
    assert report.fidelity["a.md"] is Fidelity.UNVERIFIABLE


def test_words_the_count_probe_cannot_answer_are_tried_here(repo: GitRepo) -> None:
    (finding,) = run(repo, "Compose has 9 services.\n").findings["a.md"]
    assert finding.evidence["repo_says"] == 4
    # `.github/workflows/` answers "has N workflows" for the count probe: left to it
    assert run(repo, "CI has 5 workflows.\n").claims["a.md"] == ()


def test_workflows_and_a_unique_directory(repo: GitRepo) -> None:
    assert run(repo, "Two workflows run on every push.\n").findings["a.md"] == ()
    assert run(repo, "Two workflows run on every push.\n").claims["a.md"][0].verdict \
        is Verdict.CONFIRMED
    (finding,) = run(repo, "The player loads 5 plugins at start.\n").findings["a.md"]
    assert finding.evidence["repo_says"] == 3
    assert "src/plugins/" in finding.message


@pytest.mark.parametrize("body", [
    "We added 2 services last sprint.",  # a change, not a total
    "Each of the 9 services logs to stdout.",  # 'of the' … a part
    "There are 7 guides for new hires.",  # two directories called guides: ambiguous
    "Answers take 3 seconds.",  # nothing in the repo is called that
    "## Phase 1 (done)\n\n- 5 plugins: audio, video, text, maps, chat",  # one phase's part
    "Sprint 2 shipped 5 plugins for the player.",  # what was done then
    "The free plan gives 5 plugins/month.\n\nWhy 5 plugins free: enough to try it.",  # a rate
    "Two plugins (audio, video) crash on resume.",  # the ones it names, not all there are
    "Five plugins:\n- audio (TBD)\n- video (TBD)",  # the list it opens
    "7 plugins refactored to the new loader.",  # what one piece of work touched
])
def test_no_rule_or_no_total_means_no_claim(repo: GitRepo, body: str) -> None:
    report = run(repo, body + "\n")
    assert report.findings["a.md"] == () and report.claims["a.md"] == ()


def test_the_pass_proposes_an_update_never_a_withdrawal(repo: GitRepo, tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Stack](stack.md) — local stack\n",
        "stack.md": topic("stack", "Locally the stack runs 3 services behind one proxy.",
                          extra="modified: 2026-11-01T00:00:00Z\n"),
    })
    plan = build_plan(root, PassOptions(repo=repo.root, now=datetime(2026, 11, 29, tzinfo=UTC)))
    planned = plan.entry("stack.md")
    assert planned is not None and planned.action is Action.REVIEW
    assert planned.suggested_action is Action.UPDATE
    assert planned.proposed_text == "Locally the stack runs 4 services behind one proxy."
