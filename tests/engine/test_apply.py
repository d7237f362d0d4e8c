from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine.inoculate import inoculate
from prune_memory.engine.protect import protect, unprotect
from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.session import recover
from prune_memory.engine.superseded import parse_superseded
from prune_memory.engine.tombstone import CONTRACT_FIELDS, parse_tombstone
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw, withdraw_many
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import FindingCode
from prune_memory.plan import Inoculation
from prune_memory.store import atomic, temps
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import Snapshot, take_snapshot
from tests.conftest import topic, write_tree
from tests.faults import record_file_ops

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
INDEX = ("# Memory\n\n## Project\n- [Auth](project_auth.md) — login flow\n"
         "- [CI](project_ci.md) — pipeline\n\n## Feedback\n- [Style](feedback_style.md) — tabs\n")


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": INDEX,
        "project_auth.md": topic("auth", "JWT in cookies", description="Auth uses JWT"),
        "project_ci.md": topic("ci", "Jenkins builds", description="CI on Jenkins"),
        "feedback_style.md": topic("style", "Use tabs", type_="feedback"),
    })


@pytest.fixture
def snap(memory: Path) -> Snapshot:
    return take_snapshot(memory, NOW)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_withdraw_writes_tombstone_then_index_then_row_then_removes(
        memory: Path, snap: Snapshot, monkeypatch: pytest.MonkeyPatch) -> None:
    original = (memory / "project_ci.md").read_bytes()
    order: list[str] = []
    record_file_ops(monkeypatch, order)
    result = withdraw(memory, WithdrawRequest("project_ci.md", "CI moved to Actions",
                                                    "4-stale-subject-gone"), snapshot=snap,
                            now=NOW)
    in_memory = [step for step in order if not step.split()[1].startswith("step-")]
    assert in_memory == ["write project_ci.md", "write MEMORY.md", "write pruning-log.md",
                         "remove project_ci.md"]
    assert result.register_ids == ("2026-11-29-01",)
    stone = parse_tombstone((memory / "deaccessioned" / "project_ci.md").read_bytes())
    assert stone.original == original
    assert list(stone.fields)[:len(CONTRACT_FIELDS)] == list(CONTRACT_FIELDS)
    assert stone.fields["description"].startswith("WITHDRAWN 2026-11-29")
    assert stone.fields["register_id"] == "2026-11-29-01"
    assert not (memory / "project_ci.md").exists()
    assert (memory / "MEMORY.md").read_text() == INDEX.replace(
        "- [CI](project_ci.md) — pipeline\n", "")
    (row,) = read_log(memory).rows
    assert row.cells() == ("2026-11-29-01", "`project_ci.md` — CI on Jenkins", "Project",
                           "4-stale-subject-gone: CI moved to Actions",
                           "deaccessioned/project_ci.md", "N/A")
    assert row.manifest == str(snap.manifest)


def test_protected_entries_are_refused_by_every_command_until_unprotected(
        memory: Path, snap: Snapshot) -> None:
    protect(memory, "project_auth.md", "architecture decision", now=NOW)
    before = sha(memory / "project_auth.md")
    ino = Inoculation("p", "e", "r", "d")
    attempts = [
        lambda: withdraw(memory, WithdrawRequest("project_auth.md", "x"), snapshot=snap,
                               now=NOW),
        lambda: inoculate(memory, "project_auth.md", ino, snapshot=snap, now=NOW),
        lambda: inoculate(memory, "project_auth.md", ino, snapshot=snap, now=NOW,
                                withdraw=WithdrawRequest("project_auth.md", "x")),
        lambda: update_entry(memory, "project_auth.md", "new", reason="x",
                                   snapshot=snap, now=NOW),
    ]
    for attempt in attempts:
        with pytest.raises(RefusedError, match="protected"):
            attempt()
    batch = withdraw_many(memory, [WithdrawRequest("project_auth.md", "x")],
                                snapshot=snap, now=NOW)
    assert batch.applied == () and batch.skipped[0].code == 4
    assert sha(memory / "project_auth.md") == before
    unprotect(memory, "project_auth.md", "decision was reversed", now=NOW)
    withdraw(memory, WithdrawRequest("project_auth.md", "x"), snapshot=snap, now=NOW)
    changes = [(c.change, c.entry, c.reason) for c in read_log(memory).changes]
    assert changes == [("protected", "`project_auth.md`", "architecture decision"),
                       ("unprotected", "`project_auth.md`", "decision was reversed")]


