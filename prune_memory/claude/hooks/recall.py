"""The read counter: a per-directory log of memory reads, kept in the state directory.

Claude Code records nothing about which memories it reads. The PostToolUse hook appends
one line per read here, never inside the memory directory, and every access figure that
comes from this log is labelled measured.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Collection
from pathlib import Path

from prune_memory.analysis.access import Access
from prune_memory.state import dir_key, state_root, state_subdir

LOG_NAME = "reads.jsonl"


def recall_log(memory_dir: Path, *, create: bool = False) -> Path:
    """Where reads of `memory_dir` are counted."""
    key = dir_key(memory_dir)
    folder = state_subdir("recall", key) if create else state_root() / "recall" / key
    return folder / LOG_NAME


def append_read(memory_dir: Path, file: str, sha256: str, session_id: str | None,
                at: dt.datetime) -> Path:
    """Record one read of `file`; one JSON object per line, appended."""
    path = recall_log(memory_dir, create=True)
    line = json.dumps({"file": file, "sha256": sha256, "session_id": session_id,
                       "at": at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")})
    with path.open("a", encoding="utf-8") as out:
        out.write(line + "\n")
    path.chmod(0o600)
    return path


def measured_reads(memory_dir: Path, now: dt.datetime) -> dict[str, Access]:
    """Measured access per file that has been read at least once up to `now`."""
    path = recall_log(memory_dir)
    if not path.is_file():
        return {}
    reads: dict[str, list[tuple[dt.datetime, str | None]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        record = _parse(line)
        if record is not None and record[1] <= now:
            reads[record[0]].append((record[1], record[2]))
    names = _real_names(memory_dir, reads)
    return {names.get(file, file): _access(events) for file, events in reads.items()}


def _real_names(memory_dir: Path, reads: Collection[str]) -> dict[str, str]:
    """Logged name -> file name, for names the hook logged as a digest (they hold a secret)."""
    from prune_memory.store.snapshot import masked_in_snapshot, stored_name

    if not any(masked_in_snapshot(file) for file in reads):
        return {}
    try:
        present = [p.name for p in memory_dir.iterdir() if p.name.endswith(".md")]
    except OSError:
        return {}
    return {stored_name(name): name for name in present}


def _parse(line: str) -> tuple[str, dt.datetime, str | None] | None:
    try:
        data = json.loads(line)
        at = dt.datetime.fromisoformat(str(data["at"]).replace("Z", "+00:00"))
        file = str(data["file"])
    except (ValueError, KeyError, TypeError):
        return None  # a torn or hand-edited line is skipped, never fatal
    session = data.get("session_id")
    return file, at if at.tzinfo else at.replace(tzinfo=dt.UTC), \
        str(session) if session else None


def _access(events: list[tuple[dt.datetime, str | None]]) -> Access:
    first = min(at for at, _ in events)
    last = max(at for at, _ in events)
    sessions = len({s for _, s in events if s}) or None
    count = len(events)
    where = f" in {sessions} sessions" if sessions else ""
    label = f"measured: read {count} time{'s' if count != 1 else ''}{where} since " \
            f"{first.date().isoformat()}"
    return Access(reads=count, measured=True, label=label, sessions=sessions,
                  since=first.date().isoformat(), last=last.isoformat())
