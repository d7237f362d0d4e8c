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


def _aged(root: Path, name: str, day: str) -> None:
    import os
    from datetime import datetime
    stamp = datetime.fromisoformat(f"{day}T12:00:00+00:00").timestamp()
    os.utime(root / name, (stamp, stamp))


def test_a_file_untouched_since_a_dated_correction_is_the_side_questioned(
        tmp_path: Path) -> None:
    """A table dated 2026-04-16 puts the radio on .134; a file last written on 2026-04-03
    says .121. The file was not touched since the dated statement: it is the one to read."""
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Radio](radio.md)\n\n## Endpoints (2026-04-16)\n"
                     "- `radio-pi` on 192.168.2.134\n",
        "radio.md": topic("radio", "Notes.\n- `radio-pi` runs on 192.168.2.121\n")})
    _aged(root, "radio.md", "2026-04-03")
    found = check_values(load_memory_dir(root))
    assert sorted(found) == ["radio.md"]
    assert "after this memory was last written (2026-04-03)" in found["radio.md"][0].message
    _aged(root, "radio.md", "2026-05-01")  # written since: either may hold the correction
    assert sorted(check_values(load_memory_dir(root))) == ["MEMORY.md#L5", "radio.md"]
