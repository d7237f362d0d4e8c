"""Staleness probe at scale: a 20,000-file repo with 2,000 commits and 5,000 memories.

The repo's history is written with one `git fast-import` stream (renames, deletions,
manifest changes, closing commits), checked out, then `probe_staleness` is timed on a
5,000-file memory directory whose entries name tracked, renamed, deleted and unknown
paths, counts, issues, tools and old names. Target: under 10 s on two cores.

Run: .venv/bin/python bench/bench_probe.py [--keep DIR]
     (prints a table, writes bench/results/bench_probe.json)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gen_repo import RepoFacts, build_repo  # noqa: E402
from prune_memory.config import Config  # noqa: E402
from prune_memory.evidence.gitrepo import read_repo_facts  # noqa: E402
from prune_memory.procedure.staleness import probe_staleness  # noqa: E402
from prune_memory.store.loader import load_memory_dir  # noqa: E402

MEMORIES = 5_000
TARGET_S = 10.0


def memory_body(n: int, facts: RepoFacts) -> str:
    live, renames, deletions = facts.live, facts.renames, facts.deletions
    kind = n % 8
    if kind == 0:
        return f"Helpers live in `{live[(n * 13) % len(live)]}`; keep them small.\n"
    if kind == 1:
        return f"The parser sits in `{renames[n % len(renames)][0]}`.\n"
    if kind == 2:
        return f"Seed data came from `{deletions[n % len(deletions)]}` until spring.\n"
    if kind == 3:
        return f"`pkg{n % 40:03d}/` has 400 files and `tools/x{n}.py` is local only.\n"
    if kind == 4:
        return f"Issue #{n % 2000} is still open; retry later.\n"
    if kind == 5:
        return "The web tests run on Jest and the UI is React 17.\n"
    if kind == 6:
        return "The bench-web package ships with the API.\n"
    return f"The user prefers short answers (note {n}).\n"


def write_memory(dest: Path, facts: RepoFacts) -> None:
    dest.mkdir(parents=True)
    index = ["# Memory"]
    for n in range(MEMORIES):
        name = f"project_note_{n:05d}.md"
        (dest / name).write_text(f"---\nname: note-{n}\ndescription: Bench note {n}\n"
                                 f"type: project\n---\n\n{memory_body(n, facts)}")
        index.append(f"- [Note {n}]({name}) — bench note")
    (dest / "MEMORY.md").write_text("\n".join(index) + "\n")


def timed(label: str, times: dict[str, float], work):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = work()
    times[label] = round(time.perf_counter() - start, 3)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build in this empty directory and keep it")
    args = parser.parse_args()
    if args.keep:
        return run(args.keep)
    with tempfile.TemporaryDirectory(prefix="bench-probe-") as scratch:
        return run(Path(scratch))


def run(base: Path) -> int:
    times: dict[str, float] = {}
    facts = timed("build repo (fast-import + checkout)", times, lambda: build_repo(base / "repo"))
    timed("write memory directory", times, lambda: write_memory(base / "memory", facts))
    memdir = timed("load memory directory", times, lambda: load_memory_dir(base / "memory"))
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    repo_facts = timed("read repo facts (git)", times, lambda: read_repo_facts(base / "repo"))
    report = timed("probe_staleness (git + probes)", times,
                   lambda: probe_staleness(memdir, base / "repo", now, Config()))
    codes = Counter(f.code.value for found in report.findings.values() for f in found)
    fidelity = Counter(v.value for v in report.fidelity.values())
    total = times["probe_staleness (git + probes)"]
    result = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform()},
        "repo": {"tracked_files": len(repo_facts.tracked), "commits": len(repo_facts.commits),
                 "renames": len(repo_facts.renames), "deletions": len(repo_facts.deletions),
                 "git_calls": repo_facts.git_calls},
        "memories": len(memdir.entries), "seconds": times, "target_seconds": TARGET_S,
        "within_target": total < TARGET_S, "findings": dict(sorted(codes.items())),
        "fidelity": dict(sorted(fidelity.items())),
    }
    _print(result)
    out = ROOT / "bench" / "results" / "bench_probe.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwrote {out.relative_to(ROOT)}")
    return 0 if result["within_target"] else 1


def _print(result: dict[str, object]) -> None:
    repo = result["repo"]
    seconds = result["seconds"]
    assert isinstance(repo, dict) and isinstance(seconds, dict)
    print(f"repo: {repo['tracked_files']:,} tracked files, {repo['commits']:,} commits, "
          f"{repo['renames']:,} renamed paths, {repo['deletions']:,} deleted; "
          f"{repo['git_calls']} git calls")
    print(f"memories: {result['memories']:,}\n")
    width = max(len(k) for k in seconds)
    print(f"{'step':<{width}}  seconds")
    print(f"{'-' * width}  -------")
    for step, value in seconds.items():
        print(f"{step:<{width}}  {value:7.3f}")
    verdict = "within" if result["within_target"] else "OVER"
    print(f"\nprobe_staleness: {seconds['probe_staleness (git + probes)']:.2f} s "
          f"({verdict} the {TARGET_S:.0f} s target)")
    print(f"findings: {result['findings']}")
    print(f"fidelity: {result['fidelity']}")


if __name__ == "__main__":
    sys.exit(main())
