"""Two corners where the cost of `plan` grew faster than its input (issue 26), measured as
a user meets them: the whole `prune-memory plan --json` command in a fresh process.

1. Unindexed files: a folder of 2,000, 8,000 and 50,000 topic files that MEMORY.md does
   not point at (each is an orphan the plan proposes to index). Before the fix the index
   was read again for every orphan: 6.4 s at 2,000, 41.8 s at 8,000, no answer in 600 s
   at 50,000.
2. Near-duplicates: 500 and 2,000 notes that differ from one another in a word or two,
   every one indexed (3.4 s and 27.1 s before the join was bounded).

The repo is a fresh one-commit repository, so only the memory folder costs anything. Each
figure is the median of three runs' CPU time (user + system of the child, which a busy
machine inflates far less than wall time) and the wall time of the same runs. Growth is
judged against n log n: time(8k) / time(2k) <= 4 log(8,000) / log(2,000), and likewise for
the near-duplicates.

Run: .venv/bin/python bench/bench_corners.py [--code DIR] [--sizes ...]
`--code DIR` times another checkout of the package (say, an older commit unpacked there)
with this one's generators: how the "before" figures in references/performance.md were
taken. Writes bench/results/bench_corners.json (or bench_corners_<label>.json with --label).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
NOW = "2026-11-29T12:00:00Z"
RUNS = 3
ORPHANS = (2000, 8000, 50_000)
NEAR = (500, 2000)
TOPICS = ("deploy", "cache", "upload", "login", "build", "queue", "search", "report")
NEAR_BASE = ("Deploy the api server to staging only after the nightly tests pass on main "
             "and the cache is warm")


def _topic(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{body}\n"


def write_orphans(dest: Path, count: int) -> Path:
    """`count` topic files, none in the index (which points at one other file)."""
    dest.mkdir(parents=True)
    (dest / "MEMORY.md").write_text("# Memory\n\n- [Kept](kept.md) — the one indexed\n")
    (dest / "kept.md").write_text(_topic("kept", "the one indexed", "Indexed."))
    for n in range(count):
        topic = TOPICS[n % len(TOPICS)]
        (dest / f"{topic}_{n:06d}.md").write_text(_topic(
            f"{topic} {n}", f"Note {n} on the {topic}",
            f"The {topic} step number {n} takes {n % 9 + 1} minutes on the shared runner."))
    return dest


def write_near_copies(dest: Path, count: int) -> Path:
    """`count` indexed notes, each the same sentence with one or two words of its own."""
    dest.mkdir(parents=True)
    words = NEAR_BASE.split()
    index = ["# Memory", "", "## Deploys"]
    for n in range(count):
        text = list(words)
        text[n % len(text)] = f"step{n % 97}"
        if n % 3 == 0:
            text.insert(n % len(text), f"variant{n % 31}")
        name = f"project_deploy_{n:05d}.md"
        (dest / name).write_text(_topic(f"deploy {n}", f"Deploy rule {n}", " ".join(text) + "."))
        index.append(f"- [Deploy {n}]({name}) — deploy rule {n}")
    (dest / "MEMORY.md").write_text("\n".join(index) + "\n")
    return dest


def plan_once(memory: Path, repo: Path, state: Path, code: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds of one whole `plan --json`, and how many entries it planned."""
    argv = [sys.executable, "-m", "prune_memory", "plan", str(memory), "--repo", str(repo),
            "--json", "--now", NOW]
    env = {**os.environ, "XDG_STATE_HOME": str(state), "PYTHONPATH": str(code)}
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, env=env, cwd=code, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        try:
            entries = len(json.loads(out.read())["entries"])
        except (ValueError, KeyError):
            entries = 0
    if status != 0:
        raise SystemExit(f"plan of {memory} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, entries


def measure(memory: Path, repo: Path, state: Path, code: Path, count: int) -> dict[str, Any]:
    runs = [plan_once(memory, repo, state, code) for _ in range(count)]
    return {"wall_s": round(statistics.median(r[0] for r in runs), 3),
            "cpu_s": round(statistics.median(r[1] for r in runs), 3), "entries": runs[0][2]}


def growth(rows: dict[str, dict[str, Any]], small: int, large: int) -> dict[str, Any]:
    ratio = rows[str(large)]["cpu_s"] / rows[str(small)]["cpu_s"]
    bound = (large / small) * math.log(large) / math.log(small)
    return {"from": small, "to": large, "cpu_ratio": round(ratio, 2), "bound": round(bound, 2),
            "within_n_log_n": ratio <= bound}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout of the package to time")
    parser.add_argument("--orphans", default=",".join(map(str, ORPHANS)))
    parser.add_argument("--near", default=",".join(map(str, NEAR)))
    parser.add_argument("--label", default="", help="suffix of the result file")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs per figure (median)")
    args = parser.parse_args()
    orphans = [int(n) for n in args.orphans.split(",") if n]
    near = [int(n) for n in args.near.split(",") if n]
    result: dict[str, Any] = {"code": str(args.code), "runs": args.runs, "orphans": {},
                              "near": {}}
    with tempfile.TemporaryDirectory(prefix="bench-corners-") as scratch:
        base = Path(scratch)
        repo = base / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / "README").write_text("bench\n")
        subprocess.run(["git", "-C", str(repo), "add", "README"], check=True)
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=b", "-c", "user.email=b@b",
                        "commit", "-qm", "one"], check=True)
        for count in orphans:
            memory = write_orphans(base / f"orphans-{count}", count)
            result["orphans"][str(count)] = measure(memory, repo, base / "state", args.code,
                                                      args.runs)
            print(f"{count:>6} unindexed files: {result['orphans'][str(count)]}", flush=True)
        for count in near:
            memory = write_near_copies(base / f"near-{count}", count)
            result["near"][str(count)] = measure(memory, repo, base / "state", args.code,
                                                      args.runs)
            print(f"{count:>6} near-duplicates: {result['near'][str(count)]}", flush=True)
    if len(orphans) >= 2:
        result["orphans_growth"] = growth(result["orphans"], orphans[0], orphans[1])
    if len(near) >= 2:
        result["near_growth"] = growth(result["near"], near[0], near[1])
    result["load_average"] = os.getloadavg()
    out = RESULTS / f"bench_corners{'_' + args.label if args.label else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for key in ("orphans_growth", "near_growth"):
        if key in result:
            print(f"{key}: {result[key]}")
    print(f"written: {out.relative_to(ROOT)}")
    judged = [result[k]["within_n_log_n"] for k in ("orphans_growth", "near_growth") if k in result]
    return 0 if all(judged) else 1


if __name__ == "__main__":
    sys.exit(main())
