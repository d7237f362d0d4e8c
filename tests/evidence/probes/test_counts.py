"""count-drift: built-in count rules, user rules, and the commit where a count changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import parse_config
from prune_memory.evidence.probes.base import Verdict
from prune_memory.evidence.probes.countrules import builtin_claims
from prune_memory.evidence.probes.counts import CountProbe
from prune_memory.model import Fidelity, FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    skills = {f"skills/{d}/{s}/SKILL.md": f"{s}\n" for d in ("ops", "dev")
              for s in ("a", "b", "c")}
    agents = {f"agents/{n}.md": f"{n}\n" for n in ("planner", "coder", "reviewer")}
    repo.write({**skills, **agents, "agents/README.md": "about\n", "tests/test_a.py": "",
                "tests/test_b.py": "", "tests/data.json": "{}", "migrations/0001.sql": ""})
    repo.commit("start")
    return repo


def run(repo: GitRepo, body: str, config_text: str = "") -> StalenessReport:
    return probe_staleness(memdir(entry("a.md", body)), repo.root, NOW,
                           parse_config(config_text), probes=[CountProbe()])


def test_named_file_count_scoped_to_a_directory(repo: GitRepo) -> None:
    report = run(repo, "skills/ has 6 SKILL.md files.\n")
    assert report.findings["a.md"] == () and report.fidelity["a.md"] is Fidelity.HIGH


def test_drifted_count_gives_the_true_number_how_and_when(repo: GitRepo) -> None:
    sha = repo.write({"skills/ops/d/SKILL.md": "d\n"}).commit("Add skill d")
    report = run(repo, "skills/ has 6 SKILL.md files, one per workflow.\n")
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.COUNT_DRIFT
    assert (finding.evidence["memory_says"], finding.evidence["repo_says"]) == (6, 7)
    assert finding.evidence["counted"] == "tracked files named `SKILL.md` under `skills/`"
    assert finding.evidence["commit"] == sha and finding.evidence["previous"] == 6
    assert finding.proposed_text == "skills/ has 7 SKILL.md files, one per workflow.\n"


def test_files_counted_as_what_they_stand_for_under_a_tail_of_their_directory(
        repo: GitRepo) -> None:
    """A monorepo's memory drops the app folder: `ops/` is the one tracked `skills/ops/`."""
    (finding,) = run(repo, "4 SKILL.md skills live under `ops/`.\n").findings["a.md"]
    assert finding.evidence["repo_says"] == 3
    assert finding.evidence["counted"] == "tracked files named `SKILL.md` under `skills/ops/`"
    # the same noun with no folder is one folder's figure, not the whole repo's
    assert run(repo, "the 4 SKILL.md skills of the ops team\n").claims["a.md"] == ()
    # a number of things inside one file is no count of files
    assert run(repo, "the 4 SKILL.md sections under `ops/`\n").claims["a.md"] == ()


def test_directory_file_counts_and_languages(repo: GitRepo) -> None:
    report = run(repo, "tests/ contains 2 Python files. tests/ has 3 files.\n")
    assert [c.verdict for c in report.claims["a.md"]] == [Verdict.CONFIRMED] * 2
    (finding,) = run(repo, "tests/ contains 5 Python files.\n").findings["a.md"]
    assert finding.evidence["repo_says"] == 2


def test_a_directory_counted_by_its_own_name(repo: GitRepo) -> None:
    report = run(repo, "`migrations/` holds one SQL migration and agents/ has 4 agents.\n")
    verdicts = {c.text: c.verdict for c in report.claims["a.md"]}
    assert verdicts["`migrations/` holds one SQL migration"] is Verdict.CONFIRMED
    (finding,) = report.findings["a.md"]
    assert finding.evidence["repo_says"] == 3  # README is not an agent
    assert "README" in finding.evidence["counted"]


def test_total_of_a_top_level_directory(repo: GitRepo) -> None:
    (finding,) = run(repo, "The project has five agents.\n").findings["a.md"]
    assert finding.evidence["repo_says"] == 3
    assert finding.proposed_text == "The project has 3 agents.\n"


def test_user_rule_from_the_config(repo: GitRepo) -> None:
    config = ('[[count]]\nname = "domains"\npattern = "across (\\\\d+) domains"\n'
              'glob = "skills/*/"\n')
    (finding,) = run(repo, "Skills span across 3 domains.\n", config).findings["a.md"]
    assert finding.evidence["repo_says"] == 2
    assert "rule `domains`" in finding.evidence["counted"]


def test_unmatched_numbers_are_not_claims(repo: GitRepo) -> None:
    body = "Fixed 3 tests, waited 10 minutes, with 2 retries; the 4 files I touched were fine.\n"
    report = run(repo, body)
    assert report.claims["a.md"] == () and report.findings["a.md"] == ()


def test_count_on_a_missing_directory_is_left_to_the_path_probe(repo: GitRepo) -> None:
    assert run(repo, "plugins/ has 3 files.\n").claims["a.md"] == ()


def test_builtin_rules_find_the_number_in_words() -> None:
    (claim,) = builtin_claims("There are twelve `SKILL.md` files.")
    assert (claim.number, claim.spec.arg) == (12, ("SKILL.md",))
