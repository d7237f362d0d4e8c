"""The whole read-only pass at scale: `build_plan` at 1k / 10k / 30k entries, 20k-file repo.

A 20,000-file repo with 2,000 commits (bench/gen_repo.py) and, for each size, a memory
directory from bench/gen_store.py (duplicates, near duplicates, negation pairs, ephemeral
lines, stale and live paths, fake secrets). Each size runs in its own child process so its
peak resident memory is its own. In the child:

1. `build_plan` once, timed stage by stage (load, classify, repo, fidelity, hygiene, staleness,
   decide), and the child's peak RSS;
2. in a second child: `load_memory_dir` alone, then the analysis of issue 5 on the loaded
   entries (`check_fidelity` + `check_hygiene`), three runs, median and CPU time. (Run after
   a whole plan in the same process, the same work is slower: the plan's objects make every
   pass of the cycle collector longer. Inside `build_plan` the two stages are also timed.)

3. in a third child: the floor, reading every file of the directory and parsing its YAML
   frontmatter with the loader the tool uses (libyaml's), best of three.

Either generator gives the text (`--generator`): `zipf` (storegen's, a vocabulary that grows
with the store) or `similar` (bench/gen_similar.py: 150 words, mostly near copies, negations,
session notes).

Targets: the 10,000-entry analysis under 3 s (issue 5); `build_plan` at 10,000 entries within
8x the floor, peak memory under 1 GB, and growth no worse than n log n: time(30k) /
time(10k) at most 3 * log(30k) / log(10k) = 3.36 (issues 13 and 25).

Run: .venv/bin/python bench/bench_plan.py [--sizes 1000,10000,30000] [--generator similar]
[--keep DIR]   (prints a table, writes bench/results/bench_plan[_similar].json)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gen_repo import build_repo, build_stream  # noqa: E402
from bench.gen_store import GENERATORS, write_memory_dir  # noqa: E402

RESULTS = ROOT / "bench" / "results"
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
ANALYSIS_TARGET_S = 3.0
ANALYSIS_SIZE = 10_000
FLOOR_RATIO_TARGET = 8.0
PEAK_RSS_TARGET_MB = 1024


def child(memory: Path, repo: Path) -> dict[str, Any]:
    """Runs in a child process: the whole `build_plan`, stage by stage, and its peak RSS."""
    from prune_memory.procedure.options import PassOptions
    from prune_memory.procedure.pipeline import build_plan

    stages: dict[str, float] = {}
    clock = {"stage": "", "at": time.perf_counter()}

    def progress(stage: str) -> None:
        now = time.perf_counter()
        if clock["stage"]:
            stages[str(clock["stage"])] = round(now - float(clock["at"]), 3)
        clock.update(stage=stage, at=now)

    options = PassOptions(repo=repo, now=NOW, home=memory.parent / "home")
    start, cpu = time.perf_counter(), time.process_time()
    plan = build_plan(memory, options, progress)
    progress("")
    total, total_cpu = time.perf_counter() - start, time.process_time() - cpu
    actions: dict[str, int] = {}
    for entry in plan.entries:
        actions[entry.action.value] = actions.get(entry.action.value, 0) + 1
    return {"entries": len(plan.entries), "build_plan_s": round(total, 3),
            "build_plan_cpu_s": round(total_cpu, 3), "stages_s": stages,
            "in_plan_analysis_s": round(stages.get("fidelity", 0) + stages.get("hygiene", 0), 3),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "actions": dict(sorted(actions.items())), "load_errors": len(plan.errors)}


def analysis_child(memory: Path) -> dict[str, Any]:
    """Runs in its own child process: `load_memory_dir`, then issue 5's analysis of the
    loaded entries (`check_fidelity` + `check_hygiene`) three times."""
    from prune_memory.analysis.hygiene import check_hygiene
    from prune_memory.analysis.policy import load_policy
    from prune_memory.procedure.fidelity import check_fidelity
    from prune_memory.store.loader import load_memory_dir

    load_s, memdir = _timed(lambda: load_memory_dir(memory))
    policy = load_policy(memory)
    runs = [_timed(lambda: (check_fidelity(memdir, protected=frozenset()),
                            check_hygiene(memdir, policy=policy)), cpu=True)[0]
            for _ in range(3)]
    return {"load_s": round(load_s, 3),
            "analysis_wall_s": [round(r[0], 3) for r in runs],
            "analysis_cpu_s": [round(r[1], 3) for r in runs],
            "analysis_median_s": round(statistics.median(r[0] for r in runs), 3)}


def floor_child(memory: Path) -> dict[str, Any]:
    """Runs in its own child process: read every file and parse its YAML frontmatter, the
    least any pass over the directory must do. Best of three."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def read_all() -> int:
        parsed = 0
        for item in os.scandir(memory):
            if not item.name.endswith(".md") or not item.is_file():
                continue
            with open(item.path, "rb") as handle:
                text = handle.read().decode("utf-8")
            if text.startswith("---\n"):
                end = text.find("\n---", 4)
                if end > 0:
                    yaml.load(text[4:end], Loader=loader)  # libyaml's safe loader
                    parsed += 1
        return parsed

    runs = [_timed(read_all, cpu=True)[0] for _ in range(3)]
    return {"floor_s": round(min(r[0] for r in runs), 3),
            "floor_cpu_s": round(min(r[1] for r in runs), 3)}


def _timed(work: Any, *, cpu: bool = False) -> tuple[Any, Any]:
    wall, used = time.perf_counter(), time.process_time()
    result = work()
    elapsed = time.perf_counter() - wall
    return ((elapsed, time.process_time() - used), result) if cpu else (elapsed, result)


