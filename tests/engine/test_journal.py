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
