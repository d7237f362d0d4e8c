"""Crash safety for inline index facts: a kill at every file operation of a withdraw,
withdraw + inoculate or restore of `MEMORY.md#L<n>`, then `recover`, leaves the line in
exactly one place — MEMORY.md, or a tombstone with its register row — and a SIGKILLed
batch of facts and topics recovers the same way."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine import journal
from prune_memory.engine.inoculate import inoculate
from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.session import recover
from prune_memory.engine.tombstone import Tombstone, parse_tombstone
from prune_memory.engine.withdraw import withdraw
from prune_memory.model import INDEX_FILE
from prune_memory.plan import Inoculation
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import take_snapshot
from prune_memory.store.temps import TEMP_SUFFIX
from tests.engine.test_crash import run_trial
from tests.faults import Killed, die_after

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
INDEX = b"# M\r\n- [A](a.md) a\r\n- Deploys go out on Tuesdays\r\n- [B](b.md) b\r\n- last"
LINE = "- Deploys go out on Tuesdays"
FILE = "MEMORY.md#L3"


def build(root: Path) -> None:
    root.mkdir(parents=True)
    (root / "a.md").write_bytes(b"---\nname: a\n---\nA\n")
    (root / "b.md").write_bytes(b"---\nname: b\n---\nB\n")
    (root / INDEX_FILE).write_bytes(INDEX)


def live_tombstones(root: Path) -> dict[str, Tombstone]:
    """Tombstones whose register row is not followed by a restoration, by register id."""
    log = read_log(root)
    restored = {c.register_id for c in log.changes if c.change == "restored"}
    return {row.register_id: parse_tombstone((root / row.tombstone).read_bytes())
            for row in log.rows if row.register_id not in restored}


def assert_whole(root: Path) -> None:
    index = (root / INDEX_FILE).read_bytes()
    here = index.decode().splitlines().count(LINE)
    stones = [s for s in live_tombstones(root).values() if s.header.original_file == FILE]
    assert here + len(stones) == 1, "the line is in two places or none"
    if here:
        assert index == INDEX
    else:
        assert stones[0].original == (LINE + "\r\n").encode()
        superseded = stones[0].header.superseded_by
        sup_line = [ln for ln in index.decode().split("\r\n") if "superseded_" in ln]
        expected = INDEX.replace((LINE + "\r\n").encode(),
                                 (sup_line[0] + "\r\n").encode() if superseded else b"")
        assert index == expected
        assert not superseded or (root / superseded).exists()
    rows = read_log(root).rows
    assert {p.relative_to(root).as_posix() for p in root.glob("deaccessioned/*")} == \
        {row.tombstone for row in rows}
    assert not [p for p in root.rglob("*") if p.name.endswith(TEMP_SUFFIX)]
    assert not list(journal.journal_dir(root).iterdir())
    register = [(r.register_id, r.tombstone) for r in rows]
    assert scan(load_memory_dir(root), register).clean


def run_op(root: Path, op: str) -> None:
    snap = take_snapshot(root, NOW)
    request = WithdrawRequest(FILE, "session chatter", "1-ephemeral")
    if op == "restore":
        restore(root, "2026-11-29-01", now=NOW)
    elif op == "withdraw+inoculate":
        inoculate(root, FILE, Inoculation("p", "e", "r", "d"), snapshot=snap, now=NOW,
                        withdraw=request)
    else:
        withdraw(root, request, snapshot=snap, now=NOW)


@pytest.mark.parametrize("op", ["withdraw", "withdraw+inoculate", "restore"])
def test_every_crash_point_recovers(tmp_path: Path, op: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for budget in range(20):
        root = tmp_path / f"{op}-{budget}"
        build(root)
        if op == "restore":
            run_op(root, "withdraw")
        with monkeypatch.context() as patch:
            die_after(patch, budget)
            try:
                run_op(root, op)
                finished = True
            except Killed:
                finished = False
        recover(root)
        assert_whole(root)
        if finished:
            return
    pytest.fail("the step never finished within 20 file operations")


@pytest.mark.parametrize(("budget", "status"), [(2, "rolled-back"), (3, "done")])
def test_a_line_edited_between_crash_and_recover(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 budget: int, status: str) -> None:
    """Killed before the register row (budget 2: journal, tombstone) the withdrawal is
    undone and the edited line stays; after it (budget 3) the step is past its commit point
    and finishes, and the edited text, no longer the fact, stays too."""
    root = tmp_path / "memory"
    build(root)
    snap = take_snapshot(root, NOW)
    with monkeypatch.context() as patch:
        die_after(patch, budget)
        with pytest.raises(Killed):
            withdraw(root, WithdrawRequest(FILE, "x"), snapshot=snap, now=NOW)
    edited = INDEX.replace(b"Tuesdays", b"Wednesdays")
    (root / INDEX_FILE).write_bytes(edited)
    recovered, _ = recover(root)
    assert [s.status for s in recovered.steps] == [status]
    assert (root / INDEX_FILE).read_bytes() == edited
    rows = read_log(root).rows
    assert len(rows) == (status == "done")
    assert {p.relative_to(root).as_posix() for p in root.glob("deaccessioned/*")} == \
        {row.tombstone for row in rows}
    assert not list(journal.journal_dir(root).iterdir())


FACTS = 150


def build_batch(root: Path) -> dict[str, str]:
    """150 distinct facts between 50 topic lines; returns fact id → line text."""
    root.mkdir(parents=True)
    lines, found = ["# Memory", ""], {}
    for n in range(FACTS):
        if n % 3 == 0:
            name = f"topic_{n:02d}.md"
            (root / name).write_text(f"---\nname: t{n}\n---\nTopic {n}\n")
            lines.append(f"- [Topic {n}]({name}) — about {n}")
        lines.append(f"- Fact number {n} about the build")
        found[f"MEMORY.md#L{len(lines)}"] = lines[-1]
    (root / INDEX_FILE).write_text("\n".join(lines) + "\n")
    return found


def test_sigkill_during_a_batch_of_facts_then_recover(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    root = tmp_path / "memory"
    found = build_batch(root)
    original = (root / INDEX_FILE).read_text()
    topics = sorted(p.name for p in root.glob("topic_*.md"))
    plan = [*found, *topics[:5]]
    manifest, counts = "-", []
    for _ in range(5):
        rng.shuffle(plan)
        manifest = run_trial(root, manifest, plan, rng.uniform(0, 0.4), no_fsync=True)
        recover(root)
        index = (root / INDEX_FILE).read_text().splitlines()
        stones = {s.header.original_file: s for s in live_tombstones(root).values()}
        for file, text in found.items():
            assert index.count(text) + (file in stones) == 1, file
            assert file not in stones or stones[file].original == (text + "\n").encode()
        kept = [ln for ln in original.splitlines() if ln in index]
        assert kept == index, "the lines left are the original lines, in order"
        assert not list(journal.journal_dir(root).iterdir())
        counts.append(len(stones))
    assert counts[-1] > 0 and len(set(counts)) > 1  # the kills landed at different points
