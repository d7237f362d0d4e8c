"""Deaccession engine figures: snapshot time, withdrawals and restores per second.

Run: .venv/bin/python bench/engine.py [ENTRIES]
(prints a table, writes bench/results/engine.json). Real fsync throughout: these are the
costs a user pays on this disk.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prune_memory.engine.restore import restore  # noqa: E402
from prune_memory.engine.results import WithdrawRequest  # noqa: E402
from prune_memory.engine.withdraw import withdraw_many  # noqa: E402
from prune_memory.store.snapshot import take_snapshot  # noqa: E402
from tests.engine.test_crash import build_memory  # noqa: E402

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def timed(label: str, figures: dict[str, float], action: object) -> object:
    start = time.perf_counter()
    out = action() if callable(action) else None
    figures[label] = round(time.perf_counter() - start, 3)
    return out


def main(entries: int) -> dict[str, object]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_STATE_HOME"] = str(Path(tmp) / "state")
        root = Path(tmp) / "memory"
        originals = build_memory(root)
        names = sorted(originals)[:entries]
        snap = timed("snapshot_s", figures, lambda: take_snapshot(root, NOW))
        result = timed("withdraw_s", figures, lambda: withdraw_many(
            root, [WithdrawRequest(n, "bench") for n in names], snapshot=snap, now=NOW))
        ids = list(result.register_ids)  # type: ignore[attr-defined]
        sample = ids[:: max(1, len(ids) // 50)]
        timed("restore_s", figures,
              lambda: [restore(root, rid, now=NOW) for rid in sample])
    return {
        "entries": len(names), "restored": len(sample), **figures,
        "withdrawals_per_s": round(len(names) / figures["withdraw_s"], 1),
        "restores_per_s": round(len(sample) / figures["restore_s"], 1),
        "ms_per_withdrawal": round(1000 * figures["withdraw_s"] / len(names), 2),
        "python": platform.python_version(), "machine": platform.machine(),
    }


if __name__ == "__main__":
    report = main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
    width = max(len(k) for k in report)
    for key, value in report.items():
        print(f"{key:<{width}}  {value}")
    out = ROOT / "bench" / "results" / "engine.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {out.relative_to(ROOT)}")
