"""Install the prune-memory skill: a SKILL.md that lets Claude drive a review with the tool.

The skill's text ships as `templates/SKILL.md`. An older copy that differs is backed up
beside the new one before it is replaced; an identical copy is left alone.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from prune_memory.claude.locate import claude_home
from prune_memory.claude.settings import FileChange, Scope, backup_path
from prune_memory.resources import read_template
from prune_memory.store import atomic

SKILL_NAME = "prune-memory"
TEMPLATE = "SKILL.md"


def skill_file(scope: Scope, project_dir: Path) -> Path:
    """`~/.claude/skills/prune-memory/SKILL.md`, or the same under the project's `.claude/`."""
    base = claude_home() if scope is Scope.USER else project_dir / ".claude"
    return base / "skills" / SKILL_NAME / TEMPLATE


def install_skill(path: Path, now: dt.datetime) -> FileChange:
    """Write the bundled skill to `path`; report whether anything changed."""
    text = read_template(TEMPLATE).encode("utf-8")
    if path.is_file() and path.read_bytes() == text:
        return FileChange(path, changed=False)
    backup = None
    if path.is_file():
        backup = backup_path(path, now)
        atomic.atomic_write(backup, path.read_bytes())
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.atomic_write(path, text)
    return FileChange(path, changed=True, backup=backup)
