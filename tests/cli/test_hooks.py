"""`hook install|uninstall|gate|record-read` and `skill install|uninstall` through the CLI."""

from __future__ import annotations

import datetime as dt
import io
import json
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.claude.hooks.command import installed_command
from prune_memory.claude.hooks.recall import measured_reads
from tests.claude.conftest import TOKEN, post_read, write
from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
OTHER_HOOK = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "./guard.sh"}]}]}, "model": "opus"}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "claude"
    path.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(path))
    monkeypatch.delenv("PRUNE_MEMORY_GATE", raising=False)
    return path


def test_install_into_user_settings_and_uninstall(cli: Cli, home: Path) -> None:
    settings = home / "settings.json"
    settings.write_text(json.dumps(OTHER_HOOK), encoding="utf-8")
    result = cli("hook", "install", "--user", "--gate-mode", "warn")
    assert result.code == 0, result.err
    assert f"hooks installed in {settings}" in result.out and "backup" in result.out
    commands = [h["command"] for groups in json.loads(settings.read_text())["hooks"].values()
                for group in groups for h in group["hooks"]]
    exe = shlex.join(installed_command())  # absolute: Claude Code's PATH lacks a venv
    assert commands == ["./guard.sh", f"{exe} hook gate --mode warn",
                        f"{exe} hook record-read"]
    assert installed_command()[0].startswith("/")
    assert not list(home.glob("settings.json.bak-*"))  # backups live in the state dir
    again = cli("hook", "install")
    assert again.code == 0 and "nothing changed" not in again.out  # warn -> strict changes
    assert "nothing changed" in cli("hook", "install").out
    removed = cli("hook", "uninstall", "--user")
    assert removed.code == 0 and "hooks removed from" in removed.out
    assert json.loads(settings.read_text()) == OTHER_HOOK
    assert "nothing changed" in cli("hook", "uninstall").out


