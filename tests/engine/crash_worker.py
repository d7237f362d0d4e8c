"""Run by test_crash.py in a subprocess: check the snapshot gate, then withdraw the given
entries as one batch. It is SIGKILLed at an exact step, or by the parent at a random moment.

usage: crash_worker.py MEMORY_DIR MANIFEST|- FILE,FILE,... [--no-fsync] [--stop-at N]

`-` takes a new snapshot; a manifest path re-verifies the pass's snapshot instead.
`--no-fsync` makes fsync a no-op: a killed process loses nothing the kernel already has,
so fsync only matters for power loss, which this test cannot cause anyway.
`--stop-at N` lets N of the batch's file operations (every journalled write, rewrite and
removal goes through `store.atomic`) complete, then SIGKILLs the process as the next one
begins: a real kill at a step chosen by its index, however loaded the machine is.
"""

from __future__ import annotations

import os
import signal
import sys
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.withdraw import withdraw_many
from prune_memory.store import atomic
from prune_memory.store.snapshot import load_snapshot, take_snapshot

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def main(argv: list[str]) -> None:
    root, manifest, files = Path(argv[0]), argv[1], argv[2].split(",")
    if "--no-fsync" in argv:
        os.fsync = lambda fd: None
    snap = take_snapshot(root, NOW) if manifest == "-" else \
        load_snapshot(root, Path(manifest), NOW)
    print(f"ready {snap.manifest}", flush=True)
    if "--stop-at" in argv:
        stop_at(int(argv[argv.index("--stop-at") + 1]))
    requests = [WithdrawRequest(f, "crash test: stale entry", "4-stale-subject-gone")
                for f in files]
    result = withdraw_many(root, requests, snapshot=snap, now=NOW)
    print(f"done {len(result.applied)} {len(result.skipped)}", flush=True)


def stop_at(allowed: int) -> None:
    """SIGKILL this process when file operation number `allowed` (from 0) begins."""
    done = {"n": 0}

    def gate() -> None:
        if done["n"] >= allowed:
            os.kill(os.getpid(), signal.SIGKILL)
        done["n"] += 1

    write, rewrite, remove = atomic.atomic_write, atomic.rewrite, atomic.remove_file
    atomic.atomic_write = lambda p, d: (gate(), write(p, d))[1]  # type: ignore[assignment]
    atomic.rewrite = lambda p, c: (gate(), rewrite(p, c))[1]  # type: ignore[assignment]
    atomic.remove_file = lambda p: (gate(), remove(p))[1]  # type: ignore[assignment]


if __name__ == "__main__":
    main(sys.argv[1:])
