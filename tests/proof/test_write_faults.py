"""ENOSPC and EACCES at every write step of `run --yes`, then `recover`: nothing is lost.

A clean run is counted first: every call of `atomic.atomic_write`, `atomic.rewrite`,
`atomic.remove_file` and `atomic.make_dir` is a write step (the engine's only ways to change
a file). Then, for each step k and each error, a fresh copy of the directory is run with that
step failing.
The command must stop with a message (exit 4, never a crash), recover must bring the
directory back whole, and a second run must then finish the job. The byte-level seam
`atomic.write_all` (every atomic write and every file copied into a snapshot) gets the
same treatment in the long run.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.gen_store import MemoryShares, write_memory_dir
from prune_memory.engine.session import recover
from prune_memory.errors import ExitCode
from prune_memory.store import atomic
from tests.conftest import CliResult
from tests.jsonstore.storegen import Shares
from tests.proof.harness import Baseline, assert_whole

# These tests drive the write engine through `run --yes`: every evidence class is trusted.
pytestmark = pytest.mark.usefixtures("trust_all")

NOW = "2026-11-29T12:00:00+00:00"
STEP_SEAMS = ("atomic_write", "rewrite", "remove_file", "make_dir")
SHARES = MemoryShares(text=Shares(exact=0.1, near=0.02, negation=0.02), ephemeral=0.2,
                      stale_path=0.0, live_path=0.0, secret=0.0)


class Injected(OSError):
    """The fault: an OSError with a real errno, as the kernel would raise it."""


@dataclass
class Faults:
    """Counts calls through the patched seams and fails the `fail_at`-th one."""

    fail_at: int | None = None
    code: int = errno.ENOSPC
    calls: int = 0
    fired: bool = False

    def wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def patched(*args: Any) -> Any:
            self.calls += 1
            if self.calls == self.fail_at:
                self.fired = True
                raise Injected(self.code, os.strerror(self.code), str(args[0]))
            return original(*args)
        return patched


@contextmanager
def faults(monkeypatch: pytest.MonkeyPatch, seams: tuple[str, ...],
           plan: Faults) -> Iterator[Faults]:
    with monkeypatch.context() as patch:
        for name in seams:
            patch.setattr(atomic, name, plan.wrap(getattr(atomic, name)))
        yield plan


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("faults")
    write_memory_dir(base / "memory", 40, seed=3, shares=SHARES)
    subprocess.run(["git", "init", "-q", str(base / "repo")], check=True)
    return base / "memory", base / "repo"


def _run(cli: Callable[..., CliResult], root: Path, repo: Path) -> CliResult:
    return cli("run", root, "--repo", repo, "--yes", "--now", NOW)


def fault_trial(cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, work: Path,
                source: tuple[Path, Path], seams: tuple[str, ...], step: int,
                code: int) -> bool:
    """Run with write `step` failing; recover; check; finish. True if the fault fired."""
    root = work / "memory"
    shutil.copytree(source[0], root)
    monkeypatch.setenv("XDG_STATE_HOME", str(work / "state"))
    base = Baseline.of(root)
    with faults(monkeypatch, seams, Faults(fail_at=step, code=code)) as plan:
        result = _run(cli, root, source[1])
    if plan.fired:
        assert result.code == ExitCode.REFUSED, (step, result.code, result.err)
        assert os.strerror(code) in result.err, result.err
        assert "crash report" not in result.err
    recover(root)
    assert_whole(root, base, state=work / "state")
    finished = _run(cli, root, source[1])
    assert finished.code == ExitCode.OK, finished.err
    assert_whole(root, base, state=work / "state")
    return plan.fired


def count_steps(cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, work: Path,
                source: tuple[Path, Path], seams: tuple[str, ...]) -> int:
    shutil.copytree(source[0], work / "memory")
    monkeypatch.setenv("XDG_STATE_HOME", str(work / "state"))
    with faults(monkeypatch, seams, Faults()) as plan:
        assert _run(cli, work / "memory", source[1]).code == ExitCode.OK
    assert len(list((work / "memory" / "deaccessioned").glob("*.md"))) >= 4
    return plan.calls


def sweep(cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
          source: tuple[Path, Path], seams: tuple[str, ...], stride: int) -> int:
    total = count_steps(cli, monkeypatch, tmp_path / "count", source, seams)
    fired = 0
    for step in range(1, total + 1, stride):
        for code in (errno.ENOSPC, errno.EACCES):
            work = tmp_path / f"{step}-{code}"
            fired += fault_trial(cli, monkeypatch, work, source, seams, step, code)
            shutil.rmtree(work)
    return fired


def test_a_failing_write_step_stops_cleanly_and_recovers(
        cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        source: tuple[Path, Path]) -> None:
    assert sweep(cli, monkeypatch, tmp_path, source, STEP_SEAMS, stride=6) >= 7


@pytest.mark.long
def test_every_write_step_fails_in_turn_long(
        cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        source: tuple[Path, Path]) -> None:
    # About 24 write steps a run, both errors at each: the withdrawals are one batch (one
    # rewrite of the index and of the log for all of them).
    assert sweep(cli, monkeypatch, tmp_path, source, STEP_SEAMS, stride=1) >= 40


@pytest.mark.long
def test_every_byte_level_write_fails_in_turn_long(
        cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        source: tuple[Path, Path]) -> None:
    """`write_all` also carries each file copied into the snapshot."""
    assert sweep(cli, monkeypatch, tmp_path, source, ("write_all",), stride=1) >= 60
