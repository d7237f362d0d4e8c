"""Acceptance: withdraw any subset of a generated memory directory, restore each entry,
and every byte is back — apart from the pruning log and the tombstone folder."""

from __future__ import annotations

import random
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.withdraw import withdraw_many
from prune_memory.model import LOG_FILE, TOMBSTONE_DIR
from prune_memory.store.snapshot import take_snapshot

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
Case = tuple[dict[str, bytes], list[str], list[str]]


@st.composite
def memory_dirs(draw: st.DrawFn) -> Case:
    """Topic files (any bytes), an index over some of them with headings, blank lines and
    prose in any line-ending style, and orders in which to withdraw and then restore."""
    count = draw(st.integers(1, 6))
    names = [f"topic_{n}.md" for n in range(count)]
    files = {name: draw(st.binary(max_size=200)) for name in names}
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    lines: list[str] = []
    for n, name in enumerate(names):
        lines += draw(st.lists(st.sampled_from(["", f"## Part {n}", "prose"]), max_size=2))
        if draw(st.integers(0, 4)):  # most entries are indexed, a few are orphans
            lines.append(f"- [Topic {n}]({name}) — hook {n}")
        if n == 0 and draw(st.booleans()):
            lines.append(f"- again: [T{n}](<{name}>)")
    text = eol.join(lines) + (eol if draw(st.booleans()) else "")
    files["MEMORY.md"] = ("\ufeff" if draw(st.booleans()) else "").encode() + text.encode()
    files["notes.txt"] = b"not a memory"
    chosen = draw(st.lists(st.sampled_from(names), unique=True))
    shuffled = chosen[:]
    random.Random(draw(st.integers(0, 999))).shuffle(shuffled)
    return files, chosen, shuffled


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != LOG_FILE and TOMBSTONE_DIR not in p.parts}


def _round_trip(case: Case) -> None:
    files, withdraw_order, restore_order = case
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "memory"
        root.mkdir()
        for name, data in files.items():
            (root / name).write_bytes(data)
        before = _tree(root)
        snap = take_snapshot(root, NOW)
        result = withdraw_many(root, [WithdrawRequest(f, "generated") for f in
                                            withdraw_order], snapshot=snap, now=NOW)
        assert result.skipped == ()
        ids = dict(zip(withdraw_order, result.register_ids, strict=True))
        for n, name in enumerate(restore_order):
            restore(root, ids[name], now=NOW + timedelta(minutes=n))
        assert _tree(root) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memory_dirs())
def test_withdraw_any_subset_then_restore_each(case: Case) -> None:
    _round_trip(case)


@pytest.mark.long
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memory_dirs())
def test_withdraw_any_subset_then_restore_each_long(case: Case) -> None:
    _round_trip(case)
