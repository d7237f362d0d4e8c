"""Which paths belong to a memory directory, as the hooks see them.

A path is memory when it lies under `<claude home>/projects/<name>/memory/`, under an
`autoMemoryDirectory` setting (the user's, or the project's at the hook's working directory),
or under a directory named with `--memory-root`. Paths are compared after resolving symlinks.

The gate runs before every Bash and file write Claude makes, so this module sticks to `os.path`:
`claude_home` and `user_auto_memory` mirror `store.locate` without its imports (dataclasses,
pathlib), and tests/claude/hooks/test_memroots.py pins them to it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import NamedTuple

from prune_memory.claude.files import read_bytes
from prune_memory.errors import BadInputError

_PROJECT_SETTINGS = (".claude/settings.json", ".claude/settings.local.json")
SETTINGS_LIMIT = 1024 * 1024  # what the gate reads of a settings file, at most


class MemoryRoots(NamedTuple):
    """`projects` holds one memory directory per project; `fixed` are memory directories;
    `lexical` is `projects` as written, before its links are resolved."""

    projects: str
    fixed: tuple[str, ...]
    lexical: str = ""


def memory_roots(extra: Sequence[str] = (), cwd: str | None = None) -> MemoryRoots:
    """Every place memory lives for a hook call made from `cwd`, plus the `extra` roots."""
    fixed = [os.path.expanduser(root) for root in extra]
    moved = user_auto_memory()
    if moved is not None:
        fixed.append(moved)
    if cwd:
        fixed.extend(_project_settings_roots(cwd))
    projects = os.path.join(claude_home(), "projects")
    fixed.extend(_linked_memory_dirs(projects))
    resolved = tuple(dict.fromkeys(os.path.realpath(root) for root in fixed))
    return MemoryRoots(os.path.realpath(projects), resolved, os.path.abspath(projects))


def _linked_memory_dirs(projects: str) -> list[str]:
    """`<project>/memory` folders that are links (synced elsewhere): where they point is
    memory too, written to by its own path."""
    try:
        with os.scandir(projects) as listing:
            return [memory for item in listing
                    if os.path.islink(memory := os.path.join(item.path, "memory"))]
    except OSError:
        return []


def claude_home() -> str:
    """`$CLAUDE_CONFIG_DIR` when set, else `~/.claude` (as `store.locate.claude_home`)."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    return os.path.expanduser(override) if override else os.path.expanduser("~/.claude")


def user_auto_memory() -> str | None:
    """`autoMemoryDirectory` of the user's settings.json, `~` expanded, when it is set."""
    value = _setting(os.path.join(claude_home(), "settings.json"))
    return os.path.expanduser(value) if value is not None else None


def memory_dir_of(path: str, roots: MemoryRoots) -> str | None:
    """The memory directory holding `path` (any depth), or None when it is not memory.
    The path counts both as written and with its links resolved: a memory directory that
    is a link to a synced folder is memory under either name."""
    real = os.path.realpath(path)
    for root in roots.fixed:
        if _is_under(real, root):
            return root
    for projects, candidate in ((roots.projects, real),
                                (roots.lexical, os.path.abspath(path))):
        if projects and _is_under(candidate, projects):
            parts = os.path.relpath(candidate, projects).split(os.sep)
            if len(parts) >= 3 and parts[1] == "memory":
                return os.path.realpath(os.path.join(projects, parts[0], "memory"))
    return None


def names_memory(text: str, roots: MemoryRoots, cwd: str | None) -> str | None:
    """A memory directory `text` may write to: one it names, or the working directory when
    that is memory (a relative target). For the part of a command too long to read."""
    if cwd and (inside := memory_dir_of(os.path.join(cwd, "x"), roots)) is not None:
        return inside
    for root in (*roots.fixed, roots.projects, roots.lexical):
        if root and root in text:
            return root
    return None


def _is_under(path: str, root: str) -> bool:
    return path != root and path.startswith(root.rstrip(os.sep) + os.sep)


def _project_settings_roots(cwd: str) -> list[str]:
    """`autoMemoryDirectory` in the project's settings; a relative value is taken from `cwd`."""
    found: list[str] = []
    for name in _PROJECT_SETTINGS:
        value = _setting(os.path.join(cwd, name))
        if value is not None:
            found.append(os.path.join(cwd, os.path.expanduser(value)))
    return found


def _setting(path: str) -> str | None:
    """One setting, read without waiting: a FIFO planted as a cloned project's settings
    would hold the gate until Claude Code's timeout lets the write through."""
    try:
        raw = read_bytes(path, limit=SETTINGS_LIMIT)
        data = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (BadInputError, ValueError, RecursionError):
        return None
    value = data.get("autoMemoryDirectory") if isinstance(data, dict) else None
    return value if isinstance(value, str) and value.strip() else None
