"""Install the prune-memory skill: a SKILL.md that lets Claude drive a review with the tool.

The skill's text ships as `templates/SKILL.md`. An older copy that differs is backed up
beside the new one before it is replaced; an identical copy is left alone.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from prune_memory.claude import files
from prune_memory.claude.locate import claude_home
from prune_memory.claude.settings import FileChange, Scope, through_link, write_with_backup
from prune_memory.resources import read_template

SKILL_NAME = "prune-memory"
TEMPLATE = "SKILL.md"


def skill_file(scope: Scope, project_dir: Path) -> Path:
    """`~/.claude/skills/prune-memory/SKILL.md`, or the same under the project's `.claude/`."""
    base = claude_home() if scope is Scope.USER else project_dir / ".claude"
    return base / "skills" / SKILL_NAME / TEMPLATE


def install_skill(path: Path, now: dt.datetime, *, within: Path | None = None) -> FileChange:
    """Write the bundled skill to `path`; report whether anything changed. With `within`
    (a project), the file must resolve inside it."""
    path = through_link(path, within)
    text = read_template(TEMPLATE).encode("utf-8")
    if files.read_bytes(path) == text:  # a FIFO there is refused, never waited on
        return FileChange(path, changed=False)
    return write_with_backup(path, text, now)
