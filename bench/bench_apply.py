"""`run --yes` apply throughput: withdrawals per second, fsync included, at several sizes.

Generated memory directories (bench/gen_store.py) with a large share of session chatter,
so `--yes` has hundreds to thousands of withdrawals to make. The bench trusts every
evidence class (by default only the classes measured on real folders act alone), as a
user's `[automation] trust` would. Two measurements on fresh copies:

1. in process, at each size, the stages `run --yes` calls: `build_plan`, the snapshot, then
   `finish_pass` (the journalled batch of withdrawals with fsync, the audit section, the
   rescan and the re-synthesis) — withdrawals per second are counted over `finish_pass`,
   and the time per withdrawal at the largest size over the smallest says whether the
   apply is linear (1.0) or grows with the directory;
2. the real command, `prune-memory run DIR --yes`, in a child process at the smallest
   size: end-to-end wall time.

Run: .venv/bin/python bench/bench_apply.py [ENTRIES ...]   (default 1000 3000 9000)
(prints a table, writes bench/results/bench_apply.json)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gen_store import MemoryShares, write_memory_dir  # noqa: E402
from tests.conftest import write_trust_config  # noqa: E402
from tests.jsonstore.storegen import Shares  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "bench_apply.json"
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
SHARES = MemoryShares(text=Shares(exact=0.08, near=0.04, negation=0.02), ephemeral=0.35,
                      stale_path=0.0, live_path=0.0, secret=0.01)


def in_process(root: Path, repo: Path) -> dict[str, Any]:
    from prune_memory.procedure.options import PassOptions
    from prune_memory.procedure.pipeline import build_plan
    from prune_memory.procedure.review import auto_decide
    from prune_memory.procedure.run_pass import finish_pass
    from prune_memory.store.snapshot import take_snapshot

    start = time.perf_counter()
    plan = build_plan(root, PassOptions(repo=repo, now=NOW, home=root.parent / "home"))
    plan_s = time.perf_counter() - start
    verdicts = auto_decide(plan).verdicts
    start = time.perf_counter()
    snapshot = take_snapshot(root, NOW)
    snapshot_s = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    report = finish_pass(root, plan, verdicts, [], snapshot=snapshot, now=NOW)
    apply_s, apply_cpu = time.perf_counter() - start, time.process_time() - cpu
    withdrawn = report.count("withdraw", "withdraw+inoculate")
    return {"plan_s": round(plan_s, 3), "snapshot_s": round(snapshot_s, 3),
            "finish_pass_s": round(apply_s, 3), "finish_pass_cpu_s": round(apply_cpu, 3),
            "accepted": len(verdicts), "withdrawn": withdrawn,
            "skipped": len(report.skipped),
            "withdrawals_per_s": round(withdrawn / apply_s, 1) if apply_s else None,
            "ms_per_withdrawal": round(1000 * apply_s / withdrawn, 2) if withdrawn else None}


def command(root: Path, repo: Path, state: Path) -> dict[str, Any]:
    script = shutil.which("prune-memory", path=str(Path(sys.executable).parent))
    argv = [script] if script else [sys.executable, "-m", "prune_memory"]
    env = {**os.environ, "XDG_STATE_HOME": str(state)}
    start = time.perf_counter()
    done = subprocess.run([*argv, "run", str(root), "--repo", str(repo), "--yes",
                           "--now", NOW.isoformat()], env=env, capture_output=True, cwd=root)
    wall = time.perf_counter() - start
    tombstones = len(list((root / "deaccessioned").glob("*.md")))
    return {"exit_code": done.returncode, "wall_s": round(wall, 3), "tombstones": tombstones}


def sized(base: Path, repo: Path, entries: int) -> tuple[dict[str, Any], Path]:
    """One size: a fresh directory, the in-process stages; returns a copy for the command."""
    made = write_memory_dir(base / f"source-{entries}", entries, seed=11, shares=SHARES,
                            now=NOW)
    shutil.copytree(made.root, base / f"a-{entries}")
    shutil.copytree(made.root, base / f"b-{entries}")
    os.environ["XDG_STATE_HOME"] = str(base / f"state-a-{entries}")
    row = {"entries": entries, "generated": made.kinds,
           **in_process(base / f"a-{entries}", repo)}
    return row, base / f"b-{entries}"


def main(sizes: list[int]) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-apply-") as tmp:
        base = Path(tmp)
        repo = base / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        # By default only the evidence classes measured on real folders act alone; the
        # bench trusts every class, so `--yes` has the generated chatter to withdraw.
        os.environ["XDG_CONFIG_HOME"] = str(base / "config")
        write_trust_config(base / "config")
        rows, copies = zip(*(sized(base, repo, n) for n in sizes), strict=True)
        outer = command(copies[0], repo, base / "state-b")
    small, large = rows[0], rows[-1]
    growth = (large["ms_per_withdrawal"] / small["ms_per_withdrawal"]
              if small["ms_per_withdrawal"] and large["ms_per_withdrawal"] else None)
    result = {"entries": sizes[0], "in_process": small, "sizes": list(rows),
              "growth_per_withdrawal": round(growth, 2) if growth else None,
              "command": outer, "when": datetime.now(UTC).isoformat(timespec="seconds"),
              "load_average": os.getloadavg()}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"{'entries':>8} {'withdrawn':>10} {'plan s':>8} {'apply s':>8} {'/s':>8} "
          f"{'ms each':>8}")
    for row in rows:
        print(f"{row['entries']:>8,} {row['withdrawn']:>10,} {row['plan_s']:>8} "
              f"{row['finish_pass_s']:>8} {row['withdrawals_per_s']!s:>8} "
              f"{row['ms_per_withdrawal']!s:>8}")
    print(f"time per withdrawal, {sizes[-1]:,} over {sizes[0]:,} entries: "
          f"{result['growth_per_withdrawal']}")
    print(f"prune-memory run --yes on {sizes[0]:,} entries: {outer['wall_s']} s, exit "
          f"{outer['exit_code']}, {outer['tombstones']} tombstones")
    print(f"written: {RESULTS.relative_to(ROOT)}")
    return 0 if outer["exit_code"] in (0, 2) and all(r["withdrawn"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main([int(a) for a in sys.argv[1:]] or [1000, 3000, 9000]))
