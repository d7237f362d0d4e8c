"""Build small real git repos for the staleness tests, with pinned identity and dates."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from prune_memory.model import Entry, EntryKind, MemoryDir

IDENTITY = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
            "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid"}


class GitRepo:
    """A repo in `root`; each `commit` gets the next day of 2026 unless a date is given."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.day = 0
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, date: str | None = None) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(IDENTITY, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, TZ="UTC")
        if date:
            env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        done = subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=self.root,
                              env=env, check=True, capture_output=True, text=True)
        return done.stdout.strip()

    def write(self, files: dict[str, str]) -> GitRepo:
        for path, text in files.items():
            target = self.root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return self

    def mv(self, old: str, new: str) -> GitRepo:
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", old, new)
        return self

    def rm(self, *paths: str) -> GitRepo:
        self.git("rm", "-q", "-r", *paths)
        return self

    def commit(self, message: str, date: str | None = None) -> str:
        self.day += 1
        stamp = date or (datetime(2026, 1, 1, 12, tzinfo=UTC)
                         + timedelta(days=self.day - 1)).isoformat()
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, date=stamp)
        return self.git("rev-parse", "HEAD")

    def short(self, ref: str = "HEAD") -> str:
        return self.git("rev-parse", "--short", ref)


def entry(file: str, body: str, *, description: str = "", memory_type: str | None = "project",
          written: str = "2026-06-01T00:00:00+00:00", name: str | None = None) -> Entry:
    """A topic Entry built directly, as the loader would build it."""
    stamp = datetime.fromisoformat(written)
    meta = {"name": name or file.removesuffix(".md"), "type": memory_type}
    return Entry(file=file, kind=EntryKind.TOPIC, name=name or file.removesuffix(".md"),
                 description=description, memory_type=memory_type, frontmatter=meta,
                 body=body, sha256="0" * 64, size=len(body), mtime=stamp, modified=stamp)


def memdir(*entries: Entry, root: Path = Path("/nonexistent-memory")) -> MemoryDir:
    return MemoryDir(root=root, index=None, entries=tuple(entries))


NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