def test_install_into_a_project(cli: Cli, home: Path, tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    result = cli("hook", "install", "--project", project, "--no-check",
                 "--memory-root", tmp_path / "team-memory", "--executable", "/opt/pm")
    assert result.code == 0, result.err
    data = json.loads((project / ".claude" / "settings.json").read_text())
    gate = data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert gate == f"/opt/pm hook gate --mode strict --memory-root {tmp_path / 'team-memory'}"
    assert not (home / "settings.json").exists()
    local = cli("hook", "install", "--local", "--project", project)
    assert local.code == 0, local.err
    assert "hooks" in json.loads((project / ".claude" / "settings.local.json").read_text())
    assert cli("hook", "install", "--user", "--project", project).code == 2


def test_a_command_that_does_not_run_is_not_written(cli: Cli, home: Path) -> None:
    result = cli("hook", "install", "--executable", "/nonexistent/prune-memory")
    assert result.code == 2 and "did not run" not in result.err
    assert "exited with 127" in result.err and "nothing changed" in result.err
    assert not (home / "settings.json").exists()


def test_a_settings_file_that_is_not_json_is_refused(cli: Cli, home: Path) -> None:
    settings = home / "settings.json"
    settings.write_text('{"model": "opus",}', encoding="utf-8")
    result = cli("hook", "install")
    assert result.code == 2
    assert "not valid JSON" in result.err and "nothing changed" in result.err
    assert settings.read_text(encoding="utf-8") == '{"model": "opus",}'
    assert cli("hook", "uninstall").code == 2


def test_an_unknown_gate_mode_is_a_usage_error(cli: Cli, home: Path) -> None:
    assert cli("hook", "install", "--gate-mode", "off").code == 2


def test_skill_install(cli: Cli, home: Path, tmp_path: Path) -> None:
    result = cli("skill", "install", "--user")
    skill = home / "skills" / "prune-memory" / "SKILL.md"
    assert result.code == 0 and f"skill written to {skill}" in result.out
    assert skill.read_text(encoding="utf-8").startswith("---\nname: prune-memory\n")
    assert "up to date" in cli("skill", "install").out
    project = cli("skill", "install", "--project", tmp_path)
    assert project.code == 0
    assert (tmp_path / ".claude" / "skills" / "prune-memory" / "SKILL.md").is_file()


def test_the_skill_runs_the_same_absolute_command_as_the_hook(cli: Cli, home: Path) -> None:
    """A bare `prune-memory` in the skill breaks for a virtualenv: Claude Code's PATH lacks
    its bin/. The hook already wrote the absolute command; the skill now does too."""
    assert cli("hook", "install", "--user").code == 0
    gate = json.loads((home / "settings.json").read_text())["hooks"]["PreToolUse"][0][
        "hooks"][0]["command"]
    command = gate.split(" hook gate")[0]
    assert command == shlex.join(installed_command())
    assert cli("skill", "install", "--user").code == 0
    text = (home / "skills" / "prune-memory" / "SKILL.md").read_text(encoding="utf-8")
    assert f"Bash({command} plan:*)" in text and f"{command} plan --json" in text
    runs = [line for line in text.splitlines() if "prune-memory " in line
            and any(f"prune-memory {c}" in line for c in ("plan", "run", "withdraw", "scan"))]
    assert runs == [], "every command in the skill is the absolute one"
    bad = cli("skill", "install", "--user", "--executable", "/nonexistent/prune-memory")
    assert bad.code == 2 and "nothing changed" in bad.err


def test_skill_uninstall_removes_it_and_keeps_a_copy(cli: Cli, home: Path) -> None:
    skill = home / "skills" / "prune-memory" / "SKILL.md"
    assert "no prune-memory skill in" in cli("skill", "uninstall").out
    cli("skill", "install", "--user")
    written = skill.read_bytes()
    removed = cli("skill", "uninstall", "--user")
    assert removed.code == 0 and f"skill removed from {skill}" in removed.out
    assert not skill.exists() and not skill.parent.exists()
    backup = removed.out.split("backup of the previous file: ")[1].strip()
    assert Path(backup).read_bytes() == written and not Path(backup).is_relative_to(home)


def test_local_keeps_its_promise_the_file_stays_out_of_git(cli: Cli, home: Path,
                                                           tmp_path: Path) -> None:
    project = tmp_path / "app"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "README.md").write_text("app\n")
    result = cli("hook", "install", "--local", "--project", project, "--no-check")
    assert result.code == 0 and "kept out of git by" in " ".join(result.out.split())
    status = subprocess.run(["git", "-C", str(project), "status", "--porcelain",
                             "--untracked-files=all"], capture_output=True, text=True,
                            check=True).stdout
    assert ".claude" not in status and "README.md" in status  # ignored; nothing else moved
    again = cli("hook", "install", "--local", "--project", project, "--no-check")
    assert "git already ignores it" in again.out
    exclude = (project / ".git" / "info" / "exclude").read_text()
    assert exclude.count("/.claude/settings.local.json") == 1


def test_gate_and_record_read_run_in_process(cli: Cli, home: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    memory = write_tree(home / "projects" / "-app" / "memory",
                        {"MEMORY.md": "- [A](a.md) — a\n", "a.md": topic("a", "A fact.")})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        write(memory / "b.md", f"key {TOKEN}\n"))))
    denied = cli("hook", "gate", "--mode", "strict")
    assert denied.code == 0 and '"deny"' in denied.out and TOKEN not in denied.out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(post_read(memory / "a.md"))))
    counted = cli("hook", "record-read")
    assert (counted.code, counted.out) == (0, "")
    later = dt.datetime(2100, 1, 1, tzinfo=dt.UTC)
    assert measured_reads(memory, later)["a.md"].reads == 1


def test_the_console_script_installs_with_the_real_entry_point(home: Path) -> None:
    script = Path(sys.executable).parent / "prune-memory"
    if not script.exists():
        pytest.skip("console script not installed in this environment")
    done = subprocess.run([str(script), "hook", "install", "--user"], capture_output=True,
                          text=True, check=True)
    assert "hooks installed" in done.stdout
    assert (home / "settings.json").is_file()
