"""Generate git repos with history for benchmarks: renames, deletions, manifest changes.

The whole history is one `git fast-import` stream (thousands of commits in seconds), then
checked out. What was renamed, deleted and still lives is returned as `RepoFacts`, so a
memory generator can write claims the staleness probes must catch.

Run alone: .venv/bin/python bench/gen_repo.py DEST [--files N] [--commits N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

EPOCH = 1_767_225_600  # 2026-01-01T00:00:00Z


@dataclass(frozen=True)
class RepoShape:
    """How big the repo is: files in the first commit, then commits that add two files
    each, rename one file every `rename_every` commits and delete one every `delete_every`."""

    first_files: int = 16_400
    commits: int = 2_000
    rename_every: int = 2
    delete_every: int = 5
    close_every: int = 10  # a "(fixes #N)" commit message


@dataclass
class RepoFacts:
    renames: list[tuple[str, str]] = field(default_factory=list)
    deletions: list[str] = field(default_factory=list)
    live: list[str] = field(default_factory=list)
    closed_issues: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"renames": self.renames, "deletions": self.deletions, "live": self.live,
                "closed_issues": self.closed_issues}


def path_of(n: int) -> str:
    return f"pkg{n // 400:03d}/mod{n // 20:04d}/file_{n:05d}.py"


def package_json(name: str, runner: str, react: str) -> str:
    version = "^29.0.0" if runner == "jest" else "^1.6.0"
    return json.dumps({"name": name, "devDependencies": {runner: version, "react": react}})


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


def build_stream(shape: RepoShape = RepoShape()) -> tuple[bytes, RepoFacts]:
    """The fast-import stream of the whole history, and what it leaves behind."""
    stream, facts = Stream(), RepoFacts()
    first = stream.new_files(shape.first_files)
    first["package.json"] = package_json("bench-web", "jest", "^17.0.0")
    first["pyproject.toml"] = '[project]\nname = "bench-api"\ndependencies = ["fastapi"]\n'
    stream.commit(0, "Start the bench project", [], first)
    for n in range(1, shape.commits):
        ops: list[str] = []
        files = stream.new_files(2)
        files[stream.live[(n * 37) % len(stream.live)]] = f"changed in {n}\n"
        if n % shape.rename_every == 0:
            old = stream.live.pop((n * 53) % len(stream.live))
            new = old.replace(".py", f"_v{n}.py")
            ops.append(f'R "{old}" "{new}"')
            stream.live.append(new)
            facts.renames.append((old, new))
        if n % shape.delete_every == 0:
            gone = stream.live.pop((n * 71) % len(stream.live))
            ops.append(f'D "{gone}"')
            facts.deletions.append(gone)
        if n == shape.commits // 2:  # the test runner swaps, React moves
            files["package.json"] = package_json("bench-web", "vitest", "^18.2.0")
        if n == shape.commits * 3 // 4:  # the package is renamed
            files["package.json"] = package_json("bench-ui", "vitest", "^18.2.0")
        closes = n % shape.close_every == 0
        if closes:
            facts.closed_issues.append(n)
        stream.commit(n, f"Change {n}" + (f" (fixes #{n})" if closes else ""), ops, files)
    facts.live = list(stream.live)
    return b"".join(stream.parts), facts


def git_env() -> dict[str, str]:
    """No user or system git config: the history must not depend on the machine."""
    return {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def build_repo(dest: Path, shape: RepoShape = RepoShape()) -> RepoFacts:
    """Create the repo at `dest` (which must not exist or be empty) and check it out."""
    stream, facts = build_stream(shape)
    env = git_env()
    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], check=True, env=env)
    subprocess.run(["git", "fast-import", "--quiet"], input=stream, cwd=dest, check=True,
                   env=env)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=dest, check=True, env=env)
    return facts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--files", type=int, default=RepoShape.first_files)
    parser.add_argument("--commits", type=int, default=RepoShape.commits)
    args = parser.parse_args()
    facts = build_repo(args.dest, RepoShape(first_files=args.files, commits=args.commits))
    print(f"{len(facts.live) + 2} tracked files, {args.commits} commits, "
          f"{len(facts.renames)} renames, {len(facts.deletions)} deletions in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