def test_warns_when_more_than_30_percent_are_protected(memory: Path) -> None:
    (memory / "user_role.md").write_text(topic("role", "backend dev", type_="user"))
    assert protect(memory, "project_auth.md", "a", now=NOW).warnings == ()
    result = protect(memory, "project_ci.md", "b", now=NOW)
    assert any("2 of 4 entries (50%)" in w for w in result.warnings)


def test_a_file_changed_since_the_plan_is_skipped(memory: Path, snap: Snapshot) -> None:
    planned = sha(memory / "project_ci.md")
    (memory / "project_ci.md").write_text(topic("ci", "Claude Code edited this"))
    batch = withdraw_many(memory, [
        WithdrawRequest("project_ci.md", "x", expected_sha256=planned),
        WithdrawRequest("project_auth.md", "y", expected_sha256=sha(memory / "project_auth.md")),
    ], snapshot=snap, now=NOW)
    assert [a.file for a in batch.applied] == ["project_auth.md"]
    assert batch.skipped[0].file == "project_ci.md" and "changed since the plan" in \
        batch.skipped[0].reason
    assert (memory / "project_ci.md").exists()


def test_no_write_without_a_verified_snapshot_of_this_pass(memory: Path, tmp_path: Path) -> None:
    forged = Snapshot(memory_dir=memory.resolve(), path=tmp_path, manifest=tmp_path / "M",
                      taken_at=NOW, files=0)
    for snapshot in (None, forged):
        with pytest.raises(RefusedError):
            withdraw(memory, WithdrawRequest("project_ci.md", "x"),
                           snapshot=snapshot, now=NOW)  # type: ignore[arg-type]
    assert (memory / "project_ci.md").exists()


def test_inoculate_only_keeps_the_original_and_points_at_it(memory: Path,
                                                            snap: Snapshot) -> None:
    result = inoculate(memory, "project_ci.md", Inoculation(
        "Jenkins is the CI", "pipeline moved in March", "Jenkins was retired",
        "old Jenkinsfile in git history", period="2024 to 2026-03"), snapshot=snap, now=NOW)
    (done,) = result.applied
    assert done.superseded == "superseded_project-ci.md"
    assert (memory / "project_ci.md").exists()
    counter = parse_superseded((memory / done.superseded).read_bytes())
    assert counter.supersedes == "project_ci.md" and counter.period == "2024 to 2026-03"
    lines = (memory / "MEMORY.md").read_text().splitlines()
    assert lines.index("- [CI](project_ci.md) — pipeline") + 1 == \
        next(n for n, ln in enumerate(lines) if "superseded_project-ci.md" in ln)
    assert read_log(memory).rows == ()
    assert read_log(memory).changes[0].change == "inoculated"


def test_withdraw_and_inoculate_makes_three_artifacts_and_one_row(memory: Path,
                                                                  snap: Snapshot) -> None:
    inoculate(memory, "project_ci.md", Inoculation("p", "e", "r", "d"), snapshot=snap,
                    now=NOW, withdraw=WithdrawRequest("project_ci.md", "abandoned",
                                                      "5i-abandoned-strategy"))
    (row,) = read_log(memory).rows
    assert (row.tombstone, row.superseded_by) == ("deaccessioned/project_ci.md",
                                                  "superseded_project-ci.md")
    stone = parse_tombstone((memory / row.tombstone).read_bytes())
    assert stone.header.superseded_by == "superseded_project-ci.md"
    counter = parse_superseded((memory / "superseded_project-ci.md").read_bytes())
    assert counter.supersedes == "deaccessioned/project_ci.md"
    index = (memory / "MEMORY.md").read_text()
    assert "project_ci.md)" not in index and "](superseded_project-ci.md)" in index


