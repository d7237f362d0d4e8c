"""An index line two memories share keeps the other's pointer when one is withdrawn.

Claude Code writes one pointer per line, but people group them by hand:
`- [Deploy](deploy.md), [Rollback](rollback.md) — release notes`. Withdrawing one of them
must not take the line away, or the other memory is never seen at session start again.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw, withdraw_many
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
INDEX = ("# Memory\n- [Deploy](deploy.md), [Rollback](rollback.md) — release notes\n"
         "- [CI](ci.md) — pipeline\n")


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": INDEX, "deploy.md": topic("deploy", "Deploy with make ship."),
        "rollback.md": topic("rollback", "Roll back with make undo."),
        "ci.md": topic("ci", "CI runs on push.")})


@pytest.mark.parametrize("many", [False, True])
def test_a_shared_line_stays_and_restore_gives_back_every_byte(memory: Path, tmp_path: Path,
                                                               many: bool) -> None:
    before = {p.name: p.read_bytes() for p in memory.iterdir() if p.is_file()}
    snap = take_snapshot(memory, NOW, tmp_path / "s")
    requests = [WithdrawRequest("deploy.md", "shipped differently now"),
                WithdrawRequest("ci.md", "CI moved")]
    if many:
        withdraw_many(memory, requests, snapshot=snap, now=NOW)
    else:
        for request in requests:
            withdraw(memory, request, snapshot=snap, now=NOW)
    assert (memory / "MEMORY.md").read_text() == \
        "# Memory\n- [Deploy](deploy.md), [Rollback](rollback.md) — release notes\n"
    for register_id in ("2026-11-29-02", "2026-11-29-01"):
        restore(memory, register_id, now=NOW, reason="back")
    assert (memory / "MEMORY.md").read_text() == INDEX
    assert {p.name: p.read_bytes() for p in memory.iterdir()
            if p.is_file() and p.name != "pruning-log.md"} == before


def _drops(memory: Path) -> list[str]:
    plan = build_plan(memory, PassOptions(repo=None, now=NOW))
    return [r["target"] for r in plan.reachability["repairs"] if r["kind"] == "drop-dangling"]


def test_a_shared_line_is_not_dropped_while_one_of_its_memories_is_there(
        memory: Path) -> None:
    (memory / "deploy.md").unlink()
    assert _drops(memory) == []
    (memory / "rollback.md").unlink()
    assert _drops(memory) == ["deploy.md"]  # nothing left on the line to point at


def test_an_update_never_replaces_a_shared_line_with_its_own(memory: Path,
                                                              tmp_path: Path) -> None:
    update_entry(memory, "deploy.md", "Deploy with make release.", reason="renamed",
                       snapshot=take_snapshot(memory, NOW, tmp_path / "s"), now=NOW,
                       rule="manual", index_line="- [Deploy](deploy.md) — how to release")
    assert (memory / "MEMORY.md").read_text() == INDEX
    update_entry(memory, "ci.md", "CI runs on tags.", reason="tags",
                       snapshot=take_snapshot(memory, NOW, tmp_path / "s2"), now=NOW,
                       rule="manual", index_line="- [CI](ci.md) — tag pipeline")
    assert "- [CI](ci.md) — tag pipeline\n" in (memory / "MEMORY.md").read_text()
