from __future__ import annotations

import datetime as dt
from pathlib import Path

from prune_memory.procedure.inventory import take_inventory
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree

NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)


def test_rows_carry_class_age_source_and_estimated_access(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "MEMORY.md": "- [A](a.md)\n- Deploys go out on Tuesdays\n",
        "a.md": topic("a", "We decided to use Postgres.", extra="modified: 2026-11-19\n"),
        "orphan.md": topic("orphan", "Stray fact."),
    })
    inv = take_inventory(load_memory_dir(tmp_path), NOW).to_json()
    rows = {r["file"]: r for r in inv["entries"]}
    assert rows["a.md"]["class"] == "Decision" and rows["a.md"]["age_days"] == 10
    assert rows["a.md"]["age_source"] == "modified"
    assert rows["orphan.md"]["age_source"] == "mtime"
    assert all(r["access"]["measured"] is False and r["access"]["reads"] is None
               for r in inv["entries"])
    assert all(r["access"]["label"].startswith("estimate") for r in inv["entries"])
    assert "not in the index" in rows["orphan.md"]["access"]["label"]
    assert inv["totals"]["entries"] == 3
    assert inv["index"]["lines"] == 2
