"""Find the memory directory Claude Code uses for a project, the way Claude Code names it."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from prune_memory.claude.files import read_bytes
from prune_memory.errors import BadInputError

NAME_LIMIT = 200
_ALNUM = re.compile(r"[A-Za-z0-9]")


@dataclass(frozen=True)
class Location:
    project: Path
    git_root: Path | None
    name: str
    memory_dir: Path
    source: str  # "default", "listing" or "autoMemoryDirectory"

    @property
    def exists(self) -> bool:
        return self.memory_dir.is_dir()


def claude_home() -> Path:
    """`~/.claude`, or `$CLAUDE_CONFIG_DIR` when set."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(override).expanduser() if override else Path.home() / ".claude"


def projects_dir() -> Path:
    return claude_home() / "projects"


def sanitize(path: str) -> str:
    """Every character that is not an ASCII letter or digit becomes `-`, per UTF-16 unit."""
    return "".join(ch if _ALNUM.fullmatch(ch) else "-" * (2 if ord(ch) > 0xFFFF else 1)
                   for ch in path)


def git_root(start: Path) -> Path | None:
    """The canonical root of the git repo holding `start`; worktrees map to the main repo."""
    here = start.expanduser().resolve()
    for folder in (here, *here.parents):
        marker = folder / ".git"
        if marker.is_dir():
            return folder
        if marker.is_file():
            return _worktree_main_root(marker) or folder
    return None


def is_bare_repository(path: Path) -> bool:
    """A bare repository (`git init --bare`, a mirror clone): git's own files with no
    working tree around them. What git checks: HEAD, objects/ and refs/ in the folder."""
    here = path.resolve()
    return any((folder / "HEAD").is_file() and (folder / "objects").is_dir()
               and (folder / "refs").is_dir() for folder in (here, *here.parents))


def locate(project: Path) -> Location:
    """Where Claude Code keeps memory for `project` (it need not exist yet)."""
    project = project.expanduser().resolve()
    root = git_root(project)
    base = root or project
    name = sanitize(str(base))
    moved = _auto_memory_setting()
    if moved is not None:
        return Location(project, root, name, moved, "autoMemoryDirectory")
    if len(name) <= NAME_LIMIT:
        return Location(project, root, name, projects_dir() / name / "memory", "default")
    return _find_long_name(project, root, name)


def memory_dir_for_project(project: Path) -> Path:
    return locate(project).memory_dir


@dataclass(frozen=True)
class ProjectOf:
    """The project a memory directory belongs to, read back from where it lies: its git
    root, or None with the reason (`why` says how it was found, or why it was not)."""

    git_root: Path | None
    why: str
    claude_named: bool = True  # the folder is `<projects>/<sanitized path>/memory`


SEARCH_LIMIT = 5000  # folders listed while mapping a name back to a path


def project_of(memory_dir: Path) -> ProjectOf:
    """Claude Code names `<name>/memory` after the project's git root, every character
    but letters and digits turned into `-`. That cannot be undone by rewriting the name,
    so the path is looked for: first in the working directories the session transcripts
    beside it record, then on disk, one folder level at a time."""
    folder = memory_dir.expanduser().resolve()
    name = folder.parent.name
    if folder.name != "memory" or not name.startswith("-"):
        return ProjectOf(None, f"{folder} is not in Claude Code's naming "
                               "(<projects>/<project path, - for each / and .>/memory)",
                         claude_named=False)
    from prune_memory.claude.transcripts import session_cwds

    for cwd in session_cwds(folder.parent):
        root = git_root(Path(cwd))
        if root is not None and _same_name(sanitize(str(root)), name):
            return ProjectOf(root, f"the session transcripts beside it ran in {cwd}")
    places = paths_named(name)
    roots = sorted({root for place in places if (root := git_root(place)) is not None
                    and _same_name(sanitize(str(root)), name)})
    if len(roots) == 1:
        return ProjectOf(roots[0], f"its folder name {name} is Claude Code's name for "
                                   f"{roots[0]}")
    if roots:
        return ProjectOf(None, f"its folder name {name} fits {len(roots)} repositories "
                               f"({', '.join(map(str, roots))})")
    if places:
        return ProjectOf(None, f"its folder name {name} names {places[0]}, which is not in a "
                               "git repository")
    return ProjectOf(None, f"no folder on this machine has the path its folder name {name} "
                           "stands for (moved, renamed, or on another machine)")


def _same_name(candidate: str, name: str) -> bool:
    if len(name) <= NAME_LIMIT:
        return candidate == name
    return candidate[:NAME_LIMIT] == name[:NAME_LIMIT]  # cut, with a hash we cannot redo


def paths_named(name: str, limit: int = SEARCH_LIMIT) -> list[Path]:
    """Every existing folder whose path `sanitize` turns into `name` (`-home-me-my-app`:
    /home/me/my-app, /home/me/my.app, /home/me/my/app …), found by walking down from `/`
    through the folders whose own names fit the next part of it."""
    if not name.startswith("-") or len(name) > NAME_LIMIT:
        return []
    found: list[Path] = []
    todo = [(Path("/"), name[1:])]
    listed = 0
    while todo and listed < limit:
        folder, rest = todo.pop()
        listed += 1
        try:
            children = [Path(e.path) for e in os.scandir(folder) if e.is_dir()]
        except OSError:
            continue
        for child in sorted(children):
            part = sanitize(child.name)
            if rest == part:
                found.append(child)
            elif rest.startswith(part + "-"):
                todo.append((child, rest[len(part) + 1:]))
    return sorted(found)


def _find_long_name(project: Path, root: Path | None, name: str) -> Location:
    # Long names are cut and given a hash suffix we cannot recompute: list and match the prefix.
    prefix = name[:NAME_LIMIT]
    folder = projects_dir()
    found = sorted(p for p in folder.glob("*") if p.is_dir() and p.name.startswith(prefix)) \
        if folder.is_dir() else []
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        raise BadInputError(f"several project directories match this long path: {names}")
    if found:
        return Location(project, root, found[0].name, found[0] / "memory", "listing")
    return Location(project, root, prefix, folder / prefix / "memory", "listing")


def _auto_memory_setting() -> Path | None:
    try:
        raw = read_bytes(claude_home() / "settings.json")
        data = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (BadInputError, ValueError, RecursionError):
        return None
    value = data.get("autoMemoryDirectory") if isinstance(data, dict) else None
    if not isinstance(value, str) or not value.strip():
        return None
    return Path(value).expanduser()


def _worktree_main_root(marker: Path) -> Path | None:
    text = marker.read_text(encoding="utf-8", errors="replace").strip()
    if not text.startswith("gitdir:"):
        return None
    gitdir = (marker.parent / text.removeprefix("gitdir:").strip()).resolve()
    common = gitdir / "commondir"
    if common.is_file():
        main_git = (gitdir / common.read_text(encoding="utf-8").strip()).resolve()
        return main_git.parent
    return None


def project_memory_dirs(projects_dir: Path) -> list[Path]:
    """Every `<project>/memory/` folder under Claude Code's projects directory (links to
    folders elsewhere are left out)."""
    if not projects_dir.is_dir():
        raise BadInputError(f"projects directory not found: {projects_dir}")
    return [p / "memory" for p in sorted(projects_dir.iterdir())
            if (p / "memory").is_dir() and not (p / "memory").is_symlink()]
