"""Which paths the hooks treat as memory, and agreement with store.locate."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from prune_memory.claude import locate
from prune_memory.claude.hooks import memroots
from prune_memory.claude.hooks.memroots import memory_dir_of, memory_roots


def test_files_at_any_depth_of_a_project_memory_directory_are_memory(memory_dir: Path) -> None:
    roots = memory_roots()
    for path in (memory_dir / "a.md", memory_dir / "deaccessioned" / "a.md",
                 memory_dir / "new-folder" / "deep" / "b.md"):
        assert memory_dir_of(str(path), roots) == str(memory_dir)


def test_neighbours_of_memory_are_not_memory(memory_dir: Path, claude_home: Path) -> None:
    roots = memory_roots()
    for path in (memory_dir, memory_dir.parent / "session.jsonl",
                 memory_dir.parent / "memoryless" / "a.md", claude_home / "settings.json",
                 claude_home / "projects" / "a.md", Path("/tmp/memory/a.md"),
                 claude_home / "projects" / "-x" / "memory-old" / "a.md"):
        assert memory_dir_of(str(path), roots) is None, path


def test_symlinks_and_dot_dots_are_resolved(tmp_path: Path, memory_dir: Path) -> None:
    link = tmp_path / "shortcut"
    link.symlink_to(memory_dir)
    roots = memory_roots()
    assert memory_dir_of(str(link / "a.md"), roots) == str(memory_dir)
    sneaky = memory_dir.parent / "other" / ".." / "memory" / "a.md"
    assert memory_dir_of(str(sneaky), roots) == str(memory_dir)


def test_auto_memory_directory_in_user_settings(tmp_path: Path, claude_home: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (claude_home / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/mem"}))
    roots = memory_roots()
    assert memory_dir_of(str(tmp_path / "mem" / "a.md"), roots) == str(tmp_path / "mem")


def test_auto_memory_directory_in_project_settings(tmp_path: Path, claude_home: Path) -> None:
    project = tmp_path / "app"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"autoMemoryDirectory": ".claude/memory"}))
    target = project / ".claude" / "memory" / "a.md"
    assert memory_dir_of(str(target), memory_roots(cwd=str(project))) is not None
    assert memory_dir_of(str(target), memory_roots(cwd=str(tmp_path))) is None


def test_unreadable_settings_add_nothing(claude_home: Path) -> None:
    (claude_home / "settings.json").write_text("{broken")
    assert memory_roots().fixed == ()


def test_extra_roots_are_expanded_and_resolved(tmp_path: Path, claude_home: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    roots = memory_roots(["~/team"])
    assert roots.fixed == (os.path.realpath(tmp_path / "team"),)


@pytest.mark.parametrize("config_dir", [None, "~/alt-claude", "/opt/claude"])
def test_claude_home_agrees_with_store_locate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              config_dir: str | None) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    if config_dir is None:
        monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    else:
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", config_dir)
    assert memroots.claude_home() == str(locate.claude_home())


@pytest.mark.parametrize("value", ["~/mem", "/abs/mem", "  ", "", 7, None])
def test_user_auto_memory_agrees_with_store_locate(tmp_path: Path, claude_home: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   value: object) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (claude_home / "settings.json").write_text(json.dumps({"autoMemoryDirectory": value}))
    where = locate.locate(tmp_path)
    expected = str(where.memory_dir) if where.source == "autoMemoryDirectory" else None
    assert memroots.user_auto_memory() == expected
