"""count-drift (enums): a memory's list or count of an enum's members against the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.probes.enumdefs import enum_definitions
from prune_memory.evidence.probes.enums import EnumProbe, enum_claims
from prune_memory.model import Fidelity
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

SOURCES = {
    "Config.cs": "namespace App {\n    public enum Stage\n    {\n        [Obsolete] Local = 0,\n"
                 "        Tailnet, // phones\n        Dev\n    }\n}\n",
    "Color.java": "public enum Color {\n    RED(\"r\"), GREEN(\"g\");\n    private final "
                  "String code;\n    Color(String code) { this.code = code; }\n}\n",
    "mode.ts": "export enum Mode {\n  Fast = \"fast\",\n  Safe = \"safe\",\n}\n",
    "shape.rs": "pub enum Shape {\n    Dot,\n    Line(u8, u8),\n    Box { w: u32, h: u32 },\n}\n",
    "Dir.swift": "enum Dir: String {\n    case north = \"n\"\n    case south, east\n}\n",
    "state.py": "from enum import Enum\n\n\nclass Phase(str, Enum):\n    DRAFT = \"draft\"\n"
                "    LIVE = \"live\"\n\n    def label(self) -> str:\n        x = 1\n"
                "        return self.value\n\n\nTOP = 1\n",
    "Kind.kt": "enum class Kind(val id: Int) {\n    ONE(1), TWO(2)\n}\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(SOURCES).commit("Add the enums")
    return repo


def test_definitions_in_each_language_are_read_with_their_members(repo: GitRepo) -> None:
    found = enum_definitions(repo.root, ["Stage", "Color", "Mode", "Shape", "Dir", "Phase",
                                         "Kind", "Missing"])
    assert {name: d.members for name, d in found.items()} == {
        "Stage": ("Local", "Tailnet", "Dev"), "Color": ("RED", "GREEN"),
        "Mode": ("Fast", "Safe"), "Shape": ("Dot", "Line", "Box"),
        "Dir": ("north", "south", "east"), "Phase": ("DRAFT", "LIVE"), "Kind": ("ONE", "TWO")}
    assert (found["Stage"].path, found["Stage"].line) == ("Config.cs", 2)


@pytest.mark.parametrize("setting", [("grep.column", "true"), ("color.grep", "always"),
                                     ("grep.lineNumber", "false"), ("core.quotePath", "true")])
def test_a_users_grep_settings_change_nothing(repo: GitRepo, setting: tuple[str, str]) -> None:
    names = ["Stage", "Color", "Mode", "Shape", "Dir", "Phase", "Kind"]
    before = enum_definitions(repo.root, names)
    repo.git("config", *setting)
    assert enum_definitions(repo.root, names) == before


def test_an_enum_defined_twice_gives_no_answer(repo: GitRepo) -> None:
    repo.write({"other/Config.cs": "enum Stage { A, B }\n"}).commit("a second Stage")
    assert "Stage" not in enum_definitions(repo.root, ["Stage"])


@pytest.mark.parametrize(("text", "name", "listed", "count"), [
    ("- `Stage` enum: Local, Dev\n", "Stage", ("Local", "Dev"), None),
    ("The enum `Mode` has values `Fast` and `Safe`.", "Mode", ("Fast", "Safe"), None),
    ("The `Stage` enum has three values:\n", "Stage", (), 3),
    ("`Dir` enum: north / south / east", "Dir", ("north", "south", "east"), None),
])
def test_claims_are_read_as_written(text: str, name: str, listed: tuple[str, ...],
                                    count: int | None) -> None:
    (claim,) = enum_claims(text)
    assert (claim.name, claim.listed, claim.count) == (name, listed, count)


@pytest.mark.parametrize("text", [
    "`Stage` enum: e.g. Local, Dev\n", "`Stage` enum: Local, Dev, etc.\n",
    "`Stage` enum: Local, Dev, …\n", "The `Stage` enum lives in Config.cs\n",
])
def test_partial_lists_and_mere_mentions_are_not_claims(text: str) -> None:
    assert enum_claims(text) == []


def run(repo: GitRepo, body: str) -> StalenessReport:
    return probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config(),
                           probes=[EnumProbe()])


def test_a_member_the_list_lacks_is_drift_with_a_correction(repo: GitRepo) -> None:
    report = run(repo, "Servers:\n- `Stage` enum: Local, Dev\n")
    (found,) = report.findings["a.md"]
    assert "`Config.cs`:2 has Local, Tailnet, Dev (not listed: Tailnet)" in found.message
    assert "last changed in" in found.message and found.evidence["commit"]
    assert report.proposed_text["a.md"] == "Servers:\n- `Stage` enum: Local, Tailnet, Dev\n"
    assert report.fidelity["a.md"] is Fidelity.FAILED


def test_a_member_gone_from_the_code_is_named(repo: GitRepo) -> None:
    report = run(repo, "`Mode` enum: `Fast`, `Safe`, `Turbo`.\n")
    (found,) = report.findings["a.md"]
    assert "no longer members: Turbo" in found.message
    assert "a.md" not in report.proposed_text  # backticked members: a person rewrites it


def test_a_right_list_and_a_right_count_confirm(repo: GitRepo) -> None:
    report = run(repo, "`Shape` enum: Dot, Line, Box.\nThe `Stage` enum has 3 members.\n")
    assert report.findings["a.md"] == ()
    assert report.fidelity["a.md"] is Fidelity.HIGH


def test_a_wrong_count_is_drift(repo: GitRepo) -> None:
    (found,) = run(repo, "The `Phase` enum has four states.\n").findings["a.md"]
    assert "says `Phase` has 4 members; `state.py`:4 has 2" in found.message
