from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.engine import journal
from prune_memory.errors import RefusedError


def test_records_are_numbered_kept_until_finished_and_read_back(tmp_path: Path) -> None:
    first = journal.begin(tmp_path, {"op": "withdraw", "file": "a.md"})
    second = journal.begin(tmp_path, {"op": "restore", "file": "b.md"})
    assert first.name < second.name
    pending = journal.pending(tmp_path)
    assert [p.step["op"] for p in pending] == ["withdraw", "restore"]
    assert pending[0].step["memory_dir"] == str(tmp_path.resolve())
    journal.finish(first)
    assert [p.path for p in journal.pending(tmp_path)] == [second]


def test_the_journal_lives_outside_the_memory_directory(tmp_path: Path) -> None:
    folder = journal.journal_dir(tmp_path)
    assert tmp_path.resolve() not in folder.resolve().parents


def test_an_unreadable_record_is_refused_not_guessed(tmp_path: Path) -> None:
    record = journal.begin(tmp_path, {"op": "withdraw"})
    record.write_text("{ half a record")
    with pytest.raises(RefusedError, match="cannot be read"):
        journal.pending(tmp_path)


def test_bytes_survive_packing() -> None:
    data = bytes(range(256)) + "é\r\n".encode()
    assert journal.unpack(journal.pack(data)) == data


def test_a_recovered_batch_is_counted_and_only_its_odd_steps_named() -> None:
    from prune_memory.engine.journal import StepOutcome
    from prune_memory.engine.session import recovery_notes

    done = [StepOutcome("withdraw", f"f{n}.md", "done", "withdrawn") for n in range(4)]
    odd = StepOutcome("withdraw", "g.md", "rolled-back", "g.md changed")
    assert len(recovery_notes(done[:2])) == 2
    notes = recovery_notes([*done, odd])
    assert notes[0] == "recovered an interrupted batch: 4 step(s) finished"
    assert notes[1:] == ["recovered an interrupted withdraw of g.md: rolled-back. g.md changed"]


def test_every_kind_of_step_is_known_to_recovery_whatever_was_imported_first() -> None:
    """Kinds register when their operation's module is imported; the engine package
    imports every operation, so a process that only recovers knows them all."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    shown = subprocess.run(
        [sys.executable, "-c", "from prune_memory.engine.recovery import recover_pending\n"
         "from prune_memory.engine.journal import KINDS\nprint(' '.join(sorted(KINDS)))"],
        capture_output=True, text=True, check=True, cwd=ROOT)
    assert shown.stdout.split() == sorted([
        "inoculate", "reaccession", "restore", "restore-line", "revert-update",
        "revert-update-line", "undo-pass", "update", "update-entry", "update-line",
        "withdraw", "withdraw-batch", "withdraw-line"])


def test_a_record_reads_back_as_the_step_that_wrote_it(tmp_path: Path) -> None:
    from prune_memory.engine.reaccession import ReaccessionStep
    from prune_memory.engine.withdraw import WithdrawBatch, WithdrawStep

    entry = WithdrawStep(file="a.md", original_sha256="0" * 64, register_id="2026-11-29-01",
                         tombstone="deaccessioned/a.md", tombstone_sha256="1" * 64,
                         row=("2026-11-29-01", "`a.md`", "Project", "r", "deaccessioned/a.md",
                              "N/A"), manifest="/m", date="2026-11-29", tombstone_header="")
    batch = WithdrawBatch(file="1 entries", entries=(entry,))
    record = batch.to_json()
    assert record["op"] == "withdraw-batch" and record["entries"][0]["op"] == "withdraw"
    journal.begin(tmp_path, record)
    (pending,) = journal.pending(tmp_path)
    assert journal.step_of(pending.step) == batch
    step = ReaccessionStep(file="a.md", data=journal.pack(b"x"), row=("a", "b"),
                           index_line="- [A](a.md)", section="S")
    assert journal.step_of(step.to_json()) == step


@pytest.mark.parametrize(("field", "value"), [("row", "not a list"), ("data", 7),
                                              ("row", [1, 2])])
def test_a_record_of_the_wrong_shape_is_set_aside_before_anything_is_written(
        tmp_path: Path, field: str, value: object) -> None:
    from prune_memory.engine.recovery import recover_pending

    memory = tmp_path / "memory"
    memory.mkdir()
    record = {"op": "reaccession", "file": "a.md", "data": journal.pack(b"x\n"),
              "row": ["2026-11-29", "reaccessioned", "`a.md`", "N/A", "why"],
              "index_line": "- [A](a.md)", "section": "S", field: value}
    journal.begin(memory, record)
    (outcome,) = recover_pending(memory).steps
    assert outcome.status == "set-aside" and "malformed record" in outcome.message
    assert sorted(p.name for p in memory.iterdir()) == []
