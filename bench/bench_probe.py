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
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prune_memory.config import Config  # noqa: E402
from prune_memory.gitrepo import read_repo_facts  # noqa: E402
from prune_memory.stages.staleness import probe_staleness  # noqa: E402
from prune_memory.store.loader import load_memory_dir  # noqa: E402

FIRST_FILES = 16_400
COMMITS = 2_000
MEMORIES = 5_000
TARGET_S = 10.0
EPOCH = 1_767_225_600  # 2026-01-01T00:00:00Z


def path_of(n: int) -> str:
    return f"pkg{n // 400:03d}/mod{n // 20:04d}/file_{n:05d}.py"


def package_json(name: str, runner: str, react: str) -> str:
    return json.dumps({"name": name, "devDependencies": {runner: "^29.0.0" if runner == "jest"
                                                         else "^1.6.0", "react": react}})


class Stream:
    """Writes a fast-import stream and keeps track of which paths exist."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.live: list[str] = []
        self.next_file = 0

    def data(self, text: str) -> None:
        raw = text.encode()
        self.parts.append(b"data %d\n%s\n" % (len(raw), raw))

    def commit(self, n: int, message: str, ops: list[str], files: dict[str, str]) -> None:
        self.parts.append(b"commit refs/heads/main\n")
        self.parts.append(b"committer Bench <bench@example.invalid> %d +0000\n"
                          % (EPOCH + n * 3600))
        self.data(message)
        for op in ops:
            self.parts.append(op.encode() + b"\n")
        for path, text in files.items():
            self.parts.append(f"M 100644 inline {path}\n".encode())
            self.data(text)

    def new_files(self, count: int) -> dict[str, str]:
        out = {}
        for _ in range(count):
            path = path_of(self.next_file)
            out[path] = f"value_{self.next_file} = {self.next_file * 7919}\n"
            self.live.append(path)
            self.next_file += 1
        return out


def build_stream() -> tuple[bytes, dict[str, object]]:
    stream = Stream()
    first = stream.new_files(FIRST_FILES)
    first["package.json"] = package_json("bench-web", "jest", "^17.0.0")
    first["pyproject.toml"] = '[project]\nname = "bench-api"\ndependencies = ["fastapi"]\n'
    stream.commit(0, "Start the bench project", [], first)
    renames: list[tuple[str, str]] = []
    deletions: list[str] = []
    for n in range(1, COMMITS):
        ops: list[str] = []
        files = stream.new_files(2)
        target = stream.live[(n * 37) % len(stream.live)]
        files[target] = f"changed in {n}\n"
        if n % 2 == 0:
            old = stream.live.pop((n * 53) % len(stream.live))
            new = old.replace(".py", f"_v{n}.py")
            ops.append(f'R "{old}" "{new}"')
            stream.live.append(new)
            renames.append((old, new))
        if n % 5 == 0:
            gone = stream.live.pop((n * 71) % len(stream.live))
            ops.append(f'D "{gone}"')
            deletions.append(gone)
        if n == 1000:
            files["package.json"] = package_json("bench-web", "vitest", "^18.2.0")
        if n == 1500:
            files["package.json"] = package_json("bench-ui", "vitest", "^18.2.0")
        stream.commit(n, f"Change {n}" + (f" (fixes #{n})" if n % 10 == 0 else ""), ops, files)
    facts = {"renames": renames, "deletions": deletions, "live": list(stream.live)}
    return b"".join(stream.parts), facts


def build_repo(dest: Path) -> dict[str, object]:
    stream, facts = build_stream()
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], check=True, env=env)
    subprocess.run(["git", "fast-import", "--quiet"], input=stream, cwd=dest, check=True,
                   env=env)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=dest, check=True, env=env)
    return facts


def memory_body(n: int, facts: dict[str, object]) -> str:
    live, renames, deletions = facts["live"], facts["renames"], facts["deletions"]
    assert isinstance(live, list) and isinstance(renames, list) and isinstance(deletions, list)
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


def write_memory(dest: Path, facts: dict[str, object]) -> None:
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
