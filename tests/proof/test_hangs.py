"""Nothing a user writes makes the tool hang: the gate answers in its time, the pass ends.

A never-persist rule in `retention-policy.md` (which the gate reads on every tool call) or
a count rule in `.prune-memory.toml` can backtrack without end; 6.9 MB of `password:` lines
kept the gate busy past Claude Code's 10 s hook timeout. User patterns now run with a time
limit (`timedregex`) and the gate checks long texts a piece at a time against its own
clock, refusing (strict) or warning when it cannot finish. The time limits are shrunk here
so each case is quick; an alarm turns any hang into a failure.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.claude.hooks import checks, gate
from prune_memory.claude.hooks.gate import Decision, Mode, decide
from prune_memory.claude.hooks.payload import Candidate
from prune_memory.errors import ExitCode
from prune_memory.matching import timedregex
from prune_memory.secrets.scan import find_spans
from tests.claude.conftest import write
from tests.conftest import CliResult, topic, write_tree
from tests.faults import no_hang
from tests.secrets.corpus import secrets

Cli = Callable[..., CliResult]
SLOW = "(a|aa)+$"  # backtracks without end on a long run of a's that does not end the text
TRAP = "Notes: " + "a" * 4000 + "!\n"


@pytest.fixture(autouse=True)
def short_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timedregex, "LIMIT_SECONDS", 0.3)


def policy(pattern: str) -> str:
    return ("# Policy\n```prune-memory-policy\nversion = 1\n[[never_persist]]\nid = \"slow\"\n"
            f"pattern = {json.dumps(pattern)}\nreason = \"trap\"\ncode = \"noise\"\n```\n")


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    return write_tree(tmp_path / "claude" / "projects" / "-work-app" / "memory", {
        "MEMORY.md": "# Memory\n- [Notes](project_notes.md) — notes\n",
        "project_notes.md": topic("notes", TRAP)})


@pytest.mark.parametrize("mode", [Mode.STRICT, Mode.WARN])
def test_a_runaway_policy_rule_cannot_hold_up_the_gate(memory: Path, mode: Mode) -> None:
    (memory / "retention-policy.md").write_text(policy(SLOW))
    with no_hang(30):
        verdict = decide(write(memory / "project_new.md", TRAP), mode)
    assert verdict.decision is (Decision.DENY if mode is Mode.STRICT else Decision.WARN)
    assert verdict.reason is not None and "not checked to its end" in verdict.reason
    assert "'slow'" in verdict.reason and "simplify it" in verdict.reason


def test_a_runaway_policy_rule_stops_the_pass_with_a_clear_error(cli: Cli, memory: Path) -> None:
    (memory / "retention-policy.md").write_text(policy(SLOW))
    for args in (("plan", memory, "--json"), ("run", memory, "--yes")):
        with no_hang(30):
            done = cli(*args)
        assert done.code == ExitCode.BAD_INPUT, done.err
        assert "rule 'slow'" in done.err and "simplify it" in done.err
    assert not (memory / "deaccessioned").exists()


def test_a_runaway_count_rule_stops_the_pass_with_a_clear_error(cli: Cli, memory: Path,
                                                                tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    config = tmp_path / "config.toml"
    pattern = json.dumps(r"(a|aa)+$(\d+)")
    config.write_text(f'[[count]]\nname = "trap"\npattern = {pattern}\nglob = "*.md"\n')
    with no_hang(30):
        done = cli("plan", memory, "--repo", repo, "--config", config, "--json")
    assert done.code == ExitCode.BAD_INPUT, done.err
    assert "count rule 'trap'" in done.err and "simplify it" in done.err


def test_a_committed_config_with_a_runaway_glob_never_hangs_the_pass(
        cli: Cli, memory: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    trap_glob = "*a" * 14 + "*b"
    (repo / ("a" * 60 + ".md")).write_text("x\n")
    (repo / ".prune-memory.toml").write_text(
        f'[[count]]\nname = "widgets"\npattern = "(\\\\d+) widgets"\nglob = "{trap_glob}"\n')
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qm", "c"], check=True)
    (memory / "project_notes.md").write_text(topic("notes", "We keep 3 widgets."))
    with no_hang(30):  # Python's re needs 30 s for 30 a's here, and doubles per two more
        done = cli("plan", memory, "--repo", repo, "--json")
    if done.code == ExitCode.BAD_INPUT:  # out of time: the rule is named
        assert "count rule 'widgets' (its glob" in done.err and "simplify it" in done.err
    else:  # the time-limited engine found the answer at once
        assert done.code in (ExitCode.OK, ExitCode.FINDINGS), done.err
        assert "repo has 0" in done.out


@pytest.mark.parametrize("mode", [Mode.STRICT, Mode.WARN])
def test_the_gate_stops_at_its_time_and_says_so(memory: Path, monkeypatch: pytest.MonkeyPatch,
                                                mode: Mode) -> None:
    monkeypatch.setattr(gate, "CHECK_SECONDS", 0.0)  # no time at all: not one piece checked
    verdict = decide(write(memory / "project_new.md", "Plain prose.\n" * 40_000), mode)
    assert verdict.decision is (Decision.DENY if mode is Mode.STRICT else Decision.WARN)
    assert verdict.reason is not None and "too long to check in the gate's time" in \
        verdict.reason


def test_many_findings_end_the_check_early(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """500 KB of `password:` lines (two pieces): the verdict is clear after the first."""
    seen: list[int] = []
    real = checks._piece_hits

    def counted(text: str, where: str, rules: checks.Policy | None) -> list[checks.GateHit]:
        seen.append(len(text))
        return real(text, where, rules)

    monkeypatch.setattr(checks, "_piece_hits", counted)
    text = "password: hunter2hunter2\n" * (500_000 // 25)
    verdict = decide(write(memory / "project_new.md", text), Mode.STRICT)
    assert verdict.decision is Decision.DENY and len(seen) == 1
    assert verdict.reason is not None and "- and " in verdict.reason


@pytest.mark.parametrize("mode", [Mode.STRICT, Mode.WARN])
def test_text_past_what_the_gate_reads_is_refused_for_memory_unread(
        memory: Path, monkeypatch: pytest.MonkeyPatch, mode: Mode) -> None:
    monkeypatch.setattr(checks, "_piece_hits", lambda *_: pytest.fail("the text was read"))
    big = "Plain prose.\n" * (gate.MAX_TEXT_CHARS // 13 + 1)
    verdict = decide(write(memory / "project_new.md", big), mode)
    assert verdict.decision is (Decision.DENY if mode is Mode.STRICT else Decision.WARN)
    assert verdict.reason is not None and "more than the gate reads" in verdict.reason
    assert decide(write(memory.parent / "elsewhere.md", big), mode).decision is Decision.ALLOW


LINES = st.sampled_from(["Plain words about the build.", "", "See docs/setup.md first.",
                         *(s.text for s in secrets() if s.value)])


@settings(max_examples=80, deadline=None)
@given(lines=st.lists(LINES, min_size=1, max_size=120), piece=st.integers(1300, 4000))
def test_checking_in_pieces_finds_what_one_pass_finds(lines: list[str], piece: int) -> None:
    text = "\n".join(lines) + "\n"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checks, "PIECE_CHARS", piece)
        patch.setattr(checks, "OVERLAP_CHARS", 1200)  # twice the longest sample
        patch.setattr(checks, "ENOUGH_HITS", 10_000)
        whole = checks.check_texts([Candidate("content", text)], "/nowhere",
                                   policy_rules=False)
    once = checks._piece_hits(text, "content", None)
    assert set(whole.hits) == set(once) and not whole.stopped
    assert sum(1 for hit in once if hit.rule == "secret") == len(find_spans(text))


def test_a_key_across_a_piece_end_is_reported_once_whole_when_the_next_starts_mid_line(
) -> None:
    """The piece after the first starts inside the first line (no line end near its cut),
    yet the middle of the overlap falls lines later: that middle still divides what each
    piece reports, so the key block across the first piece's end is not reported cut short
    as well as whole (hypothesis found this case)."""
    def first(start: str) -> str:
        return next(s.text for s in secrets() if s.value and s.text.startswith(start))

    lines = [first("ANTHROPIC key: sk-ant-api03-ghE"), *["Plain words about the build."] * 4,
             *[first("Deploy bot uses ghp_")] * 4, *[first("Fine-grained PAT:")] * 2,
             first("deploy key:\n-----BEGIN RSA")]
    text = "\n".join(lines) + "\n"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checks, "PIECE_CHARS", 1300)
        patch.setattr(checks, "OVERLAP_CHARS", 1200)
        whole = checks.check_texts([Candidate("content", text)], "/nowhere",
                                   policy_rules=False)
    once = checks._piece_hits(text, "content", None)
    assert len(text) > 1300 and set(whole.hits) == set(once)


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_secret_anywhere_in_one_long_line_is_found(where: str) -> None:
    from tests.claude.conftest import TOKEN

    filler = "filler words with no line end " * 12_000  # 360 KB: two pieces, cut mid-line
    text = {"start": f"{TOKEN} {filler}", "middle": f"{filler[:200_000]} {TOKEN} "
            f"{filler[200_000:]}", "end": f"{filler} {TOKEN}"}[where]
    found = checks.check_texts([Candidate("content", text)], "/nowhere", policy_rules=False)
    assert [hit.rule for hit in found.hits] == ["secret"] and not found.stopped
