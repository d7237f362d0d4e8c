"""Latency of `prune-memory hook gate`: the real console script, one process per call.

Claude Code starts a fresh process for every Write, Edit, MultiEdit and Bash call, so the
figure that matters includes interpreter start-up and every import. Each case below runs
N times, the cases interleaved so a burst of load on a shared machine hits them all alike.
Wall time is what Claude Code waits; CPU time (user + sys) is the steadier figure when the
machine is busy.

Two set-ups: `bytecode` has compiled modules cached (as after `pip install`, which compiles
them; the cache goes to a temporary PYTHONPYCACHEPREFIX), `source` compiles every module of
the package on each call (as here, where PYTHONDONTWRITEBYTECODE=1 and no __pycache__ exists).

Run: .venv/bin/python bench/bench_gate.py [N]
(prints a table and writes bench/results/bench_gate.json)
"""

from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 60
BUDGET_MS = 100  # the median, as installed
SIZE = 50_000
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # a made-up token of GitHub's shape


def clean_text(size: int = SIZE) -> str:
    """Ordinary memory prose from the demo fixture, repeated to `size` characters.

    Only demo bodies the gate passes are used, so the clean case really is clean.
    """
    sys.path.insert(0, str(ROOT))
    from prune_memory.claude.hooks.checks import check_texts
    from prune_memory.claude.hooks.payload import Candidate

    bodies = []
    for path in sorted((ROOT / "fixtures" / "demo-memory").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        body = text.split("---", 2)[2].strip() if text.startswith("---") else text.strip()
        if not check_texts([Candidate("content", body)], str(path.parent)).hits:
            bodies.append(body)
    out, i = "", 0
    while len(out) < size:
        out += bodies[i % len(bodies)] + "\n\n"
        i += 1
    return out[:size]


def payload(tool: str, tool_input: dict[str, object]) -> bytes:
    return json.dumps({"session_id": "bench", "transcript_path": "/dev/null", "cwd": "/tmp",
                       "hook_event_name": "PreToolUse", "tool_name": tool,
                       "tool_input": tool_input}).encode()


def cases(memory: Path, text: str) -> dict[str, tuple[bytes, bool]]:
    """name -> (payload, whether the gate must deny it)."""
    half = len(text) // 2
    dirty = f"{text[:half]}\nThe deploy bot uses {TOKEN} for status checks.\n{text[half:]}"
    note = "User prefers squash merges; keep PR titles under 60 characters."
    return {
        "write_50k_clean": (payload("Write", {"file_path": str(memory / "big.md"),
                                              "content": text}), False),
        "write_50k_token": (payload("Write", {"file_path": str(memory / "big.md"),
                                              "content": dirty}), True),
        "write_50k_outside": (payload("Write", {"file_path": "/tmp/elsewhere/big.md",
                                                "content": dirty}), False),
        "edit_small_memory": (payload("Edit", {"file_path": str(memory / "note.md"),
                                               "old_string": "x", "new_string": note}), False),
        "bash_not_memory": (payload("Bash", {"command": "git status && ls -la"}), False),
    }


def timed(command: list[str], data: bytes, env: dict[str, str]) -> tuple[float, float, bytes]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, input=data, capture_output=True, env=env, check=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu, done.stdout


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 50), 1), "p95": round(percentile(values, 95), 1),
            "min": round(min(values), 1), "max": round(max(values), 1)}


def main() -> None:
    script = shutil.which("prune-memory", path=str(Path(sys.executable).parent))
    if script is None:
        sys.exit("prune-memory console script not found beside this interpreter")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "claude"
        memory = home / "projects" / "-bench-app" / "memory"
        memory.mkdir(parents=True)
        base = {**os.environ, "CLAUDE_CONFIG_DIR": str(home),
                "XDG_STATE_HOME": str(Path(tmp) / "state"), "HOME": tmp}
        base.pop("PRUNE_MEMORY_GATE", None)
        cached = {**base, "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache")}
        cached.pop("PYTHONDONTWRITEBYTECODE", None)
        source = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
        runs = cases(memory, clean_text())
        command = [script, "hook", "gate", "--mode", "strict"]
        for data, _deny in runs.values():  # fill the bytecode cache
            timed(command, data, cached)
        samples: dict[str, tuple[list[float], list[float]]] = {}
        for _ in range(RUNS):
            sample(samples, "python_startup", [sys.executable, "-c", "pass"], b"", cached, None)
            for setup, env in (("bytecode", cached), ("source", source)):
                for name, (data, must_deny) in runs.items():
                    sample(samples, f"{setup}/{name}", command, data, env, must_deny)
    report(samples)


def sample(samples: dict[str, tuple[list[float], list[float]]], name: str, command: list[str],
           data: bytes, env: dict[str, str], must_deny: bool | None) -> None:
    wall, cpu, out = timed(command, data, env)
    if must_deny is not None and (b'"deny"' in out) != must_deny:
        sys.exit(f"{name}: unexpected answer {out[:200]!r}")
    walls, cpus = samples.setdefault(name, ([], []))
    walls.append(wall)
    cpus.append(cpu)


def report(samples: dict[str, tuple[list[float], list[float]]]) -> None:
    results = {name: {"wall_ms": summary(w), "cpu_ms": summary(c)}
               for name, (w, c) in samples.items()}
    print(f"{RUNS} runs per case, budget median < {BUDGET_MS} ms, load {os.getloadavg()[0]:.2f}")
    print(f"{'case':<28} {'wall p50':>9} {'wall p95':>9} {'cpu p50':>8} {'cpu p95':>8}")
    for name, row in results.items():
        print(f"{name:<28} {row['wall_ms']['p50']:>9} {row['wall_ms']['p95']:>9} "
              f"{row['cpu_ms']['p50']:>8} {row['cpu_ms']['p95']:>8}")
    out = ROOT / "bench" / "results" / "bench_gate.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"runs": RUNS, "payload_chars": SIZE, "budget_p50_ms": BUDGET_MS,
            "load_average_1m": round(os.getloadavg()[0], 2), "cpus": os.cpu_count(),
            "python": platform.python_version()}
    out.write_text(json.dumps({"meta": meta, "cases": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
