"""Placement hints for `restore`: the index-line records every tombstone keeps.

Restore puts an index line back where its neighbours say it was; the records of all the
other tombstones (restored ones too) tell it which lines sat next to which.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from prune_memory.engine.tombstone import IndexLineRecord, read_tombstone
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.store.files import file_key, regular_files
from prune_memory.store.safe_read import read_regular


def index_records(root: Path, skip: str = "") -> list[IndexLineRecord]:
    """The index-line records of every tombstone (restored ones too): restore's placement hints."""
    found: list[IndexLineRecord] = []
    for path in regular_files(root / TOMBSTONE_DIR, ".md"):
        rel = f"{TOMBSTONE_DIR}/{path.name}"
        if rel == skip:
            continue
        quick = _cached_records(path)
        if quick is None:
            stone = read_tombstone(root, rel)
            quick = [] if stone is None else [replace(rec, seq=stone.header.register_id)
                                              for rec in stone.header.index_lines]
        found.extend(quick)
    return found


_RECORDS: dict[tuple[str, int, int, int], list[IndexLineRecord] | None] = {}


def _cached_records(path: Path) -> list[IndexLineRecord] | None:
    """`_quick_records` of a tombstone, kept while the file is unchanged (a pass that
    restores several entries reads the same few hundred headers each time)."""
    key = file_key(path)
    if key not in _RECORDS:
        try:
            _RECORDS[key] = _quick_records(read_regular(path))
        except OSError:
            return None
    return _RECORDS[key]


def _quick_records(raw: bytes) -> list[IndexLineRecord] | None:
    """The records straight from the two header lines that hold them (we write
    `index_lines` as JSON on one line); None sends the caller to the full YAML parse."""
    end = raw.find(b"\n---\n", 3)
    if not raw.startswith(b"---\n") or end < 0:
        return None
    fields = dict(line.partition(": ")[::2] for line in
                  raw[4:end].decode("utf-8", "replace").splitlines())
    register_id, lines = fields.get("register_id", ""), fields.get("index_lines")
    if lines is None or not re.fullmatch(r"\d{4}-\d{2}-\d{2}-\d+", register_id):
        return None
    try:
        items = json.loads(lines)
    except ValueError:
        return None
    return [replace(IndexLineRecord.from_json(item), seq=register_id) for item in items
            if isinstance(item, dict)]
