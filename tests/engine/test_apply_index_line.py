"""Withdrawing and restoring facts written straight into MEMORY.md (`MEMORY.md#L<n>`)."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine.inoculate import inoculate
from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.session import recover
from prune_memory.engine.superseded import parse_superseded
from prune_memory.engine.tombstone import CONTRACT_FIELDS, parse_tombstone
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw, withdraw_many
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import INDEX_FILE, Entry, EntryKind, FindingCode
from prune_memory.plan import Inoculation
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import Snapshot, take_snapshot
from tests.conftest import topic, write_tree
from tests.faults import record_file_ops

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TOPICS = {"project_auth.md": topic("auth", "JWT in cookies", description="Auth uses JWT"),
          "project_ci.md": topic("ci", "Jenkins builds", description="CI on Jenkins")}
SECTIONS = ("# Memory\n\n## Project\n- [Auth](project_auth.md) — login flow\n"
            "- Deploys go out on Tuesdays\n\n## Notes\n- Working on the flaky test today\n"
            "- [CI](project_ci.md) — pipeline\n- The staging database is shared\n")
SHAPES: dict[str, bytes] = {
    "sections": SECTIONS.encode(),
    "crlf": SECTIONS.replace("\n", "\r\n").encode(),
    "bom": ("\ufeff- Deploys go out on Tuesdays\n- [Auth](project_auth.md) — login\n"
            "- [CI](project_ci.md) — pipeline\n- Last fact of the file\n").encode(),
    "no-final-newline": b"# M\n- [Auth](project_auth.md) a\n- [CI](project_ci.md) c\n"
                        b"- Deploys go out on Tuesdays",
    "crlf-no-final-newline": b"# M\r\n- First fact\r\n- [Auth](project_auth.md) a\r\n"
                             b"- [CI](project_ci.md) c\r\n- Deploys go out on Tuesdays",
    "mixed-endings": b"# M\r\n- fact one\n- [Auth](project_auth.md) a\r\n* fact two\r\n"
                     b"- [CI](project_ci.md) c\n1. fact three",
    "identical-copies": b"# M\n- same fact\n- [Auth](project_auth.md) a\n- same fact\n\n"
                        b"## Again\n- same fact\n- [CI](project_ci.md) c\n",
    "adjacent-copies": b"# M\n- [Auth](project_auth.md) a\n- twice\n- twice\n"
                       b"- [CI](project_ci.md) c\n",
}


def build(root: Path, index: bytes) -> Path:
    return write_tree(root, {**TOPICS, INDEX_FILE: index})


def facts(root: Path) -> list[Entry]:
    return [e for e in load_memory_dir(root).entries if e.kind is EntryKind.INDEX_LINE]


def request(entry: Entry, reason: str = "session chatter") -> WithdrawRequest:
    return WithdrawRequest(entry.file, reason, "1-ephemeral", expected_sha256=entry.sha256,
                           memory_class="Ephemeral")


def fact(root: Path, file: str) -> Entry:
    return next(e for e in facts(root) if e.file == file)


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return build(tmp_path / "memory", SHAPES["sections"])


@pytest.fixture
def snap(memory: Path) -> Snapshot:
    return take_snapshot(memory, NOW)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_fact_comes_back_byte_identical(tmp_path: Path, shape: str) -> None:
    root = build(tmp_path / "memory", SHAPES[shape])
    assert facts(root), "the shape must hold inline facts"
    for entry in facts(root):
        snap = take_snapshot(root, NOW)
        done = withdraw(root, request(entry), snapshot=snap, now=NOW)
        index = (root / INDEX_FILE).read_bytes()
        assert len(index) < len(SHAPES[shape])
        restore(root, done.register_ids[0], now=NOW)
        assert (root / INDEX_FILE).read_bytes() == SHAPES[shape], entry.file


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_batch_of_every_fact_then_restores_in_any_order(tmp_path: Path, shape: str) -> None:
    root = build(tmp_path / "memory", SHAPES[shape])
    entries = facts(root)
    result = withdraw_many(root, [request(e) for e in entries],
                                 snapshot=take_snapshot(root, NOW), now=NOW)
    assert not result.skipped and len(result.applied) == len(entries)
    assert facts(root) == []  # every inline fact left; the topic lines stayed
    assert {e.file for e in load_memory_dir(root).topics if e.indexed} == set(TOPICS)
    ids = list(result.register_ids)
    random.Random(shape).shuffle(ids)
    for register_id in ids:
        restore(root, register_id, now=NOW)
    assert (root / INDEX_FILE).read_bytes() == SHAPES[shape]


def test_tombstone_row_and_order_of_writes(memory: Path, snap: Snapshot,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    record_file_ops(monkeypatch, order)
    result = withdraw(memory, request(fact(memory, "MEMORY.md#L5"), "only true once"),
                            snapshot=snap, now=NOW)
    assert [s for s in order if not s.split()[1].startswith("step-")] == [
        "write MEMORY.md-L5.md", "write pruning-log.md", "write MEMORY.md"]
    (done,) = result.applied
    assert (done.op, done.status, done.tombstone) == ("withdraw", "done",
                                                      "deaccessioned/MEMORY.md-L5.md")
    stone = parse_tombstone((memory / "deaccessioned" / "MEMORY.md-L5.md").read_bytes())
    line = b"- Deploys go out on Tuesdays\n"
    assert stone.original == line
    assert list(stone.fields)[:len(CONTRACT_FIELDS)] == list(CONTRACT_FIELDS)
    assert stone.fields["name"] == "withdrawn-MEMORY.md-L5"
    assert stone.fields["description"].startswith("WITHDRAWN 2026-11-29 — not current memory.")
    assert stone.fields["original_sha256"] == hashlib.sha256(line).hexdigest()
    assert stone.fields["original_file"] == "MEMORY.md#L5"
    assert (stone.header.rule, stone.header.superseded_by) == ("1-ephemeral", None)
    assert (memory / INDEX_FILE).read_text() == SECTIONS.replace(line.decode(), "")
    assert not (memory / "MEMORY.md#L5").exists()
    (row,) = read_log(memory).rows
    assert row.cells() == ("2026-11-29-01", "`MEMORY.md#L5` — Deploys go out on Tuesdays",
                           "Ephemeral", "1-ephemeral: only true once",
                           "deaccessioned/MEMORY.md-L5.md", "N/A")


def test_a_secret_in_the_line_leaves_the_directory_and_comes_back(tmp_path: Path) -> None:
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    index = f"# M\n- CI token {token} for deploys\n- Deploys on Tuesdays\n".encode()
    root = build(tmp_path / "memory", index)
    done = withdraw(root, request(fact(root, "MEMORY.md#L2")),
                          snapshot=take_snapshot(root, NOW), now=NOW)
    log = (root / "pruning-log.md").read_text()
    assert token not in log and "ghp_…" in log
    assert not [p for p in root.rglob("*") if p.is_file() and token.encode() in p.read_bytes()]
    assert done.applied[0].vault and "rotate" in done.applied[0].message
    restore(root, done.register_ids[0], now=NOW)
    assert (root / INDEX_FILE).read_bytes() == index


def test_redacting_a_secret_in_a_line_keeps_its_other_facts_and_the_original_in_the_vault(
        tmp_path: Path) -> None:
    """The line is updated to its masked text: its other facts stay in the index; the
    tombstone, in the memory directory, holds no secret; `restore` gives the line back
    byte for byte, from the vault."""
    from prune_memory.secrets.mask import mask_text

    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    line = f"- CI posts with {token}; builds take 4 minutes"
    index = f"# M\n{line}\n- Deploys on Tuesdays\n".encode()
    root = build(tmp_path / "memory", index)
    entry = fact(root, "MEMORY.md#L2")
    done = update_entry(root, "MEMORY.md#L2", mask_text(line), reason="redacted",
                              snapshot=take_snapshot(root, NOW), now=NOW,
                              expected_sha256=entry.sha256, rule="secret")
    now = (root / INDEX_FILE).read_text()
    assert "- CI posts with [github-token ghp_… (40 chars)]; builds take 4 minutes" in now
    assert "- Deploys on Tuesdays" in now
    assert not [p for p in root.rglob("*") if p.is_file() and token.encode() in p.read_bytes()]
    restore(root, done.register_ids[0], now=NOW)
    assert (root / INDEX_FILE).read_bytes() == index


def test_a_line_changed_since_the_plan_is_refused(memory: Path) -> None:
    planned = fact(memory, "MEMORY.md#L5")
    (memory / INDEX_FILE).write_text(SECTIONS.replace("Tuesdays", "Wednesdays"))
    before = (memory / INDEX_FILE).read_bytes()
    with pytest.raises(RefusedError, match="changed since the plan") as refused:
        withdraw(memory, request(planned), snapshot=take_snapshot(memory, NOW), now=NOW)
    assert refused.value.exit_code == 4
    assert (memory / INDEX_FILE).read_bytes() == before
    assert not (memory / "deaccessioned").exists() and read_log(memory).rows == ()


def test_a_line_edited_after_the_snapshot_is_skipped_and_the_batch_goes_on(
        memory: Path, snap: Snapshot) -> None:
    deploys, staging = fact(memory, "MEMORY.md#L5"), fact(memory, "MEMORY.md#L10")
    (memory / INDEX_FILE).write_text(SECTIONS.replace("Tuesdays", "Wednesdays"))
    result = withdraw_many(memory, [request(deploys), request(staging)], snapshot=snap,
                                 now=NOW)
    (skipped,) = result.skipped
    assert (skipped.file, skipped.code) == ("MEMORY.md#L5", 4)
    assert "changed since the plan" in skipped.reason
    assert [a.file for a in result.applied] == ["MEMORY.md#L10"]
    text = (memory / INDEX_FILE).read_text()
    assert "Wednesdays" in text and "staging" not in text


def test_lines_added_or_removed_around_the_fact_are_followed(memory: Path,
                                                              snap: Snapshot) -> None:
    planned = fact(memory, "MEMORY.md#L8")
    moved = SECTIONS.replace("# Memory\n\n", "# Memory\n- Added by a session meanwhile\n\n")
    (memory / INDEX_FILE).write_text(moved)
    withdraw(memory, request(planned), snapshot=snap, now=NOW)
    assert (memory / INDEX_FILE).read_text() == moved.replace(
        "- Working on the flaky test today\n", "")


def test_a_mixed_batch_of_topics_and_facts(memory: Path, snap: Snapshot) -> None:
    requests = [WithdrawRequest("project_auth.md", "gone"), request(fact(memory, "MEMORY.md#L5")),
                WithdrawRequest("project_ci.md", "gone"), request(fact(memory, "MEMORY.md#L10"))]
    result = withdraw_many(memory, requests, snapshot=snap, now=NOW)
    assert [a.status for a in result.applied] == ["done"] * 4
    assert (memory / INDEX_FILE).read_text() == (
        "# Memory\n\n## Project\n\n## Notes\n- Working on the flaky test today\n")
    assert [e.file for e in facts(memory)] == ["MEMORY.md#L6"]


@pytest.mark.parametrize("file", ["MEMORY.md#L1", "MEMORY.md#L4", "MEMORY.md#L99",
                                  "MEMORY.md#L0", "MEMORY.md#Lx"])
def test_a_line_that_is_not_an_inline_fact_is_bad_input(memory: Path, snap: Snapshot,
                                                        file: str) -> None:
    before = (memory / INDEX_FILE).read_bytes()
    with pytest.raises(BadInputError):
        withdraw(memory, WithdrawRequest(file, "x"), snapshot=snap, now=NOW)
    assert (memory / INDEX_FILE).read_bytes() == before


def test_withdraw_and_inoculate_a_fact(memory: Path, snap: Snapshot) -> None:
    ino = Inoculation("deploy only on Tuesdays", "the freeze ended in March",
                      "deploys go out daily now", "an old release calendar")
    entry = fact(memory, "MEMORY.md#L5")
    result = inoculate(memory, entry.file, ino, snapshot=snap, now=NOW,
                             withdraw=request(entry), expected_sha256=entry.sha256)
    (done,) = result.applied
    assert done.superseded == "superseded_deploys-go-out-on-tuesdays.md"
    counter = parse_superseded((memory / done.superseded).read_bytes())
    assert counter.supersedes == "deaccessioned/MEMORY.md-L5.md"
    lines = (memory / INDEX_FILE).read_text().splitlines()
    assert lines[4].startswith("- [SUPERSEDED: deploy only on Tuesdays]"
                               "(superseded_deploys-go-out-on-tuesdays.md)")
    assert "- Deploys go out on Tuesdays" not in lines
    assert read_log(memory).rows[0].superseded_by == done.superseded
    restored = restore(memory, done.register_id or "", now=NOW)
    assert "removed the SUPERSEDED file" in restored.applied[0].message
    assert not (memory / done.superseded).exists()
    assert (memory / INDEX_FILE).read_text() == SECTIONS


def test_inoculate_only_and_a_multi_line_update_of_a_fact_are_refused_clearly(
        memory: Path, snap: Snapshot) -> None:
    with pytest.raises(BadInputError, match="only together with its withdrawal"):
        inoculate(memory, "MEMORY.md#L5", Inoculation("p", "e", "r", "d"),
                        snapshot=snap, now=NOW)
    with pytest.raises(BadInputError, match="is one non-empty line"):
        update_entry(memory, "MEMORY.md#L5", "two\nlines", reason="x", snapshot=snap,
                           now=NOW)
    assert (memory / INDEX_FILE).read_text() == SECTIONS


def test_scan_stays_clean(memory: Path, snap: Snapshot) -> None:
    def clean() -> bool:
        register = [(r.register_id, r.tombstone) for r in read_log(memory).rows]
        return scan(load_memory_dir(memory), register).clean

    assert clean()
    result = withdraw_many(memory, [request(e) for e in facts(memory)], snapshot=snap,
                                 now=NOW)
    assert clean()
    restore(memory, result.register_ids[1], now=NOW)
    assert clean()


def test_restore_falls_back_to_the_snapshot_index(memory: Path, snap: Snapshot) -> None:
    done = withdraw(memory, request(fact(memory, "MEMORY.md#L8")), snapshot=snap,
                          now=NOW)
    (memory / "deaccessioned" / "MEMORY.md-L8.md").unlink()
    result = restore(memory, done.register_ids[0], now=NOW)
    assert (memory / INDEX_FILE).read_text() == SECTIONS
    (finding,) = result.findings
    assert finding.code is FindingCode.MALFORMED


def test_the_same_line_withdrawn_twice_gets_a_second_name(memory: Path,
                                                          snap: Snapshot) -> None:
    first = withdraw(memory, request(fact(memory, "MEMORY.md#L5")), snapshot=snap,
                           now=NOW)
    restore(memory, first.register_ids[0], now=NOW)
    again = withdraw(memory, request(fact(memory, "MEMORY.md#L5")),
                           snapshot=take_snapshot(memory, NOW), now=NOW)
    assert again.applied[0].tombstone == "deaccessioned/MEMORY.md-L5.2026-11-29-02.md"
    restore(memory, again.register_ids[0], now=NOW)
    with pytest.raises(BadInputError, match="already restored"):
        restore(memory, again.register_ids[0], now=NOW)
    assert (memory / INDEX_FILE).read_text() == SECTIONS


def test_a_fact_in_the_index_is_updated_and_restored_line_for_line(tmp_path: Path) -> None:
    """The code map says 20 lines, the file has 40: the fact's line is swapped, registered,
    and `restore` swaps it back; every other byte of MEMORY.md stays as it was."""
    from prune_memory.engine.restore import restore
    from prune_memory.engine.update import update_entry
    from prune_memory.store.pruninglog import read_log
    from prune_memory.store.snapshot import take_snapshot

    index = "# Map\r\n- `util.py` (20 lines) — helpers\r\n- other fact\r\n"
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_bytes(index.encode())
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    done = update_entry(root, "MEMORY.md#L2", "- `util.py` (40 lines) — helpers",
                              reason="wc -l says 40", snapshot=take_snapshot(root, now),
                              now=now)
    (applied,) = done.applied
    assert (root / "MEMORY.md").read_bytes() == index.replace("(20 lines)", "(40 lines)").encode()
    (row,) = read_log(root).rows
    assert row.register_id == applied.register_id and "updated" in row.reason
    restore(root, applied.register_id, now=now)
    assert (root / "MEMORY.md").read_bytes() == index.encode()


def test_an_interrupted_fact_update_is_finished_by_recover(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from prune_memory.engine import update as step_update
    from prune_memory.engine.journal import StepInterrupted
    from prune_memory.store.snapshot import take_snapshot

    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text("# Map\n- `a.py` (20 lines) — helpers\n")
    snapshot = take_snapshot(root, NOW)
    real = step_update.rewrite_lines

    def full_disk(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(step_update, "rewrite_lines", full_disk)
    with pytest.raises(StepInterrupted):
        update_entry(root, "MEMORY.md#L2", "- `a.py` (40 lines) — helpers",
                           reason="x", snapshot=snapshot, now=NOW)
    assert "(20 lines)" in (root / "MEMORY.md").read_text()  # committed, not yet swapped
    monkeypatch.setattr(step_update, "rewrite_lines", real)
    recover(root)
    assert (root / "MEMORY.md").read_text() == "# Map\n- `a.py` (40 lines) — helpers\n"
    assert len(read_log(root).rows) == 1
