"""`status`: how every project's memory is doing, one row per memory directory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prune_memory.claude.locate import project_memory_dirs
from prune_memory.claude.transcripts import sessions_since
from prune_memory.model import JSON
from prune_memory.procedure.due import last_audit
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir


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