def run_size(base: Path, size: int, facts: Any, generator: str) -> dict[str, Any]:
    memory = base / f"memory-{generator}-{size}"
    if memory.exists():
        shutil.rmtree(memory)
    made = write_memory_dir(memory, size, seed=size, facts=facts, now=NOW, generator=generator)
    row: dict[str, Any] = _spawn(["--child", str(memory), str(base / "repo")], size)
    row.update(_spawn(["--child-analysis", str(memory)], size))
    row.update(_spawn(["--child-floor", str(memory)], size))
    row["over_floor"] = round(row["build_plan_s"] / row["floor_s"], 1)
    # CPU time: what a busy machine inflates least (its wall time waits for the cores)
    row["over_floor_cpu"] = round(row["build_plan_cpu_s"] / row["floor_cpu_s"], 1)
    row["generated"] = made.kinds
    return row


def _spawn(args: list[str], size: int) -> dict[str, Any]:
    proc = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, cwd=ROOT)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, _usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"{args[0]} for {size} entries failed with status {status}")
    result: dict[str, Any] = json.loads(out)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,30000")
    parser.add_argument("--keep", type=Path, help="build in this directory and keep it")
    parser.add_argument("--generator", choices=GENERATORS, default="zipf")
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child-analysis", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child-floor", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_floor:
        print(json.dumps(floor_child(args.child_floor)))
        return 0
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    if args.child_analysis:
        print(json.dumps(analysis_child(args.child_analysis)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        return measure(args.keep, sizes, args.generator)
    with tempfile.TemporaryDirectory(prefix="bench-plan-") as scratch:
        return measure(Path(scratch), sizes, args.generator)


def measure(base: Path, sizes: list[int], generator: str) -> int:
    start = time.perf_counter()
    kept = (base / "repo" / ".git").is_dir()  # --keep: the same history, not rebuilt
    facts = build_stream()[1] if kept else build_repo(base / "repo")
    repo_s = time.perf_counter() - start
    rows = {str(size): run_size(base, size, facts, generator) for size in sizes}
    result: dict[str, Any] = {
        "generator": generator, "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "repo": {"tracked_files": len(facts.live) + 2, "commits": 2000,
                 "build_s": round(repo_s, 1)},
        "sizes": rows, "load_average": os.getloadavg()}
    for small, large, name in (("1000", "10000", "10k_over_1k"), ("10000", "30000",
                                                                   "30k_over_10k")):
        if small in rows and large in rows:
            result[f"scaling_{name}"] = round(
                rows[large]["build_plan_s"] / rows[small]["build_plan_s"], 2)
            result[f"scaling_{name}_cpu"] = round(
                rows[large]["build_plan_cpu_s"] / rows[small]["build_plan_cpu_s"], 2)
    if "scaling_30k_over_10k" in result:
        result["scaling_30k_over_10k_bound"] = round(3 * math.log(30_000) / math.log(10_000), 2)
        result["growth_within_n_log_n"] = (result["scaling_30k_over_10k_cpu"]
                                           <= result["scaling_30k_over_10k_bound"])
    if "10000" in rows:
        result["plan_10k_within_8x_floor"] = \
            rows["10000"]["over_floor_cpu"] <= FLOOR_RATIO_TARGET
        result["plan_10k_under_1gb"] = rows["10000"]["peak_rss_mb"] < PEAK_RSS_TARGET_MB
    if str(ANALYSIS_SIZE) in rows:
        median = rows[str(ANALYSIS_SIZE)]["analysis_median_s"]
        result["analysis_10k_within_target"] = median < ANALYSIS_TARGET_S
    out = RESULTS / ("bench_plan.json" if generator == "zipf" else f"bench_plan_{generator}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print_table(result, out)
    return 0 if result.get("analysis_10k_within_target", True) else 1


def print_table(result: dict[str, Any], out: Path) -> None:
    print(f"generator: {result['generator']}; repo: {result['repo']['tracked_files']:,} files, "
          f"{result['repo']['commits']:,} commits (built in {result['repo']['build_s']} s)")
    head = (f"{'entries':>8} {'build_plan':>11} {'floor':>7} {'x floor':>8} {'load':>7} "
            f"{'analysis':>9} {'peak RSS':>9}  stages")
    print(head)
    for size, row in result["sizes"].items():
        stages = ", ".join(f"{k} {v:.2f}" for k, v in row["stages_s"].items())
        print(f"{int(size):>8,} {row['build_plan_s']:>10.2f}s {row['floor_s']:>6.2f}s "
              f"{row['over_floor']:>7.1f}x {row['load_s']:>6.2f}s "
              f"(cpu {row['over_floor_cpu']:.1f}x) "
              f"{row['analysis_median_s']:>8.2f}s {row['peak_rss_mb']:>7.0f}MB  {stages}")
    if "scaling_10k_over_1k" in result:
        print(f"scaling time(10k)/time(1k): {result['scaling_10k_over_1k']}")
    if "scaling_30k_over_10k" in result:
        print(f"scaling time(30k)/time(10k): {result['scaling_30k_over_10k']}, CPU "
              f"{result['scaling_30k_over_10k_cpu']} (n log n: "
              f"{result['scaling_30k_over_10k_bound']})")
    if "plan_10k_within_8x_floor" in result:
        print(f"10k plan within {FLOOR_RATIO_TARGET:.0f}x the floor: "
              f"{result['plan_10k_within_8x_floor']}; under 1 GB: {result['plan_10k_under_1gb']}")
    if "analysis_10k_within_target" in result:
        print(f"10k analysis (fidelity + hygiene) under {ANALYSIS_TARGET_S:.0f} s: "
              f"{result['analysis_10k_within_target']}")
    print(f"written: {out.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
