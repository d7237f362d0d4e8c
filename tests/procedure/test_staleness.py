"""The staleness stage: fidelity from verdicts, composed fixes, the demo's planted drifts."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import git
import pytest

from prune_memory.config import Config
from prune_memory.evidence.probes.base import Claim, Verdict
from prune_memory.model import Fidelity, FindingCode
from prune_memory.procedure.staleness import grade, probe_staleness
from prune_memory.store.loader import load_memory_dir
from tests.conftest import FIXTURES
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

STALENESS_CODES = {c.value for c in (
    FindingCode.PATH_DRIFT, FindingCode.COUNT_DRIFT, FindingCode.STATE_DRIFT,
    FindingCode.VERSION_DRIFT, FindingCode.NAME_DRIFT, FindingCode.DECISION_REVERSAL,
    FindingCode.UNVERIFIABLE)}
COMPARED_EVIDENCE = ("memory_says", "repo_says", "commit", "date", "subject", "file", "chain")


@pytest.mark.parametrize(("verdicts", "fidelity"), [
    ((), Fidelity.UNVERIFIABLE), ((Verdict.UNVERIFIABLE,), Fidelity.UNVERIFIABLE),
    ((Verdict.CONFIRMED,), Fidelity.HIGH),
    ((Verdict.CONFIRMED, Verdict.UNVERIFIABLE), Fidelity.MEDIUM),
    ((Verdict.CONFIRMED, Verdict.CONTRADICTED), Fidelity.FAILED),
])
def test_grade(verdicts: tuple[Verdict, ...], fidelity: Fidelity) -> None:
    assert grade([Claim("x", "x", v) for v in verdicts]) is fidelity


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"src/auth.py": "def sign(v):\n    return v\n" * 4,
                **{f"skills/s{n}/SKILL.md": "x\n" for n in range(3)}}).commit("start")
    repo.mv("src/auth.py", "src/session.py").write({"skills/s9/SKILL.md": "y\n"}).commit("move")
    return repo


def test_every_known_fix_lands_in_one_proposed_text(repo: GitRepo) -> None:
    body = "Signing is in `src/auth.py`. There are 3 SKILL.md files.\n"
    report = probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config())
    expected = "Signing is in `src/session.py`. There are 4 SKILL.md files.\n"
    assert report.proposed_text["a.md"] == expected
    assert {f.proposed_text for f in report.findings["a.md"]} == {expected}
    assert report.fidelity["a.md"] is Fidelity.FAILED
    json.dumps(report.to_json())


def test_counter_memories_are_not_probed(repo: GitRepo) -> None:
    record = entry("superseded_x.md", "Do not re-derive from `src/auth.py`.\n",
                   memory_type="superseded")
    assert "superseded_x.md" not in probe_staleness(memdir(record), repo.root, NOW,
                                                    Config()).fidelity


def test_without_a_repo_every_entry_with_claims_is_unverifiable(tmp_path: Path) -> None:
    entries = (entry("a.md", "See `src/a.py` and 3 SKILL.md files.\n"),
               entry("b.md", "The user likes short answers.\n"))
    report = probe_staleness(memdir(*entries), tmp_path, NOW, Config())
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.UNVERIFIABLE and "2 claims" in finding.message
    assert report.findings["b.md"] == ()
    assert report.fidelity["a.md"] is report.fidelity["b.md"] is Fidelity.UNVERIFIABLE
    assert report.repo["available"] is False


def count_git_processes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real_execute: Any = git.cmd.Git.execute
    real_popen: Any = subprocess.Popen.__init__

    def execute(self: git.cmd.Git, command: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append("execute " + " ".join(command[:2]))
        return real_execute(self, command, *args, **kwargs)

    def popen(self: Any, args: Any, *rest: Any, **kwargs: Any) -> None:
        words = [str(a) for a in args]
        while len(words) > 1 and words[1].startswith("-"):  # the neutral config before it
            del words[1:3 if words[1] == "-c" else 2]
        seen.append("popen " + " ".join(words[:2]))
        real_popen(self, args, *rest, **kwargs)

    monkeypatch.setattr(git.cmd.Git, "execute", execute)
    monkeypatch.setattr(subprocess.Popen, "__init__", popen)
    return seen


def test_git_processes_do_not_grow_with_the_number_of_memories(
        repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    repo.write({"package.json": '{"name": "a", "devDependencies": {"jest": "^29"}}'}).commit("p")
    repo.write({"package.json": '{"name": "b", "devDependencies": {"vitest": "^1"}}'}).commit("v")
    body = ("`src/auth.py`, 3 SKILL.md files, issue #{n} is open, tests run on Jest, "
            "package a, and `gone/{n}.py`.\n")

    def processes(count: int) -> list[str]:
        entries = [entry(f"m{n}.md", body.format(n=n)) for n in range(count)]
        seen = count_git_processes(monkeypatch)
        report = probe_staleness(memdir(*entries), repo.root, NOW, Config())
        assert len(report.findings) == count
        assert all(report.findings[f"m{n}.md"] for n in range(count))
        monkeypatch.undo()
        return list(seen)

    few, many = processes(3), processes(150)
    assert few == many
    assert [c for c in few if c.startswith("popen")] == [
        "popen git rev-parse", "popen git ls-files", "popen git log", "popen git for-each-ref",
        "popen git cat-file", "popen git check-ignore"]


# The demo: every planted drift found with its evidence, nothing on the clean entries.

@pytest.fixture(scope="module")
def demo_expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "demo-expected.json").read_text())
    return data


def test_demo_planted_drifts_and_clean_entries(demo_repo: Path,
                                               demo_expected: dict[str, Any]) -> None:
    memory = load_memory_dir(FIXTURES / "demo-memory")
    report = probe_staleness(memory, demo_repo, NOW, Config())
    for spec in demo_expected["entries"]:
        file = spec["file"]
        codes = {f.code.value for f in report.findings.get(file, ())}
        wanted = set(spec["findings"]) & STALENESS_CODES
        allowed = set(spec["findings"]) | set(spec["findings_optional"])
        assert wanted <= codes, (file, codes)
        assert codes <= allowed, (file, codes)
        for code in wanted:
            finding = next(f for f in report.findings[file] if f.code.value == code)
            _check_evidence(file, finding.evidence, spec.get("evidence", {}))
            text = finding.proposed_text or ""
            assert all(s in text for s in spec.get("proposed_text_contains", ())), file
            assert not any(s in text for s in spec.get("proposed_text_lacks", ())), file
            if spec.get("proposed_text_absent"):
                assert finding.proposed_text is None, file


def _check_evidence(file: str, mine: dict[str, Any], expected: dict[str, Any]) -> None:
    for key in COMPARED_EVIDENCE:
        if key not in expected:
            continue
        if key == "chain":
            hops = [{k: hop[k] for k in ("from", "to", "commit", "date", "subject")}
                    for hop in mine["chain"]]
            assert hops == expected["chain"], file
        else:
            assert mine[key] == expected[key], (file, key, mine[key])
