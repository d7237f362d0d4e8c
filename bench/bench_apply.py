"""`run --yes` apply throughput: withdrawals per second, fsync included.

A generated memory directory (bench/gen_store.py) with a large share of session chatter,
so `--yes` has hundreds of withdrawals to make. Two measurements on two fresh copies:

1. in process, the stages `run --yes` calls: `build_plan`, the snapshot, then
   `finish_pass` (journalled withdrawals with fsync, the audit section, the rescan and the
   re-synthesis) — withdrawals per second are counted over `finish_pass`;
2. the real command, `prune-memory run DIR --yes`, in a child process: end-to-end wall time.

Run: .venv/bin/python bench/bench_apply.py [ENTRIES]
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
from tests.jsonstore.storegen import Shares  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "bench_apply.json"
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
SHARES = MemoryShares(text=Shares(exact=0.08, near=0.04, negation=0.02), ephemeral=0.35,
                      stale_path=0.0, live_path=0.0, secret=0.01)


def in_process(root: Path, repo: Path) -> dict[str, Any]:
    from prune_memory.procedure.finish import finish_pass
    from prune_memory.procedure.options import PassOptions
    from prune_memory.procedure.pipeline import build_plan
    from prune_memory.procedure.review import auto_verdicts
    from prune_memory.procedure.snapshot import take_snapshot

    start = time.perf_counter()
    plan = build_plan(root, PassOptions(repo=repo, now=NOW, home=root.parent / "home"))
    plan_s = time.perf_counter() - start
    verdicts = auto_verdicts(plan)[0]
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


def main(entries: int) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-apply-") as tmp:
        base = Path(tmp)
        repo = base / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        made = write_memory_dir(base / "source", entries, seed=11, shares=SHARES, now=NOW)
        shutil.copytree(made.root, base / "a")
        shutil.copytree(made.root, base / "b")
        os.environ["XDG_STATE_HOME"] = str(base / "state-a")
        inner = in_process(base / "a", repo)
        outer = command(base / "b", repo, base / "state-b")
    result = {"entries": entries, "generated": made.kinds, "in_process": inner,
              "command": outer, "when": datetime.now(UTC).isoformat(timespec="seconds"),
              "load_average": os.getloadavg()}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"{entries:,} entries; generated {made.kinds}")
    print(f"{'measure':<40} {'value':>10}")
    for key in ("plan_s", "snapshot_s", "finish_pass_s", "withdrawn", "skipped",
                "withdrawals_per_s", "ms_per_withdrawal"):
        print(f"{key:<40} {inner[key]!s:>10}")
    print(f"{'prune-memory run --yes, wall s':<40} {outer['wall_s']:>10}")
    print(f"{'  exit code / tombstones':<40} {outer['exit_code']:>5} / {outer['tombstones']}")
    print(f"written: {RESULTS.relative_to(ROOT)}")
    return 0 if outer["exit_code"] in (0, 2) and inner["withdrawn"] else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
