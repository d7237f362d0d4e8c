"""`prune-memory plan` on real memory folders of 100 entries or more: the whole command.

No real folder can be bundled here (they are other people's notes), so this benchmark
reads the folders the corpus setup materialises (`make calibrate` builds them under
/tmp/corpus; `CORPUS=DIR` points elsewhere): each `<name>/memory` with its `<name>/repo`.
A folder is timed when its plan has at least 100 entries. Each command runs in a fresh
process, as a user runs it (interpreter, imports, one git pass, every stage, JSON out),
after one run that compiles the bytecode; the median of five is kept.

Without any corpus folder the benchmark says so and records nothing to judge.

Run: .venv/bin/python bench/bench_realdir.py   (or: make bench CORPUS=/tmp/corpus)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("prune-memory")
OUT = ROOT / "bench" / "results" / "bench_realdir.json"
MIN_ENTRIES = 100
RUNS = 5
TARGET_S = 1.0
NOW = "2026-11-29T12:00:00Z"


def plan_once(folder: Path, state: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds (user + system) of one whole `plan --json`, and how many
    entries it planned."""
    argv = [str(SCRIPT), "plan", str(folder / "memory"), "--repo", str(folder / "repo"),
            "--json", "--now", NOW]
    env = {**os.environ, "XDG_STATE_HOME": str(state)}
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.DEVNULL)
        _, _status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        try:
            entries = len(json.loads(out.read())["entries"])
        except (ValueError, KeyError):
            entries = 0
    return seconds, usage.ru_utime + usage.ru_stime, entries


def measure(corpus: Path) -> dict[str, dict[str, float | int]]:
    rows: dict[str, dict[str, float | int]] = {}
    with tempfile.TemporaryDirectory() as state:
        for folder in sorted(p for p in corpus.iterdir() if (p / "memory").is_dir()):
            *_, entries = plan_once(folder, Path(state))  # also compiles the bytecode
            if entries < MIN_ENTRIES:
                continue
            runs = [plan_once(folder, Path(state)) for _ in range(RUNS)]
            walls = [r[0] for r in runs]
            rows[folder.name] = {"entries": entries,
                                 "median_s": round(statistics.median(walls), 3),
                                 "max_s": round(max(walls), 3),
                                 "median_cpu_s": round(statistics.median(r[1] for r in runs),
                                                       3)}
    return rows


def main() -> int:
    corpus = Path(os.environ.get("CORPUS", "/tmp/corpus"))
    rows = measure(corpus) if corpus.is_dir() else {}
    result = {"corpus": str(corpus), "runs": RUNS, "target_s": TARGET_S, "folders": rows}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if not rows:
        print(f"no real folder of {MIN_ENTRIES}+ entries under {corpus}: nothing measured "
              "(run `make calibrate MIRROR=...` first)")
        return 0
    for name, row in rows.items():
        print(f"{name}: {row['entries']} entries, plan median {row['median_s']:.2f} s "
              f"(max {row['max_s']:.2f} s; CPU {row['median_cpu_s']:.2f} s)")
    return 0 if all(float(r["median_s"]) < TARGET_S for r in rows.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