def test_restore_is_the_inverse_of_withdraw_and_inoculate(memory: Path,
                                                          snap: Snapshot) -> None:
    before = {p.name: p.read_bytes() for p in memory.iterdir()}
    inoculate(memory, "project_ci.md", Inoculation("p", "e", "r", "d"), snapshot=snap,
                    now=NOW, withdraw=WithdrawRequest("project_ci.md", "x"))
    result = restore(memory, "2026-11-29-01", now=NOW, reason="still used")
    assert "removed the SUPERSEDED file superseded_project-ci.md" in result.applied[0].message
    assert not (memory / "superseded_project-ci.md").exists()
    assert (memory / "project_ci.md").read_bytes() == before["project_ci.md"]
    assert (memory / "MEMORY.md").read_bytes() == before["MEMORY.md"]
    (change,) = read_log(memory).changes
    assert (change.change, change.register_id) == ("restored", "2026-11-29-01")
    with pytest.raises(BadInputError, match="already restored"):
        restore(memory, "2026-11-29-01", now=NOW)


def test_restore_leaves_a_counter_memory_someone_edited(memory: Path, snap: Snapshot) -> None:
    inoculate(memory, "project_ci.md", Inoculation("p", "e", "r", "d"), snapshot=snap,
                    now=NOW, withdraw=WithdrawRequest("project_ci.md", "x"))
    counter = memory / "superseded_project-ci.md"
    counter.write_bytes(counter.read_bytes() + b"A note added by hand.\n")
    result = restore(memory, "2026-11-29-01", now=NOW)
    assert "superseded_project-ci.md was left in place" in result.applied[0].message
    assert counter.exists() and "](superseded_project-ci.md)" in (memory / "MEMORY.md").read_text()
    assert "- [CI](project_ci.md) — pipeline\n" in (memory / "MEMORY.md").read_text()


def test_register_ids_and_tombstone_names_are_never_reused(memory: Path,
                                                          snap: Snapshot) -> None:
    request = WithdrawRequest("project_ci.md", "x")
    withdraw(memory, request, snapshot=snap, now=NOW)
    restore(memory, "2026-11-29-01", now=NOW)
    again = withdraw(memory, request, snapshot=snap, now=NOW)
    assert again.applied[0].register_id == "2026-11-29-02"
    assert again.applied[0].tombstone == "deaccessioned/project_ci.2026-11-29-02.md"
    restore(memory, "2026-11-29-02", now=NOW)
    assert (memory / "MEMORY.md").read_text() == INDEX


def test_restore_falls_back_to_the_snapshot_when_the_tombstone_is_gone(
        memory: Path, snap: Snapshot) -> None:
    original = (memory / "project_auth.md").read_bytes()
    withdraw(memory, WithdrawRequest("project_auth.md", "x"), snapshot=snap, now=NOW)
    (memory / "deaccessioned" / "project_auth.md").unlink()
    result = restore(memory, "2026-11-29-01", now=NOW)
    assert (memory / "project_auth.md").read_bytes() == original
    assert (memory / "MEMORY.md").read_text() == INDEX
    (finding,) = result.findings
    assert finding.code is FindingCode.MALFORMED and "missing" in finding.message
    assert finding.evidence["snapshot_manifest"] == str(snap.manifest)


