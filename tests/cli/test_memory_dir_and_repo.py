"""Which folder is the memory, and which repo checks it.

A repository root given as the memory directory is refused before anything is read or
written. A memory directory given by path, from any working directory, finds its project
the way Claude Code named it; when nothing can be found, the first line says the git
checks are skipped, and why.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.claude.locate import locate, paths_named, project_of, sanitize
from tests.conftest import CliResult, topic, tree_hash, write_tree
from tests.evidence.probes.gitbuild import GitRepo

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
MEMORY = {"MEMORY.md": "# Memory\n- [Auth](project_auth.md) — where auth lives\n",
          "project_auth.md": topic("auth", "Sessions are signed in `src/auth.py`.")}


def project(tmp_path: Path, name: str = "my.app") -> GitRepo:
    repo = GitRepo(tmp_path / "code" / name)
    repo.write({"src/auth.py": "def sign():\n    return 1\n" * 8, "README.md": "# app\n"})
    repo.commit("auth")
    repo.mv("src/auth.py", "src/session.py").commit("rename auth to session")
    return repo


def claude_memory(repo: GitRepo) -> Path:
    """The repo's memory where Claude Code keeps it (HOME is the test's own)."""
    return write_tree(locate(repo.root).memory_dir, MEMORY)


def test_run_on_a_repository_root_exits_2_and_changes_nothing(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    before = tree_hash(repo.root)
    state = Path(os.environ["XDG_STATE_HOME"])
    for argv in (["run", ".", "--yes"], ["run", "--memory-dir", ".", "--yes"],
                 ["plan", "."], ["snapshot", "."], ["withdraw", "README.md", "--reason", "x"]):
        result = cli(*argv, "--now", NOW)
        assert result.code == 2, (argv, result.err)
        assert len(result.err.strip().splitlines()) == 1, result.err
        assert "is not a memory directory" in result.err
    assert "--project" in cli("run", ".", "--yes").err  # says where its memory is
    assert tree_hash(repo.root) == before
    assert not (repo.root / "pruning-log.md").exists()
    assert not list(state.glob("prune-memory/snapshots/*"))


def test_an_empty_folder_and_a_missing_project_memory_are_refused(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    assert "is empty" in cli("run", tmp_path / "empty", "--yes").err
    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    result = cli("plan")
    assert result.code == 2 and "no memory directory for" in result.err


def test_a_folder_of_memories_without_an_index_is_a_memory_directory(
        cli: Cli, tmp_path: Path) -> None:
    memory = write_tree(tmp_path / "m", {"project_a.md": topic("a", "A fact.")})
    assert cli("plan", memory, "--json", "--now", NOW).code == 0
    nested = write_tree(tmp_path / "n", {"b.md": "---\nmetadata:\n  type: feedback\n---\nB\n"})
    assert cli("plan", nested, "--json", "--now", NOW).code == 0


def test_run_memory_dir_from_any_cwd_finds_the_repo_by_claude_code_s_naming(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = project(tmp_path)
    memory = claude_memory(repo)
    elsewhere = GitRepo(tmp_path / "other")  # a repo of its own: never the evidence
    elsewhere.write({"x.txt": "x\n"}).commit("x")
    for cwd in (tmp_path, elsewhere.root, Path("/")):
        monkeypatch.chdir(cwd)
        result = cli("plan", memory, "--json", "--now", NOW)
        assert result.code == 0, result.err
        plan = json.loads(result.out)
        assert plan["repo"] == str(repo.root.resolve())
        auth = next(e for e in plan["entries"] if e["file"] == "project_auth.md")
        assert any("src/session.py" in f["message"] for f in auth["findings"])
    monkeypatch.chdir(tmp_path)
    ran = cli("run", memory, "--yes", "--now", NOW)
    assert ran.code == 0 and "git checks skipped" not in ran.err


def test_the_transcripts_beside_the_memory_name_the_project(tmp_path: Path) -> None:
    """`a-b` and `a/b` both sanitize to `-…-a-b`: the sessions' recorded cwd decides."""
    one, two = GitRepo(tmp_path / "a-b"), GitRepo(tmp_path / "a" / "b")
    memory = write_tree(locate(one.root).memory_dir, MEMORY)
    assert locate(two.root).memory_dir == memory
    assert project_of(memory).git_root is None  # two repos fit the name: no guess
    assert "fits 2 repositories" in project_of(memory).why
    session = {"type": "user", "cwd": str(two.root / "src"), "message": {"content": "hi"}}
    (memory.parent / "0b6d.jsonl").write_text(json.dumps(session) + "\n")
    assert project_of(memory).git_root == two.root.resolve()


def test_every_folder_a_name_can_stand_for_is_found(tmp_path: Path) -> None:
    for name in ("my.app", "my app", "my-app", "my/app", ".hidden/x"):
        (tmp_path / "p" / name).mkdir(parents=True)
    base = sanitize(str((tmp_path / "p").resolve()))
    assert paths_named(f"{base}-my-app") == sorted(
        (tmp_path / "p" / n).resolve() for n in ("my app", "my-app", "my.app", "my/app"))
    assert paths_named(f"{base}--hidden-x") == [(tmp_path / "p" / ".hidden" / "x").resolve()]
    assert paths_named("not-a-name") == []


def test_when_no_repo_is_found_the_first_line_says_git_checks_were_skipped(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # in no repository
    moved = write_tree(Path.home() / ".claude" / "projects" / "-gone-away-app" / "memory",
                       MEMORY)
    loose = write_tree(tmp_path / "copy" / "memory", MEMORY)
    for memory, why in ((moved, "-gone-away-app stands for"),
                        (loose, "not in Claude Code's naming")):
        for argv in (["plan", memory, "--json"], ["run", memory, "--yes"]):
            result = cli(*argv, "--now", NOW)
            assert result.code == 0, result.err
            first = result.err.splitlines()[0]
            assert first.startswith("prune-memory: git checks skipped") and why in first
    repo = project(tmp_path)  # the cwd's repo is used for a loose copy, and named
    monkeypatch.chdir(repo.root)
    first = cli("plan", loose, "--json", "--now", NOW).err.splitlines()[0]
    assert f"against the git repository at {repo.root.resolve()}" in first
    assert "git checks skipped" in cli("plan", moved, "--json", "--now", NOW).err


def test_a_memory_committed_inside_a_repo_is_checked_against_that_repo(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = project(tmp_path)
    memory = write_tree(repo.root / ".claude" / "memory", MEMORY)
    monkeypatch.chdir(tmp_path)
    plan = json.loads(cli("plan", memory, "--json", "--now", NOW).out)
    assert plan["repo"] == str(repo.root.resolve())
