"""`status` and `due`: how every project's memory is doing, and whether an audit is due."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from prune_memory.claude.locate import project_memory_dirs
from prune_memory.claude.transcripts import sessions_since
from prune_memory.model import JSON
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log


@dataclass(frozen=True)
class ProjectStatus:
    name: str
    memory_dir: str
    entries: int
    usage: float
    binding_cap: str
    orphans: int
    dangling: int
    last_audit: str | None
    sessions_since: int
    errors: int

    def to_json(self) -> JSON:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Due:
    last_audit: str | None
    sessions: int
    days: int | None
    due: bool
    why: str

    def to_json(self) -> JSON:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def last_audit(memory_dir: Path) -> dt.datetime | None:
    """The date of the newest audit section in the pruning log, as UTC midnight."""
    dates = [a.date for a in read_log(memory_dir).audits]
    return dt.datetime.fromisoformat(max(dates)).replace(tzinfo=dt.UTC) if dates else None


def project_status(memory_dir: Path) -> ProjectStatus:
    """One row of `status` for one memory directory."""
    memdir = load_memory_dir(memory_dir)
    reach = scan(memdir)
    audit = last_audit(memory_dir)
    cap = memdir.index.cap if memdir.index else None
    return ProjectStatus(
        name=memory_dir.parent.name, memory_dir=str(memory_dir), entries=len(memdir.entries),
        usage=cap.usage if cap else 0.0, binding_cap=cap.binding_cap if cap else "-",
        orphans=len(reach.orphaned), dangling=len(reach.dangling),
        last_audit=audit.date().isoformat() if audit else None,
        sessions_since=sessions_since(memory_dir.parent, audit), errors=len(memdir.errors))


def collect_status(projects_dir: Path) -> list[ProjectStatus]:
    """A row for every `<project>/memory/` folder under Claude Code's projects directory."""
    return [project_status(folder) for folder in project_memory_dirs(projects_dir)]


def check_due(memory_dir: Path, now: dt.datetime, *, sessions: int, days: int) -> Due:
    """Due when enough sessions or days have passed since the last audit (or none ever ran)."""
    audit = last_audit(memory_dir)
    count = sessions_since(memory_dir.parent, audit)
    if audit is None:
        return Due(None, count, None, True, "no audit recorded in the pruning log yet")
    age = (now - audit).days
    reasons = [f"{count} sessions since the last audit (threshold {sessions})"
               if count >= sessions else "",
               f"{age} days since the last audit (threshold {days})" if age >= days else ""]
    why = "; ".join(r for r in reasons if r) or (
        f"{count} sessions and {age} days since the last audit: not due")
    return Due(audit.date().isoformat(), count, age, any(reasons), why)
