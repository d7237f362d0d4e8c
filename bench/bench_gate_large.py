"""How long `prune-memory hook gate` takes on payloads far past any memory: the real console
script, one process per call, as Claude Code starts it.

The gate must answer within 1 s whatever it is sent (Claude Code lets the write through at
its 10 s timeout): an 80 MB Write took 23.9 s and 12 MB of non-JSON input 20.3 s before the
gate capped what it reads. Each case runs N times; the figure is the slowest wall time.

Run: .venv/bin/python bench/bench_gate_large.py [N]
(prints a table and writes bench/results/bench_gate_large.json)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
BUDGET_S = 1.0
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # a made-up token of GitHub's shape


def payload(tool: str, tool_input: dict[str, object]) -> bytes:
    return json.dumps({"session_id": "bench", "transcript_path": "/dev/null", "cwd": "/tmp",
                       "hook_event_name": "PreToolUse", "tool_name": tool,
                       "tool_input": tool_input}).encode()


def cases(memory: Path) -> dict[str, tuple[bytes, str]]:
    """name -> (payload, the answer expected: deny or allow)."""
    prose = "Plain words about the build, nothing to hide.\n"
    big = prose * (80_000_000 // len(prose))
    twelve = prose * (12_000_000 // len(prose))
    return {
        "write_80mb_memory": (payload("Write", {"file_path": str(memory / "big.md"),
                                                "content": big}), "deny"),
        "write_80mb_elsewhere": (payload("Write", {"file_path": "/tmp/elsewhere/big.md",
                                                   "content": big}), "allow"),
        "non_json_12mb": (twelve.encode(), "allow"),
        "bash_heredoc_12mb_memory": (payload("Bash", {"command": f"cat > {memory}/a.md <<'EOF'\n"
                                                      f"{twelve}EOF\n"}), "deny"),
        "write_500kb_token_memory": (payload("Write", {
            "file_path": str(memory / "a.md"),
            "content": prose * (500_000 // len(prose)) + TOKEN}), "deny"),
    }


def main() -> None:
    script = shutil.which("prune-memory", path=str(Path(sys.executable).parent))
    if script is None:
        sys.exit("prune-memory console script not found beside this interpreter")
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "claude"
        memory = home / "projects" / "-bench-app" / "memory"
        memory.mkdir(parents=True)
        env = {**os.environ, "CLAUDE_CONFIG_DIR": str(home), "HOME": tmp,
               "XDG_STATE_HOME": str(Path(tmp) / "state")}
        env.pop("PRUNE_MEMORY_GATE", None)
        for name, (data, expected) in cases(memory).items():
            walls = []
            for _ in range(RUNS):
                start = time.perf_counter()
                done = subprocess.run([script, "hook", "gate", "--mode", "strict"], input=data,
                                      capture_output=True, env=env, check=True)
                walls.append(time.perf_counter() - start)
                answer = "deny" if b'"deny"' in done.stdout else "allow"
                if answer != expected:
                    sys.exit(f"{name}: answered {answer}, expected {expected}")
            results[name] = {"bytes": len(data), "answer": expected,
                             "wall_s_max": round(max(walls), 3),
                             "wall_s_min": round(min(walls), 3),
                             "within_budget": max(walls) < BUDGET_S}
    print(f"{RUNS} runs per case, budget {BUDGET_S} s, load {os.getloadavg()[0]:.2f}")
    for name, row in results.items():
        print(f"{name:<28} {row['bytes']:>11,} B  {row['answer']:<5}  max {row['wall_s_max']} s")
    out = ROOT / "bench" / "results" / "bench_gate_large.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"runs": RUNS, "budget_s": BUDGET_S,
                               "load_average_1m": round(os.getloadavg()[0], 2),
                               "cases": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
