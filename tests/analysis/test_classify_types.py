"""Step 1 honours a file's own `type: pattern` and `type: decision`, nested or not."""

from __future__ import annotations

from pathlib import Path

from prune_memory.analysis.classify import classify
from prune_memory.model import MemoryClass
from prune_memory.store.loader import load_memory_dir
from tests.conftest import write_tree


def test_pattern_and_decision_types_choose_the_class(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "# M\n- [a](a.md) — a\n- [b](b.md) — b\n- [c](c.md) — c\n",
        # Wording alone would say Project for both.
        "a.md": "---\nname: a\ndescription: flaky upload\ntype: pattern\n---\n"
                "Uploads over 2 GB time out on the office network.\n",
        "b.md": "---\nname: b\ndescription: queue\nmetadata:\n  type: Decision\n---\n"
                "The job queue is Redis streams.\n",
        "c.md": "---\nname: c\ndescription: layout\ntype: project\n---\n"
                "The job queue is Redis streams.\n",
    })
    found = {e.file: classify(e) for e in load_memory_dir(root).topics}
    assert (found["a.md"].cls, found["a.md"].signal) == (MemoryClass.PATTERN, "type: pattern")
    assert (found["b.md"].cls, found["b.md"].signal) == (MemoryClass.DECISION, "type: decision")
    assert found["c.md"].cls is MemoryClass.PROJECT
