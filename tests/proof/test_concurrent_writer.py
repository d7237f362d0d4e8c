"""Another writer changes the directory while `run --yes` sits between its plan and its writes.

Claude Code does not take prune-memory's lock, so a memory can change after the plan was
made. The planned withdrawal of a changed file must be skipped (exit 4, with a message
naming it), every other withdrawal must go ahead, and the other writer's bytes must
survive: the changed file as it now is, a line added to the index.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench.gen_store import MemoryShares, write_memory_dir
from prune_memory.errors import ExitCode
from prune_memory.model import INDEX_FILE
from prune_memory.plan import Plan
from prune_memory.procedure import run_pass
from prune_memory.procedure.review import AUTO_APPLIED
from prune_memory.store.pruninglog import read_log
from tests.conftest import CliResult
from tests.jsonstore.storegen import Shares
from tests.proof.harness import Baseline, assert_whole, cli_argv, cli_env

# These tests drive the write engine through `run --yes`: every evidence class is trusted.
pytestmark = pytest.mark.usefixtures("trust_all")

NOW = "2026-11-29T12:00:00+00:00"
SHARES = MemoryShares(text=Shares(exact=0.05, near=0.02, negation=0.02), ephemeral=0.25,
                      stale_path=0.0, live_path=0.0, secret=0.0)
ADDED_LINE = b"- [Written meanwhile](meanwhile.md) \xe2\x80\x94 by another session\r\n"


@pytest.fixture
def memory(tmp_path: Path) -> tuple[Path, Path]:
    write_memory_dir(tmp_path / "memory", 60, seed=21, shares=SHARES)
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    return tmp_path / "memory", tmp_path / "repo"


def after_plan(monkeypatch: pytest.MonkeyPatch, change: Callable[[Plan], None]) -> None:
    """Let the real plan be made, then run `change` before anything is written."""
    real = run_pass.build_plan

    def planned_then_changed(*args: Any, **kwargs: Any) -> Plan:
        plan = real(*args, **kwargs)
        change(plan)
        return plan

    monkeypatch.setattr(run_pass, "build_plan", planned_then_changed)  # the pass calls it


def withdrawals(plan: Plan) -> list[str]:
    return sorted(e.file for e in plan.entries if e.action in AUTO_APPLIED)


def test_a_file_changed_after_the_plan_is_skipped_and_the_rest_proceed(
        cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch,
        memory: tuple[Path, Path]) -> None:
    root, repo = memory
    base = Baseline.of(root)
    seen: dict[str, list[str]] = {}

    def change(plan: Plan) -> None:
        planned = withdrawals(plan)
        seen["planned"] = planned
        victim = root / planned[0]
        victim.write_bytes(victim.read_bytes() + b"\nEdited by another session.\n")
        index = root / INDEX_FILE
        index.write_bytes(index.read_bytes() + ADDED_LINE)

    after_plan(monkeypatch, change)
    result = cli("run", root, "--repo", repo, "--yes", "--now", NOW)
    planned = seen["planned"]
    victim = planned[0]
    assert len(planned) >= 5
    assert result.code == ExitCode.REFUSED, result.err
    assert f"skipped {victim}" in result.err and "changed since the plan" in result.err
    assert (root / victim).read_bytes().endswith(b"Edited by another session.\n")
    assert not (root / "deaccessioned" / victim).exists()
    for other in planned[1:]:
        assert not (root / other).exists() and (root / "deaccessioned" / other).exists()
    assert (root / INDEX_FILE).read_bytes().endswith(ADDED_LINE)
    changed = Baseline({**base.bodies, victim: (root / victim).read_bytes()},
                       base.dangling | {"meanwhile.md"})
    assert_whole(root, changed)


def test_a_file_deleted_after_the_plan_is_skipped_and_the_rest_proceed(
        cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch,
        memory: tuple[Path, Path]) -> None:
    root, repo = memory
    base = Baseline.of(root)
    seen: dict[str, list[str]] = {}

    def change(plan: Plan) -> None:
        seen["planned"] = withdrawals(plan)
        (root / seen["planned"][-1]).unlink()

    after_plan(monkeypatch, change)
    result = cli("run", root, "--repo", repo, "--yes", "--now", NOW)
    gone = seen["planned"][-1]
    assert result.code == ExitCode.REFUSED, result.err
    assert f"skipped {gone}" in result.err and "gone since the plan" in result.err
    assert not (root / "deaccessioned" / gone).exists()
    for other in seen["planned"][:-1]:
        assert (root / "deaccessioned" / other).exists()
    bodies = {name: body for name, body in base.bodies.items() if name != gone}
    assert_whole(root, Baseline(bodies, base.dangling | {gone}))


APPENDER = """
import os, sys, time
path, stop = sys.argv[1], sys.argv[2]
n = 0
while not os.path.exists(stop):
    n += 1
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    os.write(fd, f"Note {n} appended by another session.\\n".encode())
    os.close(fd)
    time.sleep(0.0005)
print(n)
"""


def test_lines_appended_to_the_index_during_a_run_are_all_kept(
        cli: Callable[..., CliResult], memory: tuple[Path, Path], tmp_path: Path) -> None:
    """Claude Code may write MEMORY.md at any moment: a process appends a line every half
    millisecond for the whole of `run --yes`; every one of them must be there afterwards."""
    root, repo = memory
    stop = tmp_path / "stop"
    writer = subprocess.Popen([sys.executable, "-c", APPENDER, str(root / INDEX_FILE),
                               str(stop)], stdout=subprocess.PIPE, text=True)
    try:
        result = cli("run", root, "--repo", repo, "--yes", "--now", NOW)
    finally:
        stop.touch()
        appended = int(writer.communicate(timeout=60)[0])
    assert result.code == ExitCode.OK, result.err
    assert len(list((root / "deaccessioned").iterdir())) >= 5 and appended > 100
    index = (root / INDEX_FILE).read_text()
    missing = [n for n in range(1, appended + 1)
               if f"Note {n} appended by another session.\n" not in index]
    assert not missing, f"{len(missing)} of {appended} appended lines lost"


def test_two_runs_with_different_state_directories_never_interleave(
        memory: tuple[Path, Path], tmp_path: Path) -> None:
    """The pid lock lives under XDG_STATE_HOME; the flock on the memory directory is what
    two processes with different state homes share. Each run finishes or is refused whole:
    no register id twice, every tombstone with its one row."""
    root, repo = memory
    argv = [*cli_argv(), "run", str(root), "--repo", str(repo), "--yes", "--now", NOW]
    runs = [subprocess.Popen(argv, env=cli_env(tmp_path / f"state-{n}"), text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE) for n in (1, 2)]
    codes = [(run.wait(timeout=300), run.stderr.read() if run.stderr else "") for run in runs]
    assert {code for code, _ in codes} <= {ExitCode.OK, ExitCode.REFUSED}, codes
    assert ExitCode.OK in {code for code, _ in codes}
    rows = read_log(root).rows
    assert len({row.register_id for row in rows}) == len(rows) >= 5
    assert sorted(p.name for p in (root / "deaccessioned").iterdir()) == \
        sorted(Path(row.tombstone).name for row in rows)
