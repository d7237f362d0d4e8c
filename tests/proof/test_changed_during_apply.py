"""Another writer changes an entry while its withdrawal step is half done, then `recover`.

The step is stopped at a chosen write (a full disk), the entry is changed or deleted by
"Claude Code", and recovery must follow the engine's table (references/engine.md): before
the commit point (the register row) the step is rolled back and the index comes back byte
for byte; after it, the withdrawal is cancelled, logged, and the newer text kept; a body
that vanished before its tombstone was written stops recovery and points at the snapshot.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine import journal
from prune_memory.engine.inoculate import inoculate
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.session import recover
from prune_memory.engine.withdraw import withdraw
from prune_memory.errors import RefusedError
from prune_memory.model import INDEX_FILE, LOG_FILE
from prune_memory.plan import Inoculation
from prune_memory.store import atomic
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import read_snapshot_file, take_snapshot
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
NEWER = b"---\nname: b\n---\nRewritten by another session meanwhile.\n"
INDEX = ("# Memory\r\n- [A](a.md) \u2014 kept\r\n- [B](b.md) \u2014 going\r\n"
         "- [C](c.md) \u2014 kept\r\n")
INOCULATION = Inoculation("retry the cache warm-up", "the warm-up never helped",
                          "abandoned after three tries", "the cache warm-up notes")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "a.md": topic("a", "Alpha."), "b.md": topic("b", "Tried warming the cache."),
        "c.md": topic("c", "Gamma."), INDEX_FILE: INDEX})


@contextmanager
def stopped_at(monkeypatch: pytest.MonkeyPatch, seam: str, match: str) -> Iterator[None]:
    """ENOSPC at the first call of `atomic.<seam>` on a path containing `match`."""
    real = getattr(atomic, seam)
    fired: list[bool] = []

    def failing(path: Path, *rest: object) -> object:
        if match in str(path) and not fired:
            fired.append(True)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, *rest)

    with monkeypatch.context() as patch:
        patch.setattr(atomic, seam, failing)
        yield
    assert fired, f"{seam} was never called on {match}"


def _interrupted(root: Path, monkeypatch: pytest.MonkeyPatch, seam: str, match: str,
                 withdraw: Callable[[], object]) -> None:
    with stopped_at(monkeypatch, seam, match), pytest.raises(RefusedError):
        withdraw()
    assert list(journal.journal_dir(root).iterdir()), "the step record must stay behind"


def _withdraw_inoculate(root: Path) -> Callable[[], object]:
    snap = take_snapshot(root, NOW)
    return lambda: inoculate(root, "b.md", INOCULATION, snapshot=snap, now=NOW,
                                   withdraw=WithdrawRequest("b.md", "abandoned"))


def test_changed_before_the_commit_point_rolls_back_to_the_same_bytes(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupted(root, monkeypatch, "atomic_write", LOG_FILE, _withdraw_inoculate(root))
    assert (root / "deaccessioned" / "b.md").exists()  # tombstone, counter-memory, index
    assert "superseded_" in (root / INDEX_FILE).read_text()  # edit were done
    (root / "b.md").write_bytes(NEWER)
    recovery, _ = recover(root)
    assert [s.status for s in recovery.steps] == ["rolled-back"]
    assert (root / INDEX_FILE).read_bytes() == INDEX.encode()
    assert (root / "b.md").read_bytes() == NEWER
    assert not (root / "deaccessioned" / "b.md").exists()
    assert not list(root.glob("superseded_*.md"))
    assert not read_log(root).rows


def test_changed_after_the_commit_point_cancels_and_keeps_the_newer_text(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snap = take_snapshot(root, NOW)
    request = WithdrawRequest("b.md", "going")
    _interrupted(root, monkeypatch, "remove_file", "b.md",
                 lambda: withdraw(root, request, snapshot=snap, now=NOW))
    (root / "b.md").write_bytes(NEWER)
    recovery, _ = recover(root)
    assert [s.status for s in recovery.steps] == ["cancelled"]
    log = read_log(root)
    (row,) = log.rows
    assert [c.change for c in log.changes] == ["withdrawal-cancelled"]
    assert log.changes[0].register_id == row.register_id
    assert (root / "b.md").read_bytes() == NEWER
    assert (root / INDEX_FILE).read_bytes() == INDEX.encode()
    assert (root / row.tombstone).read_bytes().endswith(topic("b", "Tried warming the cache.")
                                                        .encode())
    recover(root)  # running it again changes nothing
    assert [c.change for c in read_log(root).changes] == ["withdrawal-cancelled"]


def test_a_body_that_vanished_before_its_tombstone_stops_recovery_at_the_snapshot(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snap = take_snapshot(root, NOW)
    request = WithdrawRequest("b.md", "going")
    _interrupted(root, monkeypatch, "atomic_write", "deaccessioned",
                 lambda: withdraw(root, request, snapshot=snap, now=NOW))
    body = (root / "b.md").read_bytes()
    (root / "b.md").unlink()
    with pytest.raises(RefusedError, match="snapshot"):
        recover(root)
    assert list(journal.journal_dir(root).iterdir()), "kept for a human"
    assert read_snapshot_file(snap.path, "b.md") == body


def test_a_record_from_before_the_header_only_journal_still_finishes(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Older records: one withdrawal per step (before batches), the whole tombstone in it."""
    snap = take_snapshot(root, NOW)
    request = WithdrawRequest("b.md", "going")
    _interrupted(root, monkeypatch, "atomic_write", "deaccessioned",
                 lambda: withdraw(root, request, snapshot=snap, now=NOW))
    (record,) = journal.journal_dir(root).iterdir()
    batch = json.loads(record.read_text())
    step = {"memory_dir": batch["memory_dir"], **batch["entries"][0]}
    assert step["op"] == "withdraw"
    header = journal.unpack(step.pop("tombstone_header"))
    step["tombstone_data"] = journal.pack(header + (root / "b.md").read_bytes())
    record.write_text(json.dumps(step))
    recovery, _ = recover(root)
    assert [s.status for s in recovery.steps] == ["done"]
    assert not (root / "b.md").exists() and (root / "deaccessioned" / "b.md").exists()
