"""Nothing is lost, shown on real memory folders: every memory withdrawn, then restored.

For each corpus folder (`make calibrate` builds them under /tmp/corpus; `CORPUS=DIR` points
elsewhere) this works on a copy, never on the folder itself. It does three things:

1. `run --yes`, then `restore --pass last`: the copy must equal the original, file for
   file and byte for byte, with nothing left over;
2. every topic file withdrawn, half as one batch and half one at a time, then the pass
   undone whole: again equal;
3. every topic file withdrawn as one batch, then each register id restored on its own,
   in a shuffled order: the memories and MEMORY.md equal (the tombstones and the log
   keep the history, as they should).

It prints one line per folder and exits 1 when any copy differs. It needs no labels: it is
the engine's promise, checked on the shapes real people wrote.

Run: .venv/bin/python bench/roundtrip.py   (or: make calibrate, which runs it last)
"""

from __future__ import annotations

import filecmp
import os
import random
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.undo import undo_passes
from prune_memory.engine.withdraw import withdraw, withdraw_many
from prune_memory.procedure.auditlog import record_pass
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import take_snapshot

SCRIPT = Path(sys.executable).with_name("prune-memory")
NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
HISTORY = ("deaccessioned", "pruning-log.md")  # what a one-by-one restore rightly leaves


def same_tree(left: Path, right: Path, ignore: tuple[str, ...] = ()) -> bool:
    """Equal file names, folders and bytes under both, `ignore` left out at the top."""
    cmp = filecmp.dircmp(left, right, ignore=list(ignore))
    return _equal(cmp)


def _equal(cmp: filecmp.dircmp[str]) -> bool:
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files,
                                           shallow=False)
    return not (mismatch or errors) and all(_equal(sub) for sub in cmp.subdirs.values())


def run_and_undo(folder: Path, copy: Path, state: Path) -> bool:
    """The commands as a user runs them; a pass that did not run, or an undo that failed,
    counts as a difference (an untouched copy would compare equal and prove nothing)."""
    env = {**os.environ, "XDG_STATE_HOME": str(state), "HOME": str(state / "home")}
    ran = subprocess.run([str(SCRIPT), "run", str(copy), "--repo", str(folder / "repo"),
                          "--yes", "--now", NOW.isoformat()], env=env, capture_output=True,
                         check=False)
    if ran.returncode not in (0, 1) or same_tree(folder / "memory", copy):
        return False  # it must have written at least its log
    undone = subprocess.run([str(SCRIPT), "restore", "--pass", "last", "--memory-dir",
                             str(copy), "--now", NOW.isoformat()], env=env,
                            capture_output=True, check=False)
    return undone.returncode == 0 and same_tree(folder / "memory", copy)


def withdraw_all_and_undo(folder: Path, copy: Path, snaps: Path) -> tuple[bool, int]:
    topics = [e.file for e in load_memory_dir(copy).topics]
    snapshot = take_snapshot(copy, NOW, snaps)
    half = len(topics) // 2
    done = list(withdraw_many(copy, [WithdrawRequest(f, "round trip")
                                           for f in topics[:half]],
                                    snapshot=snapshot, now=NOW).applied)
    for file in topics[half:]:
        done += withdraw(copy, WithdrawRequest(file, "round trip"),
                               snapshot=snapshot, now=NOW).applied
    record_pass(copy, snapshot, NOW, done)
    if any(p.suffix == ".md" and p.name in topics for p in copy.iterdir()):
        return False, len(topics)  # something was not withdrawn: the undo would prove little
    undo_passes(copy, "last", now=NOW)
    return same_tree(folder / "memory", copy), len(topics)


def withdraw_all_restore_each(folder: Path, copy: Path, snaps: Path) -> bool:
    topics = [e.file for e in load_memory_dir(copy).topics]
    withdraw_many(copy, [WithdrawRequest(f, "round trip") for f in topics],
                        snapshot=take_snapshot(copy, NOW, snaps), now=NOW)
    ids = [row.register_id for row in read_log(copy).rows]
    random.Random(len(ids)).shuffle(ids)
    for register_id in ids:
        restore(copy, register_id, now=NOW, reason="round trip")
    return same_tree(folder / "memory", copy, ignore=HISTORY)


def main() -> int:
    corpus = Path(os.environ.get("CORPUS", "/tmp/corpus"))
    folders = sorted(p for p in corpus.glob("*") if (p / "memory").is_dir())
    if not folders:
        print(f"round trip: no corpus folder under {corpus} (make calibrate builds them)")
        return 0
    failed = withdrawn = 0
    with tempfile.TemporaryDirectory(prefix="prune-roundtrip-") as tmp:
        work = Path(tmp)
        os.environ["XDG_STATE_HOME"] = str(work / "state")
        for folder in folders:
            copies = [work / f"{folder.name}-{n}" for n in range(3)]
            for copy in copies:
                shutil.copytree(folder / "memory", copy, symlinks=True)
            ran = run_and_undo(folder, copies[0], work / "state")
            undone, count = withdraw_all_and_undo(folder, copies[1], work / "snaps" / "a")
            each = withdraw_all_restore_each(folder, copies[2], work / "snaps" / "b")
            withdrawn += count
            ok = ran and undone and each
            failed += not ok
            print(f"{folder.name}: run --yes then undo {_said(ran)}; {count} withdrawn then "
                  f"undone {_said(undone)}; restored one by one {_said(each)}")
    print(f"round trip: {len(folders)} folders, {withdrawn} memories withdrawn and brought "
          f"back, {'all identical' if not failed else f'{failed} folder(s) DIFFER'}")
    return 1 if failed else 0


def _said(ok: bool) -> str:
    return "identical" if ok else "DIFFERENT"


if __name__ == "__main__":
    raise SystemExit(main())
