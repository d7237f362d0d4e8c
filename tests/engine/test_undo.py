"""Undo a whole pass: byte for byte when nothing changed since, id by id when something did."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine import journal
from prune_memory.engine.inoculate import inoculate
from prune_memory.engine.protect import protect
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.session import recover
from prune_memory.engine.undo import restorable, undo_passes
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.plan import Inoculation
from prune_memory.procedure.auditlog import record_pass
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import topic, tree_hash, write_tree
from tests.faults import survives

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
LATER = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": "# M\n- [Auth](project_auth.md) — a\n- [CI](project_ci.md) — Jenkins\n"
                     "- [Hub](project_hub.md) — h\n",
        "project_auth.md": topic("auth", "JWT in cookies"),
        "project_ci.md": topic("ci", "Jenkins builds", description="CI on Jenkins"),
        "project_hub.md": topic("hub", "See [[auth]]."),
        "pruning-log.md": "# Pruning log\n\n## Protected\n",
    })


def a_pass(memory: Path) -> None:
    """Withdraw + inoculate, update, protect: every kind of write a review can make."""
    snap = take_snapshot(memory, NOW)
    applied = inoculate(memory, "project_auth.md", Inoculation("p", "e", "r", "d"),
                              snapshot=snap, now=NOW,
                              withdraw=WithdrawRequest("project_auth.md", "x")).applied
    applied += update_entry(memory, "project_ci.md", "GitHub Actions builds",
                                  reason="moved", snapshot=snap, now=NOW).applied
    applied += protect(memory, "project_hub.md", "keep it", now=NOW).applied
    record_pass(memory, snap, NOW, applied)


def test_undo_gives_back_every_byte_and_keeps_what_the_pass_wrote(memory: Path) -> None:
    start = tree_hash(memory)
    a_pass(memory)
    assert [p.date for p in restorable(memory).passes] == ["2026-11-29"]
    assert len(restorable(memory).rows) == 2
    (done,) = undo_passes(memory, "2026-11-29", now=LATER)
    assert done.exact and tree_hash(memory) == start
    assert Path(str(done.archive), "pruning-log.md").is_file()
    assert not list(journal.journal_dir(memory).iterdir())
    assert restorable(memory).passes == ()
    with pytest.raises(BadInputError, match="no pass to undo"):
        undo_passes(memory, "last", now=LATER)


def test_a_file_whose_name_holds_a_secret_is_undone_exactly(memory: Path) -> None:
    """The snapshot stores such a name under a digest of it; the pass record still names
    the withdrawn file (from the pass's own changes), so the undo puts it back by name."""
    secret_name = "ghp_" + "Zq8Lm2Nx7Vb4Kc1Jd5Hf9Gs3Ta6Wy0Pe2Ru4Io"[:36] + ".md"
    (memory / secret_name).write_text(topic("odd", "named after a token"))
    start = tree_hash(memory)
    snap = take_snapshot(memory, NOW)
    assert secret_name not in snap.manifest.read_text()
    applied = withdraw(memory, WithdrawRequest(secret_name, "x"), snapshot=snap,
                             now=NOW).applied
    record_pass(memory, snap, NOW, applied)
    (done,) = undo_passes(memory, "last", now=LATER)
    assert done.exact and tree_hash(memory) == start


def test_a_removed_file_the_snapshot_names_only_by_a_digest_is_not_guessed(
        memory: Path) -> None:
    """Removed by something the pass did not record (so not named by it): the pass cannot be
    undone whole, and says why, rather than writing a file under the digest."""
    secret_name = "ghp_" + "Zq8Lm2Nx7Vb4Kc1Jd5Hf9Gs3Ta6Wy0Pe2Ru4Io"[:36] + ".md"
    (memory / secret_name).write_text(topic("odd", "named after a token"))
    snap = take_snapshot(memory, NOW)
    (memory / secret_name).unlink()
    with pytest.raises(RefusedError, match="named in the snapshot only by a digest"):
        record_pass(memory, snap, NOW, [])
    assert not list(memory.glob("masked-name-*"))


def test_something_written_since_is_kept_and_each_id_is_restored(memory: Path) -> None:
    originals = {n: (memory / n).read_bytes() for n in ("project_auth.md", "project_ci.md")}
    a_pass(memory)
    (memory / "MEMORY.md").write_bytes((memory / "MEMORY.md").read_bytes() +
                                       b"- A fact Claude wrote after the pass\n")
    (done,) = undo_passes(memory, "last", now=LATER)
    assert not done.exact and done.conflicts == ("MEMORY.md",)
    assert [a.register_id for a in done.applied] == ["2026-11-29-02", "2026-11-29-01"]
    for name, data in originals.items():
        assert (memory / name).read_bytes() == data
    index = (memory / "MEMORY.md").read_text()
    assert index.endswith("- A fact Claude wrote after the pass\n") and "superseded_" not in index
    assert {c.register_id for c in read_log(memory).changes if c.change == "restored"} == {
        "2026-11-29-01", "2026-11-29-02"}


def test_an_undo_killed_at_any_file_operation_finishes_on_recover(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for budget in range(40):
        memory = write_tree(tmp_path / f"m{budget}", {
            "MEMORY.md": "# M\n- [Auth](project_auth.md) — a\n- [Hub](project_hub.md) — h\n",
            "project_auth.md": topic("auth", "JWT in cookies"),
            "project_hub.md": topic("hub", "See [[auth]].")})
        start = tree_hash(memory)
        snap = take_snapshot(memory, NOW)
        done = withdraw(memory, WithdrawRequest("project_auth.md", "x"), snapshot=snap,
                              now=NOW)
        record_pass(memory, snap, NOW, done.applied)
        finished = survives(lambda: undo_passes(memory, "last", now=LATER),  # noqa: B023
                            budget, monkeypatch)
        recover(memory)  # finishes the journalled step, if it had started
        if restorable(memory).passes:  # killed before it was journalled: run it again
            undo_passes(memory, "last", now=LATER)
        assert tree_hash(memory) == start and restorable(memory).passes == ()
        if finished:
            return
    pytest.fail("the undo never finished within 40 file operations")


def test_a_file_the_pass_wrote_that_no_id_takes_back_is_named(memory: Path) -> None:
    # A reaccession writes a new memory under the register id it came from. When the pass
    # cannot be undone whole, restoring ids does not remove that file: the user is told.
    from prune_memory.engine.reaccession import reaccession, request, withdrawn_body

    first = take_snapshot(memory, NOW)
    record_pass(memory, first, NOW, withdraw(
        memory, WithdrawRequest("project_ci.md", "x"), snapshot=first, now=NOW).applied)
    second = take_snapshot(memory, LATER)
    req = request(memory, withdrawn_body(memory, "2026-11-29-01"), "1", file="project_b.md",
                  description="", reason="one fact")
    record_pass(memory, second, LATER, reaccession(memory, req, snapshot=second,
                                                   now=LATER).applied)
    protect(memory, "project_hub.md", "keep it", now=LATER)  # the log changes after
    done = undo_passes(memory, "2026-11-30", now=LATER)
    assert not done[0].exact
    assert [(s.file, s.reason) for s in done[0].skipped] == [
        ("project_b.md", "written by this pass and not taken back by restoring its ids: "
                         "withdraw it if it should go")]
    assert (memory / "project_b.md").exists()
