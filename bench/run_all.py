"""Run every benchmark, print one table, save bench/results/all.json and
references/performance.md (the measured figures and the machine they came from).

Each benchmark runs as its own process (its own peak memory, no warm caches shared) and
writes its own JSON under bench/results/; this script reads those back. A benchmark that
fails or misses its target is reported as such; the others still run.

Run: .venv/bin/python bench/run_all.py [--only NAME,NAME] [--skip NAME,NAME]   (or: make bench)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.figures import Figure, figures  # noqa: E402
from bench.perfdoc import render  # noqa: E402

RESULTS = ROOT / "bench" / "results"
# name -> (script, arguments, result file)
BENCHES: dict[str, tuple[str, list[str], str]] = {
    "probe": ("bench_probe.py", [], "bench_probe.json"),
    "jsonl": ("bench_jsonl.py", [], "bench_jsonl.json"),
    "plan": ("bench_plan.py", [], "bench_plan.json"),
    "plan_similar": ("bench_plan.py", ["--generator", "similar"], "bench_plan_similar.json"),
    "corners": ("bench_corners.py", [], "bench_corners.json"),
    "apply": ("bench_apply.py", [], "bench_apply.json"),
    "engine": ("engine.py", [], "engine.json"),
    "hygiene": ("hygiene.py", [], "hygiene.json"),
    "gate": ("bench_gate.py", [], "bench_gate.json"),
    "startup": ("bench_startup.py", [], "bench_startup.json"),
    "realdir": ("bench_realdir.py", [], "bench_realdir.json"),
}


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.lower().startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory_gb = None
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        first = meminfo.read_text().splitlines()[0].split()
        memory_gb = round(int(first[1]) / 2**20, 1)
    return {"nproc": os.cpu_count(), "cpu_model": model, "memory_gb": memory_gb,
            "python": platform.python_version(), "platform": platform.platform(),
            "load_average_start": [round(x, 2) for x in os.getloadavg()]}


def run_bench(name: str) -> dict[str, Any]:
    script, args, result = BENCHES[name]
    path = ROOT / "bench" / script
    if not path.exists():
        return {"status": "missing", "seconds": 0.0}
    stale = RESULTS / result
    if stale.exists():
        stale.unlink()  # a failed run must not report last time's figures
    print(f"\n=== {name}: {script} {' '.join(args)}", flush=True)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(path), *args], cwd=ROOT)
    seconds = round(time.perf_counter() - start, 1)
    status = "ok" if done.returncode == 0 else f"exit {done.returncode}"
    data = json.loads(stale.read_text()) if stale.exists() else None
    return {"status": status if data is not None else "no result", "seconds": seconds,
            "data": data}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    parser.add_argument("--skip", default="", help="comma-separated benchmark names")
    parser.add_argument("--render-only", action="store_true",
                        help="rebuild the table and performance.md from all.json, run nothing")
    parser.add_argument("--collect", action="store_true",
                        help="run nothing: read each benchmark's own result file (left by "
                             "running the scripts one by one) into all.json and the doc")
    args = parser.parse_args()
    if args.render_only:
        return render_only()
    if args.collect:
        return collect()
    only = [n for n in args.only.split(",") if n] or list(BENCHES)
    skip = {n for n in args.skip.split(",") if n}
    unknown = (set(only) | skip) - set(BENCHES)
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}; "
                     f"known: {', '.join(BENCHES)}")
    host = machine()
    runs = {name: run_bench(name) for name in only if name not in skip}
    host["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    table = figures({name: run.get("data") for name, run in runs.items()})
    report = {"when": datetime.now(UTC).isoformat(timespec="seconds"), "machine": host,
              "runs": {name: {k: v for k, v in run.items() if k != "data"}
                       for name, run in runs.items()},
              "figures": [f.to_json() for f in table],
              "results": {name: run.get("data") for name, run in runs.items()}}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "all.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    doc = ROOT / "references" / "performance.md"
    doc.write_text(render(report, table), encoding="utf-8")
    print_table(report, table)
    print(f"\nwritten: bench/results/all.json, {doc.relative_to(ROOT)}")
    missed = [f for f in table if f.met is False]
    return 1 if missed or any(r["status"] not in ("ok", "missing") for r in runs.values()) else 0


def collect() -> int:
    """all.json and performance.md from the result files the benchmarks left, each run on
    its own (on a shared machine, some at once to fit the time there is)."""
    host = machine()
    host["load_average_end"] = host["load_average_start"]
    data: dict[str, Any] = {}
    runs: dict[str, dict[str, Any]] = {}
    for name, (_script, _args, result) in BENCHES.items():
        path = RESULTS / result
        data[name] = json.loads(path.read_text()) if path.exists() else None
        runs[name] = {"status": "ok (run on its own)" if path.exists() else "not run",
                      "seconds": 0.0}
    table = figures(data)
    report = {"when": datetime.now(UTC).isoformat(timespec="seconds"), "machine": host,
              "runs": runs, "figures": [f.to_json() for f in table], "results": data,
              "note": "assembled by `run_all.py --collect` from the benchmarks' own result "
                      "files: they were run one by one, some at the same time, on the shared "
                      "machine; the load average given is the one at collection"}
    (RESULTS / "all.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (ROOT / "references" / "performance.md").write_text(render(report, table), encoding="utf-8")
    print_table(report, table)
    return 1 if any(f.met is False for f in table) else 0


def render_only() -> int:
    report = json.loads((RESULTS / "all.json").read_text(encoding="utf-8"))
    table = figures(report["results"])
    report["figures"] = [f.to_json() for f in table]
    (RESULTS / "all.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (ROOT / "references" / "performance.md").write_text(render(report, table), encoding="utf-8")
    print_table(report, table)
    return 0


def print_table(report: dict[str, Any], table: list[Figure]) -> None:
    host = report["machine"]
    print(f"\n{host['nproc']} CPUs ({host['cpu_model']}), Python {host['python']}, load "
          f"{host['load_average_start']} -> {host['load_average_end']}")
    width = max(len(f.label) for f in table) if table else 20
    print(f"{'figure':<{width}}  {'measured':>14}  {'target':>10}  met")
    for f in table:
        met = {True: "yes", False: "NO", None: ""}[f.met]
        print(f"{f.label:<{width}}  {f.shown:>14}  {f.target or '':>10}  {met}")
    for name, run in report["runs"].items():
        if run["status"] != "ok":
            print(f"{name}: {run['status']}")


if __name__ == "__main__":
    sys.exit(main())
