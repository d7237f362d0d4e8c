"""Acceptance: a withdrawal batch killed with SIGKILL at each of its steps in turn.

The worker kills itself as its Nth file operation begins (a deterministic fault point:
every journalled write, rewrite and removal is counted), so every step of a small batch is
covered, and chosen steps of a 500-entry one, on any machine however loaded. Kills sent by
the clock at random moments run only in `make fault-long`, and no test counts where they
landed. After every kill, `recover` runs and the directory must be whole: every original
body in exactly one place (its file, or a tombstone with a matching register row), no temp
files, an index that points only at files that exist, and a scan showing nothing but the
findings planted before the run.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from prune_memory.engine import journal
from prune_memory.engine.inoculate import inoculate
from prune_memory.engine.restore import restore
from prune_memory.engine.session import recover
from prune_memory.engine.tombstone import Tombstone, parse_tombstone
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw, withdraw_many
from prune_memory.model import INDEX_FILE, MemoryDir
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.temps import TEMP_SUFFIX
from tests.faults import Killed, die_after

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("crash_worker.py")
ENTRIES = 500
PLANTED_DANGLING = "gone_planted.md"
PLANTED_ORPHAN = "orphan_planted.md"


def build_memory(root: Path, entries: int = ENTRIES) -> dict[str, bytes]:
    """Indexed entries in sections (500 in ten by default), one orphan, one dangling link."""
    root.mkdir(parents=True)
    originals: dict[str, bytes] = {}
    lines = ["# Memory", ""]
    per_section = max(1, entries // 10)
    for section in range(-(-entries // per_section)):
        lines.append(f"## Area {section}")
        for item in range(min(per_section, entries - section * per_section)):
            n = section * per_section + item
            name = f"entry_{n:03d}.md"
            body = (f"---\nname: entry {n}\ndescription: Fact {n} about area {section}\n"
                    f"type: project\n---\nThe build of part {n} takes {n % 7} steps.\n")
            originals[name] = body.encode()
            (root / name).write_bytes(originals[name])
            lines.append(f"- [Entry {n}]({name}) — fact {n}")
        lines.append("")
    lines.append(f"- [Gone]({PLANTED_DANGLING}) — planted: points at nothing")
    (root / INDEX_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / PLANTED_ORPHAN).write_text("---\nname: orphan\ndescription: planted\n"
                                       "type: project\n---\nnobody links me\n")
    return originals


def scan_view(memdir: MemoryDir) -> dict[str, object]:
    register = [(r.register_id, r.tombstone) for r in read_log(memdir.root).rows]
    found = scan(memdir, register).to_json()
    found.pop("unloaded")  # shrinks as entries leave the index: not a planted finding
    found.pop("orphan_share")
    return {key: [{k: v for k, v in item.items() if k != "line"} if isinstance(item, dict)
                  else item for item in items] for key, items in found.items()}


def _worker(root: Path, manifest: str, plan: list[str], no_fsync: bool,
            stop_at: int | None = None) -> subprocess.Popen[str]:
    argv = [sys.executable, str(WORKER), str(root), manifest, ",".join(plan),
            *(["--no-fsync"] if no_fsync else []),
            *(["--stop-at", str(stop_at)] if stop_at is not None else [])]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def run_trial(root: Path, manifest: str, plan: list[str], delay: float,
              no_fsync: bool) -> str:
    """Start the batch, kill it `delay` seconds after it is ready; return the manifest."""
    worker = _worker(root, manifest, plan, no_fsync)
    assert worker.stdout is not None
    ready = worker.stdout.readline().split()
    assert ready and ready[0] == "ready", ready
    time.sleep(delay)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    worker.stdout.close()
    return ready[1]


def run_to_step(root: Path, manifest: str, plan: list[str], step: int) -> tuple[str, bool]:
    """Run the batch until it kills itself as file operation `step` begins; the manifest,
    and whether the batch finished first."""
    worker = _worker(root, manifest, plan, True, step)
    out, _ = worker.communicate()
    ready = out.split()
    assert ready[:1] == ["ready"], out
    if worker.returncode == 0:
        assert "done" in out
        return ready[1], True
    assert worker.returncode == -signal.SIGKILL, worker.returncode
    return ready[1], False


_PARSED: dict[tuple[str, int, int], Tombstone] = {}


def _parsed(path: Path) -> Tombstone:
    """parse_tombstone, once per file version: later trials re-check earlier tombstones."""
    info = path.stat()
    key = (str(path), info.st_mtime_ns, info.st_size)
    if key not in _PARSED:
        _PARSED[key] = parse_tombstone(path.read_bytes())
    return _PARSED[key]


def assert_whole(root: Path, originals: dict[str, bytes], baseline: dict[str, object]) -> int:
    """The invariants every trial must leave; returns how many entries are withdrawn."""
    rows = {row.register_id: row for row in read_log(root).rows}
    in_tombstones: dict[str, bytes] = {}
    for rid, row in rows.items():
        stone = _parsed(root / row.tombstone)
        assert stone.header.register_id == rid
        assert hashlib.sha256(stone.original).hexdigest() == stone.header.original_sha256
        assert stone.header.original_file not in in_tombstones, "withdrawn twice"
        in_tombstones[stone.header.original_file] = stone.original
    on_disk = {p.relative_to(root).as_posix() for p in root.glob("deaccessioned/*")}
    assert on_disk == {row.tombstone for row in rows.values()}, "tombstone without a row"
    for name, body in originals.items():
        here = (root / name).read_bytes() if (root / name).exists() else None
        assert (here is None) != (name not in in_tombstones), f"{name} in two places or none"
        assert (here if here is not None else in_tombstones[name]) == body
    assert not [p for p in root.rglob("*") if p.name.endswith(TEMP_SUFFIX)]
    assert not list(journal.journal_dir(root).iterdir())
    memdir = load_memory_dir(root)
    assert memdir.index is not None
    targets = {link.target for line in memdir.index.lines for link in line.links}
    assert {t for t in targets if not (root / t).exists()} == {PLANTED_DANGLING}
    assert targets - {PLANTED_DANGLING} == {n for n in originals if (root / n).exists()}
    assert scan_view(memdir) == baseline
    return len(in_tombstones)


def crash_trials(tmp_path: Path, trials: int, window: float,
                 no_fsync: bool) -> tuple[list[int], set[tuple[int, int, int]]]:
    """Withdrawn counts after each trial, and where the kills landed: the tombstones, rows
    and removed originals each kill left before `recover` ran."""
    rng = random.Random(20261129)
    withdrawn_after: list[int] = []
    landed: set[tuple[int, int, int]] = set()
    interrupted = 0
    root, originals, manifest, baseline = None, {}, "-", {}
    for trial in range(trials):
        if root is None or (len(withdrawn_after) and withdrawn_after[-1] >= ENTRIES - 25):
            root = tmp_path / f"memory-{trial}"
            originals = build_memory(root)
            manifest, baseline = "-", scan_view(load_memory_dir(root))
        plan = sorted(n for n in originals if (root / n).exists())
        rng.shuffle(plan)
        manifest = run_trial(root, manifest, plan, rng.uniform(0, window), no_fsync)
        pending = journal.pending(root)
        assert len(pending) <= 1  # at most the one step the kill interrupted
        landed.add((len(list(root.glob("deaccessioned/*"))), len(read_log(root).rows),
                    sum(not (root / n).exists() for n in originals)))
        recover(root)
        withdrawn_after.append(assert_whole(root, originals, baseline))
        interrupted += len(pending)
    if os.environ.get("PRUNE_MEMORY_CRASH_STATS"):
        print(f"withdrawn after each trial: {withdrawn_after}; steps recovered: {interrupted}; "
              f"kills landed at {sorted(landed)}")
    return withdrawn_after, landed


def test_sigkill_at_every_step_of_a_batch_then_recover(tmp_path: Path) -> None:
    """Five withdrawals as one batch, killed as each of its file operations begins in turn,
    until one run finishes: every step is interrupted once, and each leaves a whole folder."""
    entries = 5
    for step in range(20 * entries):
        root = tmp_path / f"memory-{step}"
        originals = build_memory(root, entries)
        baseline = scan_view(load_memory_dir(root))
        _, finished = run_to_step(root, "-", sorted(originals), step)
        assert len(journal.pending(root)) <= (0 if finished else 1)
        recover(root)
        withdrawn = assert_whole(root, originals, baseline)
        if finished:
            assert withdrawn == entries and step > 2 * entries  # two or more steps each
            return
        shutil.rmtree(root)
    pytest.fail(f"a batch of {entries} never finished within {20 * entries} file operations")


def test_sigkill_at_chosen_steps_of_a_large_batch_then_recover(tmp_path: Path) -> None:
    """The 500-entry batch killed at fixed steps: before the journal, inside the first
    entries, and hundreds of steps in. `recover` finishes a batch that had begun, so each
    kill leaves none or all of the 500 withdrawn, every body in one place."""
    withdrawn = []
    for step in (0, 2, 13, 701):
        root = tmp_path / f"memory-{step}"
        originals = build_memory(root)
        baseline = scan_view(load_memory_dir(root))
        _, finished = run_to_step(root, "-", sorted(originals), step)
        assert not finished
        recover(root)
        withdrawn.append(assert_whole(root, originals, baseline))
        shutil.rmtree(root)
    assert withdrawn[0] == 0 and withdrawn[-1] == ENTRIES
    assert set(withdrawn) <= {0, ENTRIES}


@pytest.mark.long
def test_sigkill_at_random_moments_then_recover(tmp_path: Path) -> None:
    """Kills sent by the clock: they land wherever the machine's load puts them, so only
    the invariants are checked, never where the kills landed."""
    counts, _landed = crash_trials(tmp_path, trials=30, window=0.3, no_fsync=True)
    assert len(counts) == 30


@pytest.mark.long
def test_sigkill_at_random_moments_then_recover_long(tmp_path: Path) -> None:
    counts, _landed = crash_trials(tmp_path, trials=60, window=3.0, no_fsync=False)
    assert len(counts) == 60


@pytest.mark.long
def test_a_batch_left_alone_finishes(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    originals = build_memory(root)
    baseline = scan_view(load_memory_dir(root))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(WORKER), str(root), "-", ",".join(originals),
                           "--no-fsync"], capture_output=True, text=True, env=env, check=True)
    assert f"done {ENTRIES} 0" in done.stdout
    assert assert_whole(root, originals, baseline) == ENTRIES
    shutil.rmtree(root)


@pytest.mark.parametrize("op", ["withdraw", "withdraw+inoculate", "restore", "update",
                                "inoculate", "revert"])
def test_every_crash_point_of_a_step_recovers(tmp_path: Path, op: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import UTC, datetime

    from prune_memory.engine.results import WithdrawRequest
    from prune_memory.plan import Inoculation
    from prune_memory.store.snapshot import take_snapshot

    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    for budget in range(20):
        root = tmp_path / f"{op}-{budget}"
        originals = build_small(root)
        snap = take_snapshot(root, now)
        if op == "restore":
            withdraw(root, WithdrawRequest("b.md", "x"), snapshot=snap, now=now)
        if op == "revert":
            update_entry(root, "b.md", "new body", reason="x", snapshot=snap, now=now)
        with monkeypatch.context() as patch:
            die_after(patch, budget)
            try:
                if op in ("restore", "revert"):
                    restore(root, "2026-11-29-01", now=now)
                elif op == "inoculate":
                    inoculate(root, "b.md", Inoculation("p", "e", "r", "d"), snapshot=snap,
                              now=now)
                elif op == "update":
                    update_entry(root, "b.md", "new body", reason="x", snapshot=snap,
                                       now=now)
                else:
                    ino = Inoculation("p", "e", "r", "d") if op != "withdraw" else None
                    request = WithdrawRequest("b.md", "x")
                    if ino:
                        inoculate(root, "b.md", ino, snapshot=snap, now=now,
                                        withdraw=request)
                    else:
                        withdraw(root, request, snapshot=snap, now=now)
                finished = True
            except Killed:
                finished = False
        recover(root)
        _assert_small_whole(root, originals, op)
        if finished:
            return
    pytest.fail("the step never finished within 20 file operations")


def build_small(root: Path) -> dict[str, bytes]:
    root.mkdir(parents=True)
    originals = {"a.md": b"---\nname: a\n---\nA\n", "b.md": b"---\nname: b\n---\nB\r\n"}
    for name, data in originals.items():
        (root / name).write_bytes(data)
    (root / INDEX_FILE).write_bytes(b"# M\n- [A](a.md) a\n- [B](b.md) b\n")
    return originals


def _assert_small_whole(root: Path, originals: dict[str, bytes], op: str) -> None:
    rows = read_log(root).rows
    stones = {row.register_id: parse_tombstone((root / row.tombstone).read_bytes())
              for row in rows}
    restored = {c.register_id for c in read_log(root).changes if c.change == "restored"}
    here = (root / "b.md").read_bytes() if (root / "b.md").exists() else None
    live_stones = [s for rid, s in stones.items() if rid not in restored]
    if op == "revert":  # the updated text, or (restored) the original: never anything else
        back = any(c.change == "restored" for c in read_log(root).changes)
        assert here == originals["b.md"] if back else here is not None and b"new body" in here
    elif op == "inoculate":  # the entry stays; its counter-memory is indexed or not there
        assert here == originals["b.md"]
        for counter in root.glob("superseded_*.md"):
            assert f"({counter.name})".encode() in (root / INDEX_FILE).read_bytes()
    elif op == "update":  # not done and no row, or done with the earlier version kept
        assert here is not None and len(rows) <= 1
        assert here == originals["b.md"] if not rows else \
            stones[rows[0].register_id].original == originals["b.md"]
    else:
        assert (here is None) == bool(live_stones), "body in two places or none"
        body = here if here is not None else live_stones[0].original
        assert body == originals["b.md"]
        index = (root / INDEX_FILE).read_bytes()
        assert (b"(b.md)" in index) == (here is not None)
    assert not [p for p in root.rglob("*") if p.name.endswith(TEMP_SUFFIX)]
    assert not list(journal.journal_dir(root).iterdir())
    assert {p.relative_to(root).as_posix() for p in root.glob("deaccessioned/*")} == \
        {row.tombstone for row in rows}


@pytest.mark.parametrize(("budget", "expected"), [(2, "rolled-back"), (4, "cancelled")])
def test_a_file_edited_between_crash_and_recover_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, budget: int, expected: str) -> None:
    """Killed before the register row (budget 2) the withdrawal is undone; after it
    (budget 4) it is cancelled and logged. Either way the newer text stays, indexed."""
    from datetime import UTC, datetime

    from prune_memory.engine.results import WithdrawRequest
    from prune_memory.store.snapshot import take_snapshot

    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    root = tmp_path / "memory"
    build_small(root)
    snap = take_snapshot(root, now)
    with monkeypatch.context() as patch:
        die_after(patch, budget)  # journal, tombstone[, index, register row], then killed
        with pytest.raises(Killed):
            withdraw(root, WithdrawRequest("b.md", "x"), snapshot=snap, now=now)
    (root / "b.md").write_bytes(b"edited by Claude Code meanwhile\n")
    recovered, _ = recover(root)
    assert [s.status for s in recovered.steps] == [expected]
    assert (root / "b.md").read_bytes() == b"edited by Claude Code meanwhile\n"
    assert b"- [B](b.md) b\n" in (root / INDEX_FILE).read_bytes()
    log = read_log(root)
    if expected == "rolled-back":
        assert log.rows == () and not list(root.glob("deaccessioned/*"))
    else:
        assert [c.change for c in log.changes] == ["withdrawal-cancelled"]
        assert parse_tombstone((root / log.rows[0].tombstone).read_bytes()).original == \
            b"---\nname: b\n---\nB\r\n"
    assert not list(journal.journal_dir(root).iterdir())


def test_every_crash_point_of_a_batch_recovers(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Three withdrawals as one step, killed after each file operation in turn: recover
    finishes the batch (or nothing had begun), every body in one place, links unlinked only
    for what left."""
    from datetime import UTC, datetime

    from prune_memory.engine.results import WithdrawRequest
    from prune_memory.store.snapshot import take_snapshot

    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    going = ("a.md", "b.md", "c.md")
    for budget in range(30):
        root = tmp_path / f"batch-{budget}"
        originals = build_small(root)
        originals["c.md"] = b"---\nname: c\n---\nC\n"
        (root / "c.md").write_bytes(originals["c.md"])
        (root / "kept.md").write_bytes(b"---\nname: kept\n---\nSee [[a]] and [[c|the C]].\n")
        (root / INDEX_FILE).write_bytes(b"# M\n- [A](a.md) a\n- [B](b.md) b\n- [C](c.md) c\n"
                                        b"- [K](kept.md) k\n")
        snap = take_snapshot(root, now)
        with monkeypatch.context() as patch:
            die_after(patch, budget)
            try:
                withdraw_many(root, [WithdrawRequest(f, "x") for f in going],
                                    snapshot=snap, now=now)
                finished = True
            except Killed:
                finished = False
        recover(root)
        rows = {row.register_id: row for row in read_log(root).rows}
        stones = {parse_tombstone((root / r.tombstone).read_bytes()).header.original_file: r
                  for r in rows.values()}
        index, kept = (root / INDEX_FILE).read_bytes(), (root / "kept.md").read_bytes()
        gone = [f for f in going if not (root / f).exists()]
        assert gone in ([], list(going)), gone  # the batch is finished, or never began
        for name in going:
            assert ((root / name).exists()) != (name in stones), name
            assert (f"({name})".encode() in index) == (root / name).exists()
        assert (b"[[a]]" in kept) == (not gone) and (b"[[c|the C]]" in kept) == (not gone)
        assert not list(journal.journal_dir(root).iterdir())
        assert not [p for p in root.rglob("*") if p.name.endswith(TEMP_SUFFIX)]
        if finished:
            return
    pytest.fail("the batch never finished within 30 file operations")
