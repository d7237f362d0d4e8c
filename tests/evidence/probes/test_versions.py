"""version-drift: a tool that left the manifests, and a version that moved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.probes.base import Verdict
from prune_memory.evidence.probes.versions import VersionProbe
from prune_memory.model import Fidelity, FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir


def package_json(dev: dict[str, str]) -> str:
    return json.dumps({"name": "web", "devDependencies": dev}, indent=2) + "\n"


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"package.json": package_json({"jest": "^29.7.0", "react": "^17.0.2"}),
                "pyproject.toml": '[project]\nname = "api"\nrequires-python = ">=3.11"\n'
                                  'dependencies = ["fastapi>=0.110"]\n',
                ".python-version": "3.12.4\n"})
    repo.commit("start")
    return repo


def run(repo: GitRepo, body: str) -> StalenessReport:
    return probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config(),
                           probes=[VersionProbe()])


def test_test_runner_swap_names_the_replacement(repo: GitRepo) -> None:
    sha = repo.write({"package.json": package_json({"vitest": "^1.6.0", "react": "^17.0.2"})}
                     ).commit("Switch to Vitest", "2026-07-07T10:00:00+00:00")
    report = run(repo, "Unit tests run on Jest.\n")
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.VERSION_DRIFT
    assert finding.evidence["repo_says"] == "vitest" and finding.evidence["commit"] == sha
    assert "replaced by `vitest`" in finding.message
    assert finding.proposed_text == "Unit tests run on Vitest.\n"
    assert report.fidelity["a.md"] is Fidelity.FAILED


def test_a_tool_that_left_without_successor_proves_nothing(repo: GitRepo) -> None:
    """A package leaving a manifest names no replacement: the memory may mean the service
    (a Redis server) rather than the client library, so nothing is claimed stale."""
    repo.write({"package.json": package_json({"react": "^17.0.2"})}).commit("drop jest")
    report = run(repo, "We use jest for unit tests.\n")
    assert [f.code.value for f in report.findings["a.md"]] == ["unverifiable"]
    (claim,) = report.claims["a.md"]
    assert "no successor named" in claim.note


def test_a_version_that_moved(repo: GitRepo) -> None:
    sha = repo.write({"package.json": package_json({"jest": "^29.7.0", "react": "^18.2.0"})}
                     ).commit("Upgrade React")
    (finding,) = run(repo, "The client is on React 17 still.\n").findings["a.md"]
    assert finding.evidence["commit"] == sha and finding.evidence["repo_says"] == "^18.2.0"
    assert finding.proposed_text == "The client is on React 18 still.\n"


@pytest.mark.parametrize("written", ["React.js", "ReactJS", "react.js"])
def test_a_package_named_the_js_way_is_the_package(repo: GitRepo, written: str) -> None:
    repo.write({"package.json": package_json({"jest": "^29.7.0", "react": "^18.2.0"})}
               ).commit("Upgrade React")
    (finding,) = run(repo, f"The client is on {written} 17 still.\n").findings["a.md"]
    assert finding.proposed_text == f"The client is on {written} 18 still.\n"


def test_runtime_versions_against_the_pinned_file(repo: GitRepo) -> None:
    report = run(repo, "The API runs on Python 3.10 with FastAPI.\n")
    (finding,) = report.findings["a.md"]
    assert finding.evidence["file"] == ".python-version"
    assert finding.proposed_text == "The API runs on Python 3.12 with FastAPI.\n"
    assert run(repo, "The API runs on Python 3.12.\n").findings["a.md"] == ()


def test_current_tools_confirm(repo: GitRepo) -> None:
    report = run(repo, "Tests use Jest; the UI is React 17 on Python 3.\n")
    assert report.findings["a.md"] == ()
    assert {c.verdict for c in report.claims["a.md"]} == {Verdict.CONFIRMED}


def test_history_and_negation_are_not_claims(repo: GitRepo) -> None:
    repo.write({"package.json": package_json({"vitest": "^1.6.0"})}).commit("swap")
    for body in ("We switched from Jest to Vitest in July.\n", "Do not bring Jest back.\n",
                 "Unit tests used to be on Jest; Vitest now.\n"):
        assert run(repo, body).findings["a.md"] == (), body


def test_no_manifest_no_claim(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "bare")
    repo.write({"main.go": "package main\n"}).commit("start")
    assert run(repo, "Tests run on Jest 29.\n").claims["a.md"] == ()


def test_a_framework_named_by_its_scope_has_its_core_packages_version(repo: GitRepo) -> None:
    """`Capacitor 7` means `@capacitor/core`; the bare word, with no version, claims
    nothing (a capacitor is also a part)."""
    repo.write({"package.json": package_json({"@capacitor/core": "^8.2.0",
                                              "@capacitor/share": "^8.0.1"})}
               ).commit("Capacitor 8", "2026-07-07T10:00:00+00:00")
    (finding,) = run(repo, "The Android app is built with Capacitor 7.\n").findings["a.md"]
    assert finding.code is FindingCode.VERSION_DRIFT
    assert "says Capacitor 7 but package.json declares '^8.2.0'" in finding.message
    [claim] = run(repo, "The app is built with Capacitor 8.\n").claims["a.md"]
    assert claim.verdict is Verdict.CONFIRMED
    assert run(repo, "A capacitor smooths the supply.\n").claims.get("a.md", ()) == ()


def test_a_tally_after_a_tool_name_is_no_version(repo: GitRepo) -> None:
    """"jest 0 failures", "React 2 warnings": what a run reported, not the tool's version."""
    repo.write({"package.json": package_json({"jest": "^29.7.0", "react": "^18.2.0"})}
               ).commit("Upgrade React")
    report = run(repo, "Verified: jest 0 failures, React 2 warnings, 5 tests pass.\n")
    assert report.findings["a.md"] == ()
