"""Start-up of the everyday commands: `--help`, `where` and `due`, the real console script.

Each command runs N times in a fresh process, the commands interleaved so a burst of load
on a shared machine hits them all alike; bytecode is compiled once beforehand (as after
`pip install`). Besides the wall time, each command is run once under `-X importtime` to
list which heavy libraries it loaded: a command should import only what it uses.

Run: .venv/bin/python bench/bench_startup.py [N]
(prints a table and writes bench/results/bench_startup.json)
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
BUDGET_MS = 250
SCRIPT = Path(sys.executable).with_name("prune-memory")
HEAVY = ("git", "markdown_it", "yaml", "rich", "pydantic", "detect_secrets", "frontmatter",
         "regex")
NOW = "2026-11-29T12:00:00Z"


def commands(memory: Path) -> dict[str, list[str]]:
    return {
        "--help": ["--help"],
        "where": ["where", str(ROOT)],
        "due": ["due", str(memory), "--now", NOW],
    }


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([str(SCRIPT), *argv], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) * 1000


def heavy_imports(argv: list[str], env: dict[str, str]) -> list[str]:
    """The heavy libraries a command loads, read from `-X importtime`."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "prune_memory", *argv],
                          env=env, capture_output=True, text=True, check=False)
    loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
              if line.startswith("import time:")}
    return sorted(name for name in HEAVY if name in loaded)


def measure(memory: Path, env: dict[str, str]) -> dict[str, dict[str, object]]:
    cases = commands(memory)
    walls: dict[str, list[float]] = {name: [] for name in cases}
    walls["python -c pass"] = []
    for argv in cases.values():  # compile the bytecode first
        timed(argv, env)
    for _ in range(RUNS):
        for name, argv in cases.items():
            walls[name].append(timed(argv, env))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=False)
        walls["python -c pass"].append((time.perf_counter() - start) * 1000)
    out: dict[str, dict[str, object]] = {}
    for name, ms in walls.items():
        row: dict[str, object] = {"median_ms": round(statistics.median(ms), 1),
                                  "min_ms": round(min(ms), 1)}
        if name in cases:
            row["heavy_imports"] = heavy_imports(cases[name], env)
            row["budget_ms"] = BUDGET_MS
        out[name] = row
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        memory = Path(tmp) / "memory"
        shutil.copytree(ROOT / "fixtures" / "demo-memory", memory)
        env = {**os.environ, "XDG_STATE_HOME": str(Path(tmp) / "state"),
               "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        rows = measure(memory, env)
    print(f"{'command':<16} {'median':>9} {'min':>9}  heavy libraries loaded")
    for name, row in rows.items():
        print(f"{name:<16} {row['median_ms']:>7.1f}ms {row['min_ms']:>7.1f}ms  "
              f"{', '.join(row.get('heavy_imports', [])) or '-'}")  # type: ignore[arg-type]
    result = {"runs": RUNS, "budget_ms": BUDGET_MS, "commands": rows}
    out = ROOT / "bench" / "results" / "bench_startup.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    over = [n for n, r in rows.items() if "budget_ms" in r and r["median_ms"] >= BUDGET_MS]  # type: ignore[operator]
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
