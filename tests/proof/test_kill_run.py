"""SIGKILL at random moments of a real `prune-memory run --yes` on a 1,000-entry directory.

Each trial copies the generated directory, starts the console script, kills it after a
random delay (anywhere from start-up to the last write), runs `prune-memory recover` and
checks that the directory is whole (tests/proof/harness.py). One whole run first times the
plan and the pass, the window the kills are drawn from, so most land while the pass is
writing. CI kills 10 runs; `make fault-long` kills 55.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.gen_store import MemoryShares, write_memory_dir
from prune_memory.engine import journal
from tests.conftest import CliResult, write_trust_config
from tests.jsonstore.storegen import Shares
from tests.proof.harness import Baseline, assert_whole, cli_argv, cli_env

# These tests drive the write engine through `run --yes`: every evidence class is trusted.
pytestmark = pytest.mark.usefixtures("trust_all")

ENTRIES = 1000
NOW = "2026-11-29T12:00:00+00:00"
SHARES = MemoryShares(text=Shares(exact=0.04, near=0.03, negation=0.02), ephemeral=0.07,
                      stale_path=0.0, live_path=0.0, secret=0.005)


@dataclass(frozen=True)
class Store:
    source: Path
    repo: Path
    base: Baseline
    plan_s: float
    full_s: float
    withdrawn: int


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The generated directory, and one whole run of it that times the plan (until the
    snapshot folder appears) and the pass; that run must finish cleanly."""
    base = tmp_path_factory.mktemp("kill-run")
    source, repo = base / "source", base / "repo"
    write_memory_dir(source, ENTRIES, seed=5, shares=SHARES)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    shutil.copytree(source, base / "full")
    argv = [*cli_argv(), "run", str(base / "full"), "--repo", str(repo), "--yes", "--now", NOW]
    start = time.perf_counter()
    write_trust_config(base / "config")
    env = {**cli_env(base / "state"), "XDG_CONFIG_HOME": str(base / "config")}
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    plan_s = None
    while proc.poll() is None:
        if plan_s is None and list((base / "state").glob("prune-memory/snapshots/*/*")):
            plan_s = time.perf_counter() - start
        time.sleep(0.02)
    full_s = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    withdrawn = len(list((base / "full" / "deaccessioned").glob("*.md")))
    assert withdrawn > 50, "the generated store should give the pass work to do"
    return Store(source, repo, Baseline.of(source), plan_s or full_s / 2, full_s, withdrawn)


def kill_trial(store: Store, work: Path, delay: float, monkeypatch: pytest.MonkeyPatch,
               cli: Callable[..., CliResult]) -> tuple[bool, int, bool]:
    """One killed (or, if it beat the clock, finished) run, recovered and checked; whether
    it was killed, how many entries are withdrawn after `recover`, and whether the kill cut
    a journalled step short."""
    root, state = work / "memory", work / "state"
    # Hard links are a safe, fast copy: the engine replaces files by rename and never
    # writes into one in place (the invariants would catch a source changed under us).
    shutil.copytree(store.source, root, copy_function=os.link)
    argv = [*cli_argv(), "run", str(root), "--repo", str(store.repo), "--yes", "--now", NOW]
    proc = subprocess.Popen(argv, env=cli_env(state), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        code = proc.wait(timeout=delay)
        killed = False
        assert code == 0
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed = True
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    mid_step = bool(journal.pending(root))
    recovered = cli("recover", root)  # the command, in this process: no start-up to pay
    assert recovered.code == 0, recovered.err
    return killed, assert_whole(root, store.base, state=state), mid_step


def run_trials(store: Store, tmp_path: Path, kills: int, monkeypatch: pytest.MonkeyPatch,
               cli: Callable[..., CliResult]) -> list[tuple[bool, int, bool]]:
    """Trials until `kills` runs were killed (a run that beats its delay finished: it is
    checked too, but does not count); at most twice as many trials in all."""
    rng = random.Random(8_2026)
    outcomes: list[tuple[bool, int, bool]] = []
    trial = 0
    while sum(killed for killed, _, _ in outcomes) < kills and trial < 2 * kills:
        # Two in ten anywhere in the run; the rest while it writes (after the plan).
        low = 0.05 if trial % 10 < 2 else store.plan_s
        delay = rng.uniform(low, 0.95 * store.full_s)
        outcomes.append(kill_trial(store, tmp_path / f"t{trial}", delay, monkeypatch, cli))
        shutil.rmtree(tmp_path / f"t{trial}")
        trial += 1
    return outcomes


@pytest.mark.long  # kills by the clock: whether a run beats its delay is the machine's load
def test_sigkill_during_run_then_recover(store: Store, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         cli: Callable[..., CliResult]) -> None:
    outcomes = run_trials(store, tmp_path, 10, monkeypatch, cli)
    assert sum(killed for killed, _, _ in outcomes) == 10


@pytest.mark.long
def test_sigkill_during_run_then_recover_long(store: Store, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              cli: Callable[..., CliResult]) -> None:
    outcomes = run_trials(store, tmp_path, 55, monkeypatch, cli)
    killed = [(withdrawn, mid) for was_killed, withdrawn, mid in outcomes if was_killed]
    assert len(killed) >= 55
    # The withdrawals are one journalled batch: a kill inside it leaves the record, and
    # recover finishes every entry; a kill before it leaves nothing withdrawn.
    assert any(mid for _, mid in killed), "no kill landed mid-apply"
    assert all(w in (0, store.withdrawn) or not mid for w, mid in killed)