def test_update_rewrites_body_description_and_index_line_and_restore_reverts_it(
        memory: Path, snap: Snapshot) -> None:
    (memory / "MEMORY.md").write_text(INDEX.replace("— pipeline", "— Jenkins pipeline"))
    before = {p.name: p.read_bytes() for p in memory.iterdir()}
    planned = sha(memory / "project_ci.md")
    done = update_entry(memory, "project_ci.md", "GitHub Actions builds",
                              reason="CI moved", snapshot=snap, now=NOW,
                              expected_sha256=planned)
    text = (memory / "project_ci.md").read_text()
    assert text.endswith("modified: 2026-11-29T12:00:00Z\n---\n"
                         "GitHub Actions builds [corrected 2026-11-29]\n")
    assert "description: CI on GitHub Actions" in text  # the mark stays in the body
    assert "- [CI](project_ci.md) — GitHub Actions pipeline\n" in \
        (memory / "MEMORY.md").read_text()
    (applied,) = done.applied
    assert applied.register_id == "2026-11-29-01"
    (row,) = read_log(memory).rows
    assert row.tombstone == "deaccessioned/project_ci.2026-11-29-01.md"
    assert row.reason == "4-stale-known-correction: updated — CI moved"
    stone = parse_tombstone((memory / row.tombstone).read_bytes())
    assert stone.original == before["project_ci.md"] and stone.header.is_update
    with pytest.raises(RefusedError, match="changed since the plan"):
        update_entry(memory, "project_ci.md", "again", reason="x", snapshot=snap,
                           now=NOW, expected_sha256=planned)
    restore(memory, "2026-11-29-01", now=NOW)
    for name in ("project_ci.md", "MEMORY.md"):
        assert (memory / name).read_bytes() == before[name]


def test_a_file_edited_after_an_update_is_not_reverted(memory: Path, snap: Snapshot) -> None:
    update_entry(memory, "project_ci.md", "GitHub Actions builds", reason="CI moved",
                       snapshot=snap, now=NOW)
    (memory / "project_ci.md").write_text(topic("ci", "Claude wrote this since"))
    with pytest.raises(RefusedError, match="changed since the update"):
        restore(memory, "2026-11-29-01", now=NOW)
    assert "Claude wrote this since" in (memory / "project_ci.md").read_text()


def test_bad_names_are_bad_input(memory: Path, snap: Snapshot) -> None:
    for name in ("MEMORY.md", "pruning-log.md", "../x.md", "sub/x.md", "missing.md"):
        with pytest.raises(BadInputError):
            withdraw(memory, WithdrawRequest(name, "x"), snapshot=snap, now=NOW)


