"""Install and remove our hook entries in a Claude Code settings.json, touching nothing else.

Every other key and every other hook stays as it was. Our entries are recognised by their
command (`prune-memory hook gate|record-read`), so install is idempotent and uninstall removes
exactly ours. A file that is not a JSON object is refused; a changed file is backed up first.
A symlinked settings.json is written where it points (the link stays a link), and uninstall
gives back the bytes of the backup install made (kept under the state directory) when
nothing else changed since.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import glob
import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from prune_memory.claude import files
from prune_memory.claude.locate import claude_home
from prune_memory.errors import BadInputError
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic
from prune_memory.store.confine import is_within

GATE_MATCHER = "Write|Edit|MultiEdit|Bash"
READ_MATCHER = "Read"
TIMEOUT_SECONDS = 10
DEFAULT_EXECUTABLE = "prune-memory"
_OURS = re.compile(r"""(?:^|[\s/\\'"])prune[-_]memory(?:\.exe)?['"]?\s+hook\s+"""
                   r"(?:gate|record-read)(?:\s|$)")

Settings = dict[str, Any]


class Scope(StrEnum):
    USER = "user"  # ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR)
    PROJECT = "project"  # <project>/.claude/settings.json
    LOCAL = "local"  # <project>/.claude/settings.local.json (the user's own, not committed)


@dataclass(frozen=True)
class FileChange:
    """What install or uninstall did to one settings file."""

    path: Path
    changed: bool
    backup: Path | None = None


def settings_file(scope: Scope, project_dir: Path) -> Path:
    if scope is Scope.USER:
        return claude_home() / "settings.json"
    name = "settings.local.json" if scope is Scope.LOCAL else "settings.json"
    return project_dir / ".claude" / name


def hook_entries(gate_mode: str, memory_roots: Sequence[Path] = (),
                 executable: str | Sequence[str] = DEFAULT_EXECUTABLE
                 ) -> dict[str, list[Settings]]:
    """Our matcher groups, by hook event, exactly as they go into settings.json.
    `executable` is one program, or the words of a command (`python -m prune_memory`)."""
    roots = "".join(f" --memory-root {shlex.quote(str(root))}" for root in memory_roots)
    exe = shlex.quote(executable) if isinstance(executable, str) else shlex.join(executable)
    gate = f"{exe} hook gate --mode {gate_mode}{roots}"
    read = f"{exe} hook record-read{roots}"
    return {
        "PreToolUse": [_group(GATE_MATCHER, gate)],
        "PostToolUse": [_group(READ_MATCHER, read)],
    }


def is_ours(hook: Any) -> bool:
    """Whether one hook entry runs `prune-memory hook gate` or `hook record-read`."""
    return isinstance(hook, dict) and isinstance(hook.get("command"), str) \
        and _OURS.search(hook["command"]) is not None


def with_ours(settings: Settings, entries: dict[str, list[Settings]]) -> Settings:
    """`settings` with any old entries of ours replaced by `entries`, appended per event."""
    merged = without_ours(settings)
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise BadInputError("settings: `hooks` is not an object; fix it by hand first")
    for event, groups in entries.items():
        current = hooks.setdefault(event, [])
        if not isinstance(current, list):
            raise BadInputError(f"settings: `hooks.{event}` is not a list; fix it by hand first")
        current.extend(copy.deepcopy(groups))
    return merged


def without_ours(settings: Settings) -> Settings:
    """A copy of `settings` with our hook entries gone, and any container they alone filled."""
    result = copy.deepcopy(settings)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = [group for group in (_strip_group(g) for g in groups) if group is not None]
        if kept or not groups:
            hooks[event] = kept
        else:
            del hooks[event]
    if not hooks and settings.get("hooks"):
        del result["hooks"]
    return result


def install_hooks(path: Path, entries: dict[str, list[Settings]],
                  now: dt.datetime, *, within: Path | None = None) -> FileChange:
    """Merge `entries` into the settings file at `path` (created when missing). With
    `within` (a project), the file must resolve inside it."""
    path = through_link(path, within)
    current = read_settings(path)
    return _save(path, current, with_ours(current, entries), now)


def uninstall_hooks(path: Path, now: dt.datetime, *, within: Path | None = None) -> FileChange:
    """Remove our entries from the settings file at `path`; a missing file is left missing.
    When what remains is exactly what a backup held, that backup's bytes are written back."""
    path = through_link(path, within)
    if not os.path.lexists(path):
        return FileChange(path, changed=False)
    current = read_settings(path)
    after = without_ours(current)
    return _save(path, current, after, now, data=_backed_up_bytes(path, after))


def through_link(path: Path, within: Path | None = None) -> Path:
    """Where a symlinked settings file points: writing there keeps the user's link. A
    project's file (`within`) must stay inside the project once every link is resolved: a
    cloned repository can plant `.claude` as a link to anywhere."""
    real = Path(os.path.realpath(path))
    if within is not None and not is_within(within, real):
        raise BadInputError(f"{path} leads outside the project, to {real}; a link in the "
                            "repository points there — nothing changed")
    return real if path.is_symlink() else path


def _backed_up_bytes(path: Path, settings: Settings) -> bytes | None:
    """The bytes of the newest backup of `path` that holds exactly `settings`."""
    backups = sorted(backup_folder(path).glob(f"{glob.escape(path.name)}.bak-*"),
                     key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)
    for backup in backups[:20]:
        with contextlib.suppress(OSError, ValueError, BadInputError):
            data = files.read_bytes(backup) or b""
            if files.loads(data.decode("utf-8"), backup) == settings:
                return data
    return None


def read_settings(path: Path) -> Settings:
    """The settings object; {} for a missing file; `BadInputError` for anything not an
    object, not strict JSON, or not a regular file."""
    raw = files.read_bytes(path)
    if raw is None:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadInputError(f"{path}: cannot read it ({err}); nothing changed") from err
    data = files.loads(text, path)
    if not isinstance(data, dict):
        raise BadInputError(f"{path}: holds a JSON {type(data).__name__}, not an object; "
                            "nothing changed")
    return data


def backup_folder(path: Path) -> Path:
    """Where the backups of the settings file at `path` are kept (outside any repo)."""
    return state_subdir("settings-backups", dir_key(path.parent))


def backup_path(path: Path, now: dt.datetime) -> Path:
    """`<name>.bak-<UTC timestamp>` under the state directory (`settings-backups/<key of
    the file's folder>/`), never beside the file: a backup inside a repo gets committed.
    Numbered when that name is taken."""
    folder = backup_folder(path)
    stamp = now.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    candidate = folder / f"{path.name}.bak-{stamp}"
    number = 1
    while candidate.exists():
        number += 1
        candidate = folder / f"{path.name}.bak-{stamp}-{number}"
    return candidate


def _save(path: Path, before: Settings, after: Settings, now: dt.datetime,
          data: bytes | None = None) -> FileChange:
    if after == before:
        return FileChange(path, changed=False)
    if data is None:
        data = files.dumps(after, path)
    return write_with_backup(path, data, now)


def write_with_backup(path: Path, data: bytes, now: dt.datetime) -> FileChange:
    """Write `data` to `path`, first copying what was there to `backup_path` (a FIFO or
    device there is refused, never opened)."""
    backup = None
    if (before := files.read_bytes(path)) is not None:
        backup = backup_path(path, now)
        atomic.atomic_write(backup, before)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.atomic_write(path, data)
    return FileChange(path, changed=True, backup=backup)


def _strip_group(group: Any) -> Any | None:
    """The group without our hooks; None when ours were all it held."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return group
    kept = [hook for hook in group["hooks"] if not is_ours(hook)]
    if len(kept) == len(group["hooks"]):
        return group
    return {**group, "hooks": kept} if kept else None


def _group(matcher: str, command: str) -> Settings:
    return {"matcher": matcher,
            "hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}]}
