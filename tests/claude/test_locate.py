from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from prune_memory.claude.locate import git_root, locate, sanitize
from prune_memory.errors import BadInputError


@pytest.mark.parametrize(("path", "name"), [
    ("/home/me/my.app", "-home-me-my-app"),
    ("/home/me/My Project", "-home-me-My-Project"),
    ("/srv/a_b/c--d", "-srv-a-b-c--d"),
    ("/home/me/café", "-home-me-caf-"),
    ("/home/me/漢字", "-home-me---"),
    ("/home/me/x😀", "-home-me-x--"),  # one astral character is two UTF-16 units
])
def test_sanitize_replaces_every_non_alphanumeric_unit(path: str, name: str) -> None:
    assert sanitize(path) == name


def _git_init(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def test_subdirectory_maps_to_the_git_root(tmp_path: Path) -> None:
    repo = _git_init(tmp_path / "my.repo")
    (repo / "src" / "deep").mkdir(parents=True)
    loc = locate(repo / "src" / "deep")
    assert loc.git_root == repo.resolve()
    assert loc.memory_dir == Path.home() / ".claude" / "projects" / sanitize(
        str(repo.resolve())) / "memory"


def test_worktree_shares_the_main_repo_directory(tmp_path: Path) -> None:
    repo = _git_init(tmp_path / "main")
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@e",
                    "commit", "-q", "--allow-empty", "-m", "init"], check=True)
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(tmp_path / "wt")],
                   check=True)
    assert git_root(tmp_path / "wt") == repo.resolve()


def test_not_a_repo_uses_the_path_itself(tmp_path: Path) -> None:
    loc = locate(tmp_path)
    assert loc.git_root is None and loc.name == sanitize(str(tmp_path.resolve()))


def test_long_paths_are_found_by_listing(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*(["a-very-long-folder-name"] * 10))
    deep.mkdir(parents=True)
    prefix = sanitize(str(deep.resolve()))[:200]
    real = Path.home() / ".claude" / "projects" / f"{prefix}-1x2y3z"
    (real / "memory").mkdir(parents=True)
    loc = locate(deep)
    assert loc.source == "listing" and loc.memory_dir == real / "memory"


def test_ambiguous_long_path_is_bad_input(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*(["b-very-long-folder-name"] * 10))
    deep.mkdir(parents=True)
    prefix = sanitize(str(deep.resolve()))[:200]
    for suffix in ("-aaa", "-bbb"):
        (Path.home() / ".claude" / "projects" / f"{prefix}{suffix}").mkdir(parents=True)
    with pytest.raises(BadInputError, match="several"):
        locate(deep)


def test_auto_memory_directory_setting_moves_it(tmp_path: Path) -> None:
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"autoMemoryDirectory": "~/notes/memory"}))
    loc = locate(tmp_path)
    assert loc.source == "autoMemoryDirectory"
    assert loc.memory_dir == Path.home() / "notes" / "memory"


def test_claude_config_dir_is_honoured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert locate(tmp_path).memory_dir.is_relative_to(tmp_path / "cfg" / "projects")