def test_a_full_disk_stops_the_batch_and_recover_finishes_the_step(
        memory: Path, snap: Snapshot, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    from prune_memory.engine import journal
    from prune_memory.engine.journal import StepInterrupted

    writes = {"n": 0}
    real = atomic.write_all

    def fill_up(fd: int, data: bytes) -> None:
        writes["n"] += 1
        if writes["n"] == 3:  # the second tombstone (the journal record is the first write)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    files = ("project_auth.md", "project_ci.md", "feedback_style.md")
    requests = [WithdrawRequest(f, "x") for f in files]
    with monkeypatch.context() as patch:
        patch.setattr(atomic, "write_all", fill_up)
        with pytest.raises(StepInterrupted, match="No space left") as stopped:
            withdraw_many(memory, requests, snapshot=snap, now=NOW)
    assert stopped.value.exit_code == 4
    assert len(journal.pending(memory)) == 1
    assert all((memory / f).exists() for f in files)  # nothing leaves before the commit point
    assert not read_log(memory).rows
    recovered, _ = recover(memory)
    assert [s.status for s in recovered.steps] == ["done", "done", "done"]
    ids = [r.register_id for r in read_log(memory).rows]
    assert ids == ["2026-11-29-01", "2026-11-29-02", "2026-11-29-03"]
    assert not any((memory / f).exists() for f in files)
    assert not temps.leftover_temps(memory)


def test_protect_and_unprotect_are_idempotent(memory: Path) -> None:
    protect(memory, "project_auth.md", "rationale", now=NOW)
    log = (memory / "pruning-log.md").read_bytes()
    again = protect(memory, "project_auth.md", "rationale", now=NOW)
    assert again.applied[0].status == "unchanged"
    assert (memory / "pruning-log.md").read_bytes() == log
    unprotect(memory, "project_auth.md", "reversed", now=NOW)
    log = (memory / "pruning-log.md").read_bytes()
    assert unprotect(memory, "project_auth.md", "x", now=NOW).applied[0].status == \
        "unchanged"
    assert (memory / "pruning-log.md").read_bytes() == log


@pytest.mark.parametrize(("index", "after"), [
    # Real indexes hang details under a pointer; withdrawing the memory takes them too
    # (they describe it), and restore puts every byte of the index back.
    ("# Memory\n- [CI](project_ci.md) — pipeline\n  - runs on every push\n"
     "    - and nightly\n- [Auth](project_auth.md) — sessions\n  - cookie signing\n",
     "# Memory\n- [Auth](project_auth.md) — sessions\n  - cookie signing\n"),
    # `  - see above` under two pointers: withdrawing one takes its copy, and restore puts
    # that copy back under it, though the same text still stands under the other.
    ("# Memory\n- [CI](project_ci.md) — pipeline\n  - see above\n"
     "- [Auth](project_auth.md) — sessions\n  - see above\n",
     "# Memory\n- [Auth](project_auth.md) — sessions\n  - see above\n"),
], ids=["sub-bullets", "sub-item-also-elsewhere"])
def test_a_pointer_s_sub_items_leave_and_come_back_with_it(tmp_path: Path, index: str,
                                                          after: str) -> None:
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": index, "project_ci.md": topic("ci", "CI runs checks."),
        "project_auth.md": topic("auth", "Sessions live in cookies.")})
    snap = take_snapshot(memory, NOW)
    withdraw(memory, WithdrawRequest("project_ci.md", "x"), snapshot=snap, now=NOW)
    assert (memory / "MEMORY.md").read_text() == after
    restore(memory, "2026-11-29-01", now=NOW)
    assert (memory / "MEMORY.md").read_text() == index


def test_a_line_appended_while_an_update_is_written_is_kept(
        memory: Path, snap: Snapshot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another session appends to the memory in the instant the update replaces it: the
    appended line stays, after the new text, and the update says the file changed."""
    target = memory / "project_ci.md"
    real = atomic._write_temp
    added = b"- written meanwhile\n"

    def append_meanwhile(path: Path, data: bytes) -> Path:
        temp = real(path, data)
        if path == target and not target.read_bytes().endswith(added):
            with target.open("ab") as handle:
                handle.write(added)
        return temp

    monkeypatch.setattr(atomic, "_write_temp", append_meanwhile)
    with pytest.raises(RefusedError, match="changed during the update"):
        update_entry(memory, "project_ci.md", "GitHub Actions builds", reason="moved",
                           snapshot=snap, now=NOW)
    text = target.read_bytes()
    assert b"GitHub Actions builds" in text and text.endswith(added)


def test_an_update_keeps_an_index_line_secret_out_of_its_tombstone(
        memory: Path, snap: Snapshot) -> None:
    """The index line an update rewrites is masked in the tombstone; its exact text waits
    in the vault, so the undo still puts the line back byte for byte."""
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    (memory / "MEMORY.md").write_text(INDEX.replace("— pipeline",
                                                    f"— Jenkins pipeline, key {token}"))
    before = {p.name: p.read_bytes() for p in memory.iterdir()}
    update_entry(memory, "project_ci.md", "GitHub Actions builds", reason="CI moved",
                 snapshot=snap, now=NOW)
    assert f"GitHub Actions pipeline, key {token}" in (memory / "MEMORY.md").read_text()
    (row,) = read_log(memory).rows
    stone = (memory / row.tombstone).read_text()
    assert token not in stone and "index_change_vault" in stone
    restore(memory, row.register_id, now=NOW)
    for name in ("project_ci.md", "MEMORY.md"):
        assert (memory / name).read_bytes() == before[name]
