"""name-drift: old project and package names from the manifests' history and the remote."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.probes.names import NameProbe
from prune_memory.model import FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir


def pyproject(name: str) -> str:
    return f'[project]\nname = "{name}"\nversion = "1.0"\n'


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("pebble-api"),
                "package.json": '{"name": "pebble-web"}\n'}).commit("start")
    repo.write({"pyproject.toml": pyproject("cairn-api"),
                "package.json": '{"name": "cairn-web"}\n'}).commit(
        "Rename the project", "2026-05-18T09:00:00+00:00")
    repo.git("remote", "add", "origin", "https://github.com/demo-org/cairn.git")
    return repo


def run(repo: GitRepo, body: str) -> StalenessReport:
    return probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config(),
                           probes=[NameProbe()])


def test_old_package_names_in_one_finding(repo: GitRepo) -> None:
    report = run(repo, "Published as pebble-api and pebble-web.\n")
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.NAME_DRIFT
    assert finding.evidence["memory_says"] == ["pebble-api", "pebble-web"]
    assert finding.evidence["repo_says"] == ["cairn-api", "cairn-web"]
    assert finding.evidence["date"] == "2026-05-18"
    assert finding.proposed_text == "Published as cairn-api and cairn-web.\n"


def test_the_renamed_word_and_an_old_repo_link(repo: GitRepo) -> None:
    body = "Pebble keeps its issues at https://github.com/demo-org/pebble/issues.\n"
    (finding,) = run(repo, body).findings["a.md"]
    assert finding.proposed_text == \
        "Cairn keeps its issues at https://github.com/demo-org/cairn/issues.\n"
    assert finding.evidence["remote"] == "github.com/demo-org/cairn"


def test_a_rename_record_is_history(repo: GitRepo) -> None:
    body = "The project was renamed from pebble to cairn; pebble-api became cairn-api.\n"
    assert run(repo, body).findings["a.md"] == ()


def test_current_names_and_lookalikes_are_fine(repo: GitRepo) -> None:
    assert run(repo, "cairn-api ships with pebbles-of-code and mypebble.\n").claims["a.md"] == ()


def test_generic_subpackage_names_are_not_old_names(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "mono")
    repo.write({"packages/web/package.json": '{"name": "web"}\n'}).commit("start")
    repo.write({"packages/web/package.json": '{"name": "frontend"}\n'}).commit("rename")
    report = run(repo, "The web client talks to the API.\n")
    assert report.claims["a.md"] == () and report.findings["a.md"] == ()
