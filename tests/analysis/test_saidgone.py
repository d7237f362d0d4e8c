"""One memory says a name was removed while another still describes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.analysis.contradictions import check_said_gone
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree

LIVE = topic("loader-notes", "The `TileLoader` caches each tile for a minute.")


def said_gone(tmp_path: Path, line: str) -> list[str]:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Loader](loader.md)\n- [Changes](changes.md)\n",
        "loader.md": LIVE,
        "changes.md": topic("changes", f"What changed.\n{line}")})
    return [f"{file}<-{f.related[0]}" for file, items in check_said_gone(
        load_memory_dir(root)).items() for f in items]


@pytest.mark.parametrize("line", [
    "- `TileLoader` DELETED, replaced by `TileCache`.",
    "- `TileLoader` was removed in the cleanup.",
    "- `TileLoader` removed from the build.",
    "- We ripped out `TileLoader`",
    "- **`TileLoader`** — REMOVED.",
    "- **`TileLoader` DELETED** — replaced by `TileCache`.",
])
def test_a_name_said_gone_contradicts_a_memory_that_still_describes_it(
        tmp_path: Path, line: str) -> None:
    assert said_gone(tmp_path, line) == ["loader.md<-changes.md"]


@pytest.mark.parametrize("line", [
    # The name is where something was removed, not what was removed.
    "- **`TileLoader`** — REMOVED the retry loop; ADDED a timeout.",
    "- `TileLoader`: removed the old cache flag.",
    "- `TileLoader` — deleted all the dead branches.",
    "- `TileLoader` was not removed.",
])
def test_a_name_something_was_removed_from_is_still_there(tmp_path: Path, line: str) -> None:
    assert said_gone(tmp_path, line) == []
