"""Run by test_crash.py in a subprocess: check the snapshot gate, then withdraw the given
entries as one batch. The parent SIGKILLs it at a random moment.

usage: crash_worker.py MEMORY_DIR MANIFEST|- FILE,FILE,... [--no-fsync]

`-` takes a new snapshot; a manifest path re-verifies the pass's snapshot instead.
`--no-fsync` makes fsync a no-op: a killed process loses nothing the kernel already has,
so fsync only matters for power loss, which this test cannot cause anyway.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.engine import apply
from prune_memory.engine.apply import WithdrawRequest
from prune_memory.procedure.snapshot import load_snapshot, take_snapshot

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def main(argv: list[str]) -> None:
    root, manifest, files = Path(argv[0]), argv[1], argv[2].split(",")
    if "--no-fsync" in argv:
        os.fsync = lambda fd: None
    snap = take_snapshot(root, NOW) if manifest == "-" else \
        load_snapshot(root, Path(manifest), NOW)
    print(f"ready {snap.manifest}", flush=True)
    requests = [WithdrawRequest(f, "crash test: stale entry", "4-stale-subject-gone")
                for f in files]
    result = apply.withdraw_many(root, requests, snapshot=snap, now=NOW)
    print(f"done {len(result.applied)} {len(result.skipped)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
