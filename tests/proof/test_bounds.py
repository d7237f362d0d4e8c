"""The plan grows with the entries, not with the pairs among them.

A folder of a few hundred notes that differ by a word or two holds tens of thousands of
near-duplicate pairs. One finding per pair made the plan quadratic: 250 notes gave 52,402
findings and 83 MB of JSON, 1,000 notes took 5.6 GB. Each entry now gets one near-duplicate
finding naming its few closest partners and the size of its group; the pairs stream past
and are never all held. Sizes and memory are checked here; time is measured in bench/.
"""

from __future__ import annotations

import json
import random
import tracemalloc
from pathlib import Path

from prune_memory.analysis.duplicates import MAX_PARTNERS
from prune_memory.model import FindingCode
from prune_memory.procedure.fidelity import check_fidelity
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree

BASE = ("the deploy script pushes the api image to the registry then restarts the workers on "
        "the staging cluster and checks the health endpoint before it tags the release")
SWAPS = ["quickly", "always", "carefully", "first", "again", "later"]


def similar_notes(root: Path, count: int) -> Path:
    rng = random.Random(5)
    files: dict[str, str | bytes] = {}
    for n in range(count):
        words = BASE.split()
        for _ in range(2):
            words[rng.randrange(len(words))] = rng.choice(SWAPS)
        files[f"project_deploy_{n:04d}.md"] = topic(f"deploy-{n}", " ".join(words))
    files["MEMORY.md"] = "# Memory\n" + "".join(f"- [D]({name}) — d\n" for name in files)
    return write_tree(root, files)


def test_near_duplicates_come_one_finding_per_entry_in_linear_memory(tmp_path: Path) -> None:
    count = 300
    memdir = load_memory_dir(similar_notes(tmp_path / "memory", count))
    tracemalloc.start()
    try:
        found = check_fidelity(memdir, protected=frozenset())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    near = [f for items in found.values() for f in items
            if f.code is FindingCode.NEAR_DUPLICATE]
    assert len(found) >= count * 0.9  # almost every note has near twins
    assert len(near) == sum(1 for items in found.values()
                            if any(f.code is FindingCode.NEAR_DUPLICATE for f in items))
    assert all(len(f.related) <= MAX_PARTNERS for f in near)
    assert max(f.evidence.get("group_size", 2) for f in near) > 100
    size = len(json.dumps([f.to_json() for f in near]))
    assert size < 2_000 * count, size  # a couple of KB per entry, not per pair
    assert peak < 10_000_000, peak  # the pairs are never all held (2.4 MB here)
