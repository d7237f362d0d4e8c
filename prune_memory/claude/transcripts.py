"""Session transcripts sit beside the memory directory: `<project>/*.jsonl`, one per session."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from pathlib import Path


def sessions_since(project_dir: Path, since: dt.datetime | None) -> int:
    """How many transcripts were written after `since` (all of them when it is None)."""
    if not project_dir.is_dir():
        return 0
    count = 0
    for item in os.scandir(project_dir):
        if not item.name.endswith(".jsonl") or not item.is_file(follow_symlinks=False):
            continue
        written = dt.datetime.fromtimestamp(item.stat(follow_symlinks=False).st_mtime, dt.UTC)
        if since is None or written > since:
            count += 1
    return count


CWD_KEY = re.compile(rb'"cwd"\s*:\s*"((?:[^"\\]|\\.)*)"')
TRANSCRIPTS_READ = 5  # the newest few sessions say where Claude Code ran
HEAD_BYTES = 256 * 1024


def session_cwds(project_dir: Path) -> list[str]:
    """The working directories Claude Code recorded (`"cwd": …`) in the newest session
    transcripts beside a memory directory, most frequent first."""
    try:
        found = [(item.stat(follow_symlinks=False).st_mtime, item.path)
                 for item in os.scandir(project_dir)
                 if item.name.endswith(".jsonl") and item.is_file(follow_symlinks=False)]
    except OSError:
        return []
    counts: dict[str, int] = {}
    for _, path in sorted(found, reverse=True)[:TRANSCRIPTS_READ]:
        try:
            with open(path, "rb") as handle:
                head = handle.read(HEAD_BYTES)
        except OSError:
            continue
        for match in CWD_KEY.finditer(head):
            try:
                cwd = json.loads(b'"' + match.group(1) + b'"')
            except ValueError:
                continue
            counts[cwd] = counts.get(cwd, 0) + 1
    return sorted(counts, key=lambda cwd: -counts[cwd])
