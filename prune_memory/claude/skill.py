"""Install the prune-memory skill: a SKILL.md that lets Claude drive a review with the tool.

The skill's text ships as `templates/SKILL.md`, its commands written `prune-memory …`. It is
installed with those commands as the absolute command the hooks use (`hook install` writes
the same): Claude Code's PATH lacks a virtualenv's `bin/`, so a bare `prune-memory` would not
run there. An older copy that differs is backed up under the state directory before it is
replaced; an identical copy is left alone. `uninstall` backs it up the same way first.
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
from collections.abc import Sequence
from pathlib import Path

from prune_memory.claude import files
from prune_memory.claude.locate import claude_home
from prune_memory.claude.settings import (
    FileChange,
    Scope,
    backup_path,
    through_link,
    write_with_backup,
)
from prune_memory.resources import read_template
from prune_memory.store import atomic

SKILL_NAME = "prune-memory"
TEMPLATE = "SKILL.md"
# `prune-memory <command>` in the template, wherever it is a command to run.
COMMANDS = ("where", "due", "plan", "inventory", "scan", "lint", "status", "run", "withdraw",
            "inoculate", "protect", "unprotect", "restore", "sweep", "recover", "flag",
            "unflag", "reaccession", "snapshot", "hook", "skill", "jsonl", "filters")
_COMMAND = re.compile(r"(?<![\w/.-])prune-memory(?= (?:" + "|".join(COMMANDS) + r")\b)")


def skill_file(scope: Scope, project_dir: Path) -> Path:
    """`~/.claude/skills/prune-memory/SKILL.md`, or the same under the project's `.claude/`."""
    base = claude_home() if scope is Scope.USER else project_dir / ".claude"
    return base / "skills" / SKILL_NAME / TEMPLATE


def skill_command(executable: str | Sequence[str]) -> str:
    """The command the skill runs, as a shell would read it."""
    return shlex.quote(executable) if isinstance(executable, str) else shlex.join(executable)


def render_skill(command: str = SKILL_NAME) -> str:
    """The skill's text, every `prune-memory …` command run as `command …`."""
    return _COMMAND.sub(lambda _: command, read_template(TEMPLATE))


def install_skill(path: Path, now: dt.datetime, command: str = SKILL_NAME, *,
                  within: Path | None = None) -> FileChange:
    """Write the bundled skill to `path`; report whether anything changed. With `within`
    (a project), the file must resolve inside it."""
    path = through_link(path, within)
    text = render_skill(command).encode("utf-8")
    if files.read_bytes(path) == text:  # a FIFO there is refused, never waited on
        return FileChange(path, changed=False)
    return write_with_backup(path, text, now)


def uninstall_skill(path: Path, now: dt.datetime, *, within: Path | None = None) -> FileChange:
    """Remove the skill at `path` (and its folder, when that is empty); a copy goes to the
    state directory first. A missing skill changes nothing. With `within` (a project), the
    file must resolve inside it; a link there is removed, not what it points at."""
    through_link(path, within)
    before = files.read_bytes(path)  # a FIFO there is refused, never waited on
    if before is None:
        return FileChange(path, changed=False)
    backup = backup_path(path, now)
    atomic.atomic_write(backup, before)
    path.unlink()
    if path.parent.name == SKILL_NAME and not any(path.parent.iterdir()):
        path.parent.rmdir()
    return FileChange(path, changed=True, backup=backup)
