"""Merging our hook entries into settings.json and taking them out again."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from prune_memory.claude.settings import (
    backup_path,
    hook_entries,
    install_hooks,
    is_ours,
    uninstall_hooks,
    with_ours,
    without_ours,
)
from prune_memory.errors import BadInputError
from prune_memory.state import state_root

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(hours=1)
OTHERS: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]},
    "autoMemoryDirectory": "~/mem",
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "~/.claude/hooks/no-rm-rf.sh"}]}],
        "PostToolUse": [{"matcher": "Write|Edit", "hooks": [
            {"type": "command", "command": "ruff format \"$CLAUDE_FILE\"", "timeout": 30}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def save(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return path


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def ours() -> dict[str, list[dict[str, Any]]]:
    return hook_entries("strict")


def test_the_entries_are_the_documented_shape() -> None:
    entries = hook_entries("warn", [Path("/team mem")], "/opt/bin/prune-memory")
    assert entries == {
        "PreToolUse": [{"matcher": "Write|Edit|MultiEdit|Bash", "hooks": [{
            "type": "command", "timeout": 10,
            "command": "/opt/bin/prune-memory hook gate --mode warn "
                       "--memory-root '/team mem'"}]}],
        "PostToolUse": [{"matcher": "Read", "hooks": [{
            "type": "command", "timeout": 10,
            "command": "/opt/bin/prune-memory hook record-read --memory-root '/team mem'"}]}],
    }


@pytest.mark.parametrize(("command", "mine"), [
    ("prune-memory hook gate --mode strict", True),
    ("/home/me/.local/bin/prune-memory hook record-read", True),
    ("'/opt/my tools/prune-memory' hook gate", True),
    ("python -m prune_memory hook gate", True),
    ("prune-memory run --yes", False),
    ("my-prune-memory-wrapper hook gate", False),
    ("echo prune-memory hook gates", False),
])
def test_ours_is_recognised_by_the_command(command: str, mine: bool) -> None:
    assert is_ours({"type": "command", "command": command}) is mine


def test_install_then_uninstall_round_trips_with_other_hooks(tmp_path: Path) -> None:
    path = save(tmp_path / "settings.json", OTHERS)
    first = install_hooks(path, ours(), NOW)
    assert first.changed and first.backup is not None
    installed = load(path)
    assert installed["hooks"]["PreToolUse"][0] == OTHERS["hooks"]["PreToolUse"][0]
    assert installed["hooks"]["PreToolUse"][1] == ours()["PreToolUse"][0]
    assert installed["hooks"]["PostToolUse"][1] == ours()["PostToolUse"][0]
    assert {k: v for k, v in installed.items() if k != "hooks"} == {
        k: v for k, v in OTHERS.items() if k != "hooks"}
    removed = uninstall_hooks(path, LATER)
    assert removed.changed
    assert load(path) == OTHERS


def test_round_trip_on_a_file_without_hooks_or_without_a_file(tmp_path: Path) -> None:
    plain = save(tmp_path / "a" / "settings.json", {"model": "opus"})
    install_hooks(plain, ours(), NOW)
    uninstall_hooks(plain, LATER)
    assert load(plain) == {"model": "opus"}
    missing = tmp_path / "b" / ".claude" / "settings.json"
    change = install_hooks(missing, ours(), NOW)
    assert change.changed and change.backup is None
    assert load(missing) == {"hooks": ours()}
    uninstall_hooks(missing, LATER)
    assert load(missing) == {}


def test_install_is_idempotent(tmp_path: Path) -> None:
    path = save(tmp_path / "settings.json", OTHERS)
    install_hooks(path, ours(), NOW)
    before = path.read_bytes()
    again = install_hooks(path, ours(), LATER)
    assert not again.changed and again.backup is None
    assert path.read_bytes() == before
    assert len(list(backup_path(path, NOW).parent.glob("settings.json.bak-*"))) == 1


def test_the_backup_holds_the_previous_bytes(tmp_path: Path) -> None:
    path = save(tmp_path / "settings.json", OTHERS)
    original = path.read_bytes()
    change = install_hooks(path, ours(), NOW)
    assert change.backup is not None
    assert change.backup.name == "settings.json.bak-20261129T120000Z"
    assert change.backup.read_bytes() == original
    # Outside the folder of the file (a repo, for project settings): under the state dir.
    assert tmp_path not in change.backup.parents and state_root() in change.backup.parents
    second = uninstall_hooks(path, NOW)  # same second: the name gets a number
    assert second.backup == change.backup.with_name("settings.json.bak-20261129T120000Z-2")


def test_reinstalling_with_another_mode_replaces_ours(tmp_path: Path) -> None:
    path = save(tmp_path / "settings.json", OTHERS)
    install_hooks(path, ours(), NOW)
    install_hooks(path, hook_entries("warn"), LATER)
    gate_groups = [g for g in load(path)["hooks"]["PreToolUse"] if is_ours(g["hooks"][0])]
    assert len(gate_groups) == 1
    assert gate_groups[0]["hooks"][0]["command"].endswith("--mode warn")


def test_uninstall_removes_exactly_ours_even_from_a_shared_group() -> None:
    shared = {"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
        {"type": "command", "command": "prune-memory hook gate --mode strict"},
        {"type": "command", "command": "./check.sh"}]}]}}
    assert without_ours(shared) == {"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
        {"type": "command", "command": "./check.sh"}]}]}}


def test_empty_containers_that_were_there_before_stay() -> None:
    assert without_ours({"hooks": {}}) == {"hooks": {}}
    assert without_ours({"hooks": {"Stop": []}}) == {"hooks": {"Stop": []}}
    odd = {"hooks": {"PreToolUse": "not a list", "Stop": [7, {"hooks": "x"}]}}
    assert without_ours(odd) == odd


def test_uninstall_without_a_file_changes_nothing(tmp_path: Path) -> None:
    change = uninstall_hooks(tmp_path / "settings.json", NOW)
    assert not change.changed and not (tmp_path / "settings.json").exists()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "", "\"hooks\""])
def test_a_file_that_is_not_a_json_object_is_refused_untouched(tmp_path: Path, text: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    for action in (lambda: install_hooks(path, ours(), NOW), lambda: uninstall_hooks(path, NOW)):
        with pytest.raises(BadInputError):
            action()
    assert path.read_text(encoding="utf-8") == text
    assert list(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("bad", [{"hooks": []}, {"hooks": {"PreToolUse": {}}}])
def test_a_hooks_section_of_the_wrong_shape_is_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(BadInputError):
        with_ours(bad, ours())


def test_the_file_mode_is_kept(tmp_path: Path) -> None:
    path = save(tmp_path / "settings.json", OTHERS)
    path.chmod(0o600)
    install_hooks(path, ours(), NOW)
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_symlinked_settings_file_is_written_through_its_link(tmp_path: Path) -> None:
    real = save(tmp_path / "dotfiles" / "claude-settings.json", OTHERS)
    link = tmp_path / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(real)
    original = real.read_bytes()
    install_hooks(link, ours(), NOW)
    assert link.is_symlink() and link.resolve() == real
    assert any(is_ours(g["hooks"][0]) for g in load(real)["hooks"]["PreToolUse"])
    uninstall_hooks(link, LATER)
    assert link.is_symlink() and real.read_bytes() == original
    # backups sit under the state directory, beside neither the link nor the real file
    assert not list(link.parent.glob("*.bak-*")) and not list(real.parent.glob("*.bak-*"))


def test_uninstall_gives_back_the_original_bytes_only_when_nothing_else_changed(
        tmp_path: Path) -> None:
    path = save(tmp_path / "settings.json", OTHERS)  # indent=4: not how we would write it
    original = path.read_bytes()
    install_hooks(path, ours(), NOW)
    uninstall_hooks(path, LATER)
    assert path.read_bytes() == original
    install_hooks(path, ours(), NOW)
    save(path, {**load(path), "model": "sonnet"})  # the user changed something meanwhile
    uninstall_hooks(path, LATER)
    assert path.read_bytes() != original and load(path) == {**OTHERS, "model": "sonnet"}
