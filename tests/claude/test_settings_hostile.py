"""Claude Code's files that install touches: strict JSON back, never a wait, never outside.

Each case used to end in a settings file Claude Code cannot read (`1e400` written back as
`Infinity`), a traceback (a lone surrogate, nesting 100,000 deep), a command blocked
forever on a FIFO, or a write that followed a cloned repository's link out of it.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.claude.hooks.memroots import memory_roots
from prune_memory.errors import ExitCode
from tests.conftest import CliResult, tree_hash
from tests.faults import no_hang

Cli = Callable[..., CliResult]
INSTALL = ("hook", "install", "--user", "--no-check")
UNINSTALL = ("hook", "uninstall", "--user")
HUGE_NESTING = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "claude"
    path.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(path))
    return path


def one_line_refusal(done: CliResult) -> None:
    assert done.code == ExitCode.BAD_INPUT, done.err
    assert len(done.err.strip().splitlines()) == 1 and "Traceback" not in done.err
    assert "nothing changed" in done.err


@pytest.mark.parametrize("text", [
    '{"cleanupPeriodDays": 1e400, "model": "opus"}',
    '{"x": -1e999}',
    '{"x": NaN}', '{"x": Infinity}',
    '{"name": "\\ud800 alone"}',
    '{"\\udfff": 1}',
    '{"deep": ' + HUGE_NESTING + "}",
    HUGE_NESTING,
    '{"x": ' + "9" * 5000 + "}",
])
def test_settings_a_strict_reader_refuses_are_refused_not_rewritten(
        cli: Cli, home: Path, text: str) -> None:
    settings = home / "settings.json"
    settings.write_text(text, encoding="utf-8")
    one_line_refusal(cli(*INSTALL))
    assert settings.read_text(encoding="utf-8") == text
    undone = cli(*UNINSTALL)  # with none of ours to take out, there is nothing to write
    assert undone.code in (ExitCode.OK, ExitCode.BAD_INPUT) and "Traceback" not in undone.err
    assert settings.read_text(encoding="utf-8") == text


def test_what_install_writes_is_strict_json(cli: Cli, home: Path) -> None:
    settings = home / "settings.json"
    settings.write_text('{"big": 1.7976931348623157e308, "n": 123456789012345678901234567890,'
                        ' "s": "caf\\u00e9 \\ud83d\\ude00"}')
    assert cli(*INSTALL).code == 0
    data = json.loads(settings.read_text(encoding="utf-8"),
                      parse_constant=lambda name: pytest.fail(f"{name} written"))
    assert data["big"] == 1.7976931348623157e308 and data["n"] == 123456789012345678901234567890
    assert data["s"] == "café \U0001f600"


@pytest.mark.parametrize("args", [INSTALL, UNINSTALL, ("skill", "install", "--user"),
                                  ("skill", "uninstall", "--user")])
def test_a_fifo_where_claude_codes_file_belongs_is_refused_at_once(
        cli: Cli, home: Path, args: tuple[str, ...]) -> None:
    target = home / ("skills/prune-memory/SKILL.md" if args[0] == "skill" else "settings.json")
    target.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(target)
    with no_hang(60):  # a hang guard: a loaded machine only slows the call
        done = cli(*args)
    one_line_refusal(done)
    assert "not a regular file" in done.err


def test_the_gate_never_waits_on_a_fifo_as_project_settings(tmp_path: Path) -> None:
    project = tmp_path / "clone"
    (project / ".claude").mkdir(parents=True)
    os.mkfifo(project / ".claude" / "settings.json")
    fired: list[int] = []

    def expire(*_: object) -> None:  # a FIFO read blocks until a writer comes: a hang
        fired.append(1)
        raise TimeoutError("still reading the FIFO")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    try:
        roots = memory_roots(cwd=str(project))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    # the alarm's TimeoutError is an OSError a reader may swallow: that it never fired is
    # what shows the read did not wait, however loaded the machine
    assert roots.fixed == () and not fired


@pytest.mark.parametrize("planted", [".claude", ".claude/settings.json"])
@pytest.mark.parametrize("args", [("hook", "install", "--no-check"), ("hook", "uninstall"),
                                  ("skill", "install"), ("skill", "uninstall")])
def test_a_cloned_repos_link_never_leads_a_project_install_outside(
        cli: Cli, home: Path, tmp_path: Path, planted: str, args: tuple[str, ...]) -> None:
    project, outside = tmp_path / "clone", tmp_path / "outside"
    (project / ".git").mkdir(parents=True)
    outside.mkdir()
    (outside / "settings.json").write_text("{}")
    for skill in (outside / "skills/prune-memory", outside / "prune-memory"):  # for uninstall
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text("someone else's skill\n")
    if planted == ".claude":
        (project / ".claude").symlink_to(outside)
    else:
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").symlink_to(outside / "settings.json")
        (project / ".claude" / "skills").symlink_to(outside)
    before = tree_hash(outside)
    done = cli(*args, "--project", project)
    one_line_refusal(done)
    assert "outside the project" in done.err
    assert tree_hash(outside) == before


def test_an_executable_of_several_words_is_installed_as_those_words(
        cli: Cli, home: Path) -> None:
    words = f"{shlex.quote(sys.executable)} -m prune_memory"
    done = cli("hook", "install", "--user", "--executable", words)
    assert done.code == 0, done.err
    commands = [h["command"] for groups in json.loads(
        (home / "settings.json").read_text())["hooks"].values()
        for group in groups for h in group["hooks"]]
    assert commands[0] == f"{shlex.join([sys.executable, '-m', 'prune_memory'])} hook gate " \
                          "--mode strict"


@pytest.mark.parametrize("value", ["python -m 'unclosed", "   "])
def test_an_executable_that_is_no_command_is_refused(cli: Cli, home: Path, value: str) -> None:
    one_line_refusal(cli("hook", "install", "--user", "--no-check", "--executable", value))
    assert not (home / "settings.json").exists()


def test_a_skill_of_several_words_runs_those_words(cli: Cli, home: Path) -> None:
    words = f"{shlex.quote(sys.executable)} -m prune_memory"
    done = cli("skill", "install", "--user", "--executable", words)
    assert done.code == 0, done.err
    text = (home / "skills/prune-memory/SKILL.md").read_text(encoding="utf-8")
    assert f"{shlex.join([sys.executable, '-m', 'prune_memory'])} plan" in text
