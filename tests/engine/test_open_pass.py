"""A pass that stops before its record is written is still undone whole, and a pass taken
back id by id is no longer offered.

Each used to go wrong: a reaccession killed after its step, then `recover`, and `restore
--pass last` undid the withdrawal before it (the reaccessioned file stayed); a sweep stopped
by a full disk and recovered left no pass to undo; a pass undone id by id was still listed,
and undoing it again refused with "changed since".
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.engine.undo import restorable
from prune_memory.procedure import run_pass
from prune_memory.store import atomic
from tests.conftest import CliResult, topic, tree_hash, write_tree
from tests.engine.test_undo import a_pass
from tests.engine.test_undo import memory as memory  # the fixture
from tests.faults import Killed

Cli = Callable[..., CliResult]
NOW, LATER, LAST = "2026-11-29T12:00:00Z", "2026-11-29T13:00:00Z", "2026-11-30T09:00:00Z"


def withdrawn(cli: Cli, tmp_path: Path) -> Path:
    root = write_tree(tmp_path / "mem", {
        "MEMORY.md": "# Memory\n- [Cache](project_cache.md) — cache notes\n",
        "project_cache.md": topic("cache", "Sprint notes.\nThe cache TTL is 900 s.\n")})
    assert cli("withdraw", root / "project_cache.md", "--reason", "done", "--now",
               NOW).code == 0
    return root


def test_a_reaccession_killed_after_its_step_is_the_pass_undone(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = withdrawn(cli, tmp_path)
    after_withdrawal = tree_hash(root)

    def killed(*_: object) -> str:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(run_pass, "record_pass", killed)
        with pytest.raises(Killed):
            cli("reaccession", "2026-11-29-01", "--memory-dir", root, "--lines", "2",
                "--file", "project_ttl.md", "--reason", "still true", "--now", LATER)
    assert (root / "project_ttl.md").exists()
    recovered = cli("recover", root)
    assert recovered.code == 0 and "recorded the pass" in recovered.err
    undo = cli("restore", "--pass", "last", "--memory-dir", root, "--now", LAST)
    assert undo.code == 0, undo.err
    assert not (root / "project_ttl.md").exists()
    assert tree_hash(root) == after_withdrawal  # the withdrawal before it stays


def test_a_pass_recorded_after_it_stopped_is_named_by_its_command(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`restore --list` and an undo's "still applied: pass … (command)" name each pass by
    what made it; one recorded by `recover` is named so too, not "a pass"."""
    root = withdrawn(cli, tmp_path)

    def killed(*_: object) -> str:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(run_pass, "record_pass", killed)
        with pytest.raises(Killed):
            cli("reaccession", "2026-11-29-01", "--memory-dir", root, "--lines", "2",
                "--file", "project_ttl.md", "--reason", "still true", "--now", LATER)
    assert cli("recover", root).code == 0
    assert [p.command for p in restorable(root).passes] == [
        "withdraw project_cache.md", "reaccession 2026-11-29-01"]


@pytest.mark.parametrize("room", [1, 2, 3])
def test_a_sweep_stopped_by_a_full_disk_is_undone_after_recover(
        cli: Cli, demo_memory: Path, monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    """The disk fills after `room` writes into the memory directory."""
    start = tree_hash(demo_memory)
    write, rewrite, calls = atomic.atomic_write, atomic.rewrite, {"n": 0}

    def full(path: Path) -> None:
        if demo_memory in path.parents:
            calls["n"] += 1
            if calls["n"] > room:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    with monkeypatch.context() as patch:
        patch.setattr(atomic, "atomic_write", lambda p, d: (full(p), write(p, d))[1])
        patch.setattr(atomic, "rewrite", lambda p, c: (full(p), rewrite(p, c))[1])
        stopped = cli("sweep", demo_memory, "--rename", "pebble=cairn", "--apply",
                      "--now", NOW)
    assert stopped.code == 4 and "Traceback" not in stopped.err
    assert cli("recover", demo_memory).code == 0
    undo = cli("restore", "--pass", "last", "--memory-dir", demo_memory, "--now", LAST)
    if undo.code == 2:  # only when the sweep had written nothing that stayed
        assert "no pass to undo" in undo.err
    else:
        assert undo.code == 0, undo.err
    assert tree_hash(demo_memory) == start


def test_a_refused_command_leaves_no_pass_behind(cli: Cli, tmp_path: Path) -> None:
    root = withdrawn(cli, tmp_path)
    assert cli("protect", "MEMORY.md", "--memory-dir", root, "--reason", "x").code != 3
    assert cli("withdraw", root / "nowhere.md", "--reason", "x", "--now", LATER).code == 2
    assert cli("recover", root).code == 0
    assert [p.date for p in restorable(root).passes] == ["2026-11-29"]  # the withdrawal


@pytest.mark.parametrize("how", ["by hand", "by an undo that met a change"])
def test_a_pass_undone_id_by_id_is_no_longer_offered(cli: Cli, memory: Path,
                                                     how: str) -> None:
    a_pass(memory)
    if how == "by hand":
        for rid in ("2026-11-29-02", "2026-11-29-01"):
            assert cli("restore", rid, "--memory-dir", memory, "--now", LAST).code == 0
    else:
        (memory / "project_hub.md").write_text("changed by hand since the pass\n")
        assert cli("restore", "--pass", "last", "--memory-dir", memory, "--now",
                   LAST).code in (0, 1)
    assert restorable(memory).passes == ()
    again = cli("restore", "--pass", "2026-11-29", "--memory-dir", memory, "--now", LAST)
    assert again.code == 2 and "no pass to undo" in again.err
