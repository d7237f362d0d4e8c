"""What every proof test checks after a fault and `recover`: the directory is whole.

- every original body exists exactly once: its own file, or a tombstone whose register row
  is in the pruning log (and whose withdrawal was not cancelled);
- every snapshot manifest under the state directory verifies with `sha256sum -c`;
- the index has no dangling link that was not there before;
- no temp file is left in the memory directory, its tombstone folder or the journal;
- the pruning log parses, and each register row names a tombstone that parses.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from prune_memory.engine import journal
from prune_memory.engine.tombstone import parse_tombstone
from prune_memory.model import INDEX_FILE, LOG_FILE, OWN_FILES, TOMBSTONE_DIR
from prune_memory.state import state_root
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import parse_log
from prune_memory.store.temps import TEMP_SUFFIX

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Baseline:
    """The memory directory before anything ran: bodies and the index's dangling links."""

    bodies: dict[str, bytes]
    dangling: frozenset[str]

    @classmethod
    def of(cls, root: Path) -> Baseline:
        bodies = {p.name: p.read_bytes() for p in root.glob("*.md")
                  if p.name != INDEX_FILE and p.name not in OWN_FILES}
        return cls(bodies=bodies, dangling=frozenset(dangling_links(root)))


def dangling_links(root: Path) -> set[str]:
    memdir = load_memory_dir(root)
    if memdir.index is None:
        return set()
    return {link.target for line in memdir.index.lines for link in line.links
            if not link.external and not link.escapes and link.kind.value != "wiki"
            and not (root / link.target).exists()}


def assert_whole(root: Path, base: Baseline, *, state: Path | None = None) -> int:
    """Every invariant above; returns how many original bodies live in tombstones."""
    log_text = (root / LOG_FILE).read_bytes().decode("utf-8") if (root / LOG_FILE).exists() \
        else ""
    log = parse_log(log_text)
    cancelled = {c.register_id for c in log.changes if c.change == "withdrawal-cancelled"}
    restored = {c.register_id for c in log.changes if c.change == "restored"}
    stones: dict[str, bytes] = {}
    for row in log.rows:
        stone = parse_tombstone((root / row.tombstone).read_bytes())
        assert stone.header.register_id == row.register_id
        assert hashlib.sha256(stone.original).hexdigest() == stone.header.original_sha256
        if row.register_id in cancelled | restored:
            continue
        assert stone.header.original_file not in stones, "withdrawn twice"
        stones[stone.header.original_file] = stone.original
    on_disk = {f"{TOMBSTONE_DIR}/{p.name}" for p in (root / TOMBSTONE_DIR).glob("*")}
    assert on_disk == {row.tombstone for row in log.rows}, "a tombstone without a register row"
    for name, body in base.bodies.items():
        here = (root / name).read_bytes() if (root / name).exists() else None
        assert (here is None) == (name in stones), f"{name}: in two places or in none"
        assert (here if here is not None else stones[name]) == body, f"{name}: bytes changed"
    assert not [p for p in root.rglob("*") if p.name.endswith(TEMP_SUFFIX)], "temp file left"
    assert not list(journal.journal_dir(root).iterdir()), "journal not empty"
    assert dangling_links(root) <= base.dangling, "recover left a new dangling link"
    verify_snapshots(state or state_root())
    return len(stones)


def verify_snapshots(state: Path) -> int:
    """`sha256sum -c` in every snapshot folder that has a manifest; returns how many."""
    checked = 0
    for manifest in sorted((state / "snapshots").rglob("MANIFEST.sha256")):
        done = subprocess.run(["sha256sum", "--quiet", "-c", "MANIFEST.sha256"],
                              cwd=manifest.parent, capture_output=True, text=True)
        assert done.returncode == 0, f"{manifest}: {done.stdout}{done.stderr}"
        checked += 1
    return checked


def cli_argv() -> list[str]:
    """The installed console script when there is one (what a user runs), else -m."""
    script = shutil.which("prune-memory", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "prune_memory"]


def cli_env(state: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_STATE_HOME": str(state), "NO_COLOR": "1",
           "PYTHONPATH": str(ROOT)}
    env.pop("PRUNE_MEMORY_GATE", None)
    return env
