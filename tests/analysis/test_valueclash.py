"""Two memories tying one subject to different values, and totals that count two things."""

from __future__ import annotations

from pathlib import Path

from prune_memory.analysis.valueclash import check_values
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree


def clashes(tmp_path: Path, first: str, second: str) -> list[str]:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [One](one.md)\n- [Two](two.md)\n",
        "one.md": topic("one", f"Notes.\n{first}"),
        "two.md": topic("two", f"Notes.\n{second}")})
    return sorted(f"{file}:{f.evidence['subject']}" for file, items in
                  check_values(load_memory_dir(root)).items() for f in items)


def test_one_subject_with_two_totals_is_a_contradiction(tmp_path: Path) -> None:
    assert clashes(tmp_path, "- `scheduler` runs 12 workers.",
                   "- `scheduler` runs 16 workers.") == ["one.md:scheduler", "two.md:scheduler"]


def test_totals_that_follow_two_different_files_count_two_things(tmp_path: Path) -> None:
    """Both lines name `_preflight`, but each total belongs to the test file before it."""
    assert clashes(
        tmp_path,
        "- `tests/test_uploader.py` 39 tests (drive `_preflight` and `_send`).",
        "- Test file `tests/test_guard.py` — 21 tests, all pass; guards `_preflight`.") == []
