"""Odd things where files belong, and odd values in them: one-line errors, never a hang or a
traceback.

A FIFO as the index, the pruning log, the retention policy or a topic file would block a
reader forever; a folder named MEMORY.md, a `modified:` date that is no date, a `--repo`
that does not exist, each used to end in a traceback (exit 3) or, for the repo, in a pass
that silently withdrew more. Every command a user runs is tried on each, in this process,
under an alarm that turns a hang into a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.errors import ExitCode
from prune_memory.store.loader import load_memory_dir
from tests.conftest import DEMO_MEMORY, CliResult, tree_hash
from tests.faults import no_hang

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
HANG_SECONDS = 20


def commands(memory: Path, repo: Path) -> list[tuple[str | Path, ...]]:
    return [("plan", memory, "--repo", repo, "--json", "--now", NOW),
            ("inventory", memory), ("scan", memory), ("lint", memory),
            ("run", memory, "--repo", repo, "--yes", "--now", NOW),
            ("withdraw", memory / "project_issue_42.md", "--reason", "x", "--now", NOW),
            ("restore", "2026-11-28-01", memory), ("recover", memory),
            ("snapshot", memory, "--now", NOW)]


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DEMO_MEMORY, tmp_path / "memory"))


@pytest.mark.parametrize("name", ["pruning-log.md", "MEMORY.md", "retention-policy.md",
                                  "project_dev_ports.md"])
def test_a_fifo_is_never_waited_on(cli: Cli, memory: Path, demo_repo: Path, name: str) -> None:
    (memory / name).unlink(missing_ok=True)
    os.mkfifo(memory / name)
    for args in commands(memory, demo_repo):
        with no_hang(HANG_SECONDS):
            done = cli(*args)
        assert done.code != ExitCode.INTERNAL, (args, done.err)
    assert (memory / name).exists() and not (memory / name).is_file()  # left as it was


def test_a_folder_named_memory_md_is_a_one_line_error(cli: Cli, memory: Path,
                                                      demo_repo: Path) -> None:
    (memory / "MEMORY.md").unlink()
    (memory / "MEMORY.md").mkdir()
    before = tree_hash(memory)
    for args in commands(memory, demo_repo):
        done = cli(*args)
        assert done.code != ExitCode.INTERNAL, (args, done.err)
        if args[0] in ("run", "withdraw", "restore", "recover"):
            assert done.code == ExitCode.BAD_INPUT and "MEMORY.md" in done.err, (args, done.err)
            assert tree_hash(memory) == before
        assert len(done.err.strip().splitlines()) <= 40 and "Traceback" not in done.err


@pytest.mark.parametrize("stamp", ["2026-02-30", "0000-00-00", "2026-02-30T10:00:00Z"])
def test_a_modified_stamp_that_is_no_date_is_ignored_for_that_file(
        cli: Cli, memory: Path, demo_repo: Path, stamp: str) -> None:
    path = memory / "project_dev_ports.md"
    path.write_text(path.read_text().replace("type: project\n",
                                             f"type: project\nmodified: {stamp}\n", 1))
    memdir = load_memory_dir(memory)
    entry = memdir.entry("project_dev_ports.md")
    assert entry is not None and entry.modified is None  # no write-time signal, still loaded
    assert not memdir.errors
    for args in commands(memory, demo_repo)[:4]:
        done = cli(*args)
        assert done.code in (ExitCode.OK, ExitCode.FINDINGS), (args, done.err)


@pytest.mark.parametrize("repo", ["missing", "plain-folder", "a-file"])
def test_a_repo_that_is_not_there_is_bad_input_and_nothing_changes(
        cli: Cli, memory: Path, tmp_path: Path, repo: str) -> None:
    (tmp_path / "plain-folder").mkdir()
    (tmp_path / "a-file").write_text("x")
    before = tree_hash(memory)
    for args in (("plan", memory, "--json"), ("run", memory, "--yes", "--now", NOW),
                 ("run", memory, "--dry-run")):
        done = cli(*args, "--repo", tmp_path / repo)
        assert done.code == ExitCode.BAD_INPUT, (args, done.err)
        assert "--repo" in done.err
    assert tree_hash(memory) == before


@pytest.mark.parametrize("shape", ["list", "record", "jsonl"])
def test_a_json_store_nested_50000_deep_is_a_one_line_error(cli: Cli, tmp_path: Path,
                                                            shape: str) -> None:
    deep = "[" * 50_000 + "]" * 50_000
    good = '{"id": "a", "text": "a", "created_at": "2026-01-01"}'
    text = {"list": deep, "record": f'[{good[:-1]}, "meta": {deep}}}]',
            "jsonl": f'{good}\n{{"id": "b", "meta": {deep}}}\n'}[shape]
    store = tmp_path / ("store.jsonl" if shape == "jsonl" else "store.json")
    store.write_text(text)
    (tmp_path / "checks.json").write_text(deep)
    for args in (("jsonl", "report", store), ("jsonl", "verify", store, tmp_path / "checks.json"),
                 ("jsonl", "prune", store, "--out", tmp_path / "o.json", "--archive",
                  tmp_path / "a.json")):
        done = cli(*args)
        assert done.code == ExitCode.BAD_INPUT, (args, done.err)
        assert "nests too deeply" in done.err


@pytest.mark.parametrize("how", ["a file in its place", "read-only"])
def test_a_state_directory_that_cannot_be_written_is_one_line(
        cli: Cli, memory: Path, demo_repo: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    state = tmp_path / "state"
    if how == "read-only":
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        state.mkdir(mode=0o500)
    else:
        state.write_text("not a folder\n")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    before = tree_hash(memory)
    for args in commands(memory, demo_repo):
        done = cli(*args)
        assert done.code != ExitCode.INTERNAL, (args, done.err)
        assert "Traceback" not in done.err and len(done.err.strip().splitlines()) <= 3, args
    assert tree_hash(memory) == before
