"""Facts derived from pattern and policy text, remembered between processes.

The write-time gate starts a fresh interpreter for every tool call. Working out which
literals a regex needs, or parsing the retention policy's TOML, costs more there than the
check itself; the answers depend only on the text they came from, so they are kept in one
small JSON file under the state directory. A missing, unreadable or unwritable cache only
means the work is done again.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
from pathlib import Path
from typing import Any

from prune_memory.state import private_dir, state_root

_VERSION = 1
_loaded: dict[str, dict[str, Any]] | None = None
_dirty = False
_root: list[str] = []  # the state root seen at first use; the save goes there too


def _path() -> str:
    if not _root:
        _root.append(str(state_root()))
    name = f"derived-py{sys.version_info[0]}{sys.version_info[1]}.json"
    return os.path.join(_root[0], "cache", name)


def _data() -> dict[str, dict[str, Any]]:
    global _loaded
    if _loaded is None:
        try:
            with open(_path(), encoding="utf-8") as handle:
                found = json.load(handle)
            _loaded = found["sections"] if found.get("version") == _VERSION else {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            _loaded = {}
    return _loaded


def get(section: str, key: str) -> Any:
    """The remembered value, or None."""
    return _data().get(section, {}).get(key)


def put(section: str, key: str, value: Any) -> None:
    """Remember `value` (JSON data); written once, when the process exits."""
    global _dirty
    _data().setdefault(section, {})[key] = value
    if not _dirty:
        _dirty = True
        atexit.register(save)


def save() -> None:
    """Write the cache atomically; any failure is ignored (it is only a cache)."""
    if not _dirty or _loaded is None:
        return
    path = _path()
    try:
        private_dir(Path(_root[0]))
        private_dir(Path(path).parent)
        temp = f"{path}.{os.getpid()}.tmp"
        with open(temp, "w", encoding="utf-8") as handle:
            json.dump({"version": _VERSION, "sections": _loaded}, handle)
        os.replace(temp, path)
    except OSError:
        pass
