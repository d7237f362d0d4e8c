"""The hooks as Claude Code runs them: a fresh process, JSON on stdin, an answer on stdout."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prune_memory.claude.hooks import entry, gatelog
from tests.claude.conftest import ORDINARY, TOKEN, bash, edit, run_hook, write


def problems() -> list[dict[str, str]]:
    path = gatelog.log_path()
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_strict_gate_denies_a_token_in_a_real_process(memory_dir: Path) -> None:
    done = run_hook("gate", "--mode", "strict",
                    stdin=write(memory_dir / "a.md", f"token: {TOKEN}\n"))
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "github-token ghp_…" in answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert TOKEN.encode() not in done.stdout + done.stderr


def test_the_environment_chooses_the_mode_when_the_flag_is_absent(memory_dir: Path) -> None:
    payload = write(memory_dir / "a.md", f"token: {TOKEN}\n")
    warned = run_hook("gate", stdin=payload, env={"PRUNE_MEMORY_GATE": "warn"})
    assert "additionalContext" in json.loads(warned.stdout)["hookSpecificOutput"]
    off = run_hook("gate", stdin=payload, env={"PRUNE_MEMORY_GATE": "off"})
    assert (off.returncode, off.stdout) == (0, b"")
    flag_wins = run_hook("gate", "--mode=strict", stdin=payload,
                         env={"PRUNE_MEMORY_GATE": "off"})
    assert b'"deny"' in flag_wins.stdout


def test_ordinary_memory_and_other_writes_get_no_answer(tmp_path: Path, memory_dir: Path) -> None:
    for payload in (edit(memory_dir / "a.md", ORDINARY), write(tmp_path / "x.md", TOKEN),
                    bash("git status")):
        done = run_hook("gate", stdin=payload)
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert problems() == []


def test_malformed_stdin_is_allowed_and_logged_with_secrets_masked(claude_home: Path) -> None:
    raw = f'{{"tool_name": "Write", "tool_input": {{"content": "{TOKEN}"'.encode()
    done = run_hook("gate", stdin=raw)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    logged = problems()
    assert len(logged) == 1
    assert logged[0]["command"] == "gate"
    assert logged[0]["problem"].startswith("bad payload, allowed")
    assert "github-token ghp_…" in logged[0]["input_start"]
    assert TOKEN not in gatelog.log_path().read_text(encoding="utf-8")
    assert oct(gatelog.log_path().stat().st_mode & 0o777) == "0o600"


def test_unknown_arguments_are_logged_not_fatal(memory_dir: Path) -> None:
    done = run_hook("gate", "--loud", stdin=write(memory_dir / "a.md", f"{TOKEN}\n"))
    assert b'"deny"' in done.stdout
    assert "'--loud'" in problems()[0]["problem"]


def test_a_crash_inside_the_gate_still_allows(monkeypatch: pytest.MonkeyPatch, memory_dir: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def explode(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError(f"boom near {TOKEN}")

    monkeypatch.setattr("prune_memory.claude.hooks.gate.decide", explode)
    monkeypatch.setattr(sys, "stdin", _stdin(write(memory_dir / "a.md", ORDINARY)))
    assert entry.run("gate", []) == 0
    assert capsys.readouterr().out == ""
    logged = problems()[0]
    assert "internal error, allowed" in logged["problem"] and "RuntimeError" in logged["problem"]
    assert TOKEN not in json.dumps(logged)


def test_the_fast_path_never_imports_typer_or_rich(memory_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "prune_memory", "hook", "gate"],
        input=write(memory_dir / "a.md", f"{TOKEN}\n"), capture_output=True,
        env=dict(os.environ), check=True)
    imported = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()}
    assert "prune_memory.claude.hooks.checks" in imported  # the memory path really ran
    assert not {"typer", "rich", "click"} & imported
    assert b'"deny"' in done.stdout


def test_help_still_goes_through_the_full_cli() -> None:
    done = run_hook("gate", "--help", stdin=b"")
    assert done.returncode == 0 and b"Example: prune-memory hook gate" in done.stdout


def test_parse_args_reads_both_spellings() -> None:
    args = entry.parse_args(["--mode", "warn", "--memory-root=/a", "--memory-root", "/b", "-x"])
    assert args == entry.HookArgs("warn", ("/a", "/b"), ("unknown argument '-x' ignored",))


def _stdin(data: bytes) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data))
