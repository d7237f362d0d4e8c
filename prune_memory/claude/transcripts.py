"""Session transcripts sit beside the memory directory: `<project>/*.jsonl`, one per session."""

from __future__ import annotations

import datetime as dt
import os
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
