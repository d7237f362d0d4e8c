"""Load a memory directory into frozen records. Bad files are reported, never fatal."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from prune_memory.errors import FileLoadError
from prune_memory.model import (
    INDEX_FILE,
    OWN_FILES,
    TOMBSTONE_DIR,
    Entry,
    EntryKind,
    Index,
    LoadError,
    MemoryDir,
)
from prune_memory.secrets.base import SecretHit
from prune_memory.secrets.scan import find_secrets
from prune_memory.store.files import read_or_none, regular_files
from prune_memory.store.frontmatter_parse import memory_type, parse_memory_text, parse_timestamp
from prune_memory.store.index import attach_index_lines, inline_facts, parse_index
from prune_memory.store.links import find_links
from prune_memory.store.safe_read import decode_text, is_inside, read_member, require_directory

T = TypeVar("T")


def load_memory_dir(root: Path) -> MemoryDir:
    """Read the index, every top-level topic file and the tombstone folder of `root`."""
    require_directory(root)
    errors: list[LoadError] = []
    index: Index | None = None
    topics: list[Entry] = []
    other: list[str] = []
    for item in sorted(os.scandir(root), key=lambda e: e.name):
        if item.is_symlink() and not is_inside(root, Path(item.path)):
            errors.append(LoadError(item.name, "symlink leaves the memory directory; not followed"))
        elif item.name == INDEX_FILE:
            index = _guard(errors, _read_index, root)
        elif item.name in OWN_FILES or item.name == TOMBSTONE_DIR:
            continue
        elif item.name.endswith(".md") and not item.is_dir(follow_symlinks=False):
            entry = _guard(errors, load_topic, root, item.name)
            if entry is not None:
                topics.append(entry)
        else:
            other.append(item.name + ("/" if item.is_dir(follow_symlinks=False) else ""))
    if index is not None:
        topics = attach_index_lines(index, topics)
        topics.extend(inline_facts(index, _mtime(root / INDEX_FILE)))
    return MemoryDir(root=root, index=index, entries=tuple(topics), errors=tuple(errors),
                     tombstones=list_tombstones(root), other_files=tuple(other))


def load_topic(root: Path, name: str) -> Entry:
    """One topic file as an Entry; raises FileLoadError for anything unreadable."""
    raw = read_member(root, name)
    parsed = parse_memory_text(name, decode_text(name, raw))
    meta = parsed.meta
    return Entry(
        file=name, kind=EntryKind.TOPIC,
        name=str(meta.get("name") or Path(name).stem),
        description=str(meta.get("description") or ""),
        memory_type=memory_type(meta), frontmatter=meta, body=parsed.body,
        sha256=hashlib.sha256(raw).hexdigest(), size=len(raw), mtime=_mtime(root / name),
        modified=parse_timestamp(meta.get("modified")), links=find_links(parsed.body),
        read_leniently=parsed.problem if parsed.lenient else "",
    )


def _read_index(root: Path) -> Index:
    return parse_index(read_member(root, INDEX_FILE))


def list_tombstones(root: Path) -> tuple[str, ...]:
    """Names of the regular markdown files in `deaccessioned/` (symlinks are skipped)."""
    folder = root / TOMBSTONE_DIR
    if folder.is_symlink() or not folder.is_dir():
        return ()
    return tuple(sorted(e.name for e in os.scandir(folder)
                        if e.name.endswith(".md") and e.is_file(follow_symlinks=False)))


def _guard(errors: list[LoadError], load: Callable[..., T], *args: object) -> T | None:
    try:
        return load(*args)
    except FileLoadError as err:
        errors.append(LoadError(err.file, err.reason))
        return None


def _mtime(path: Path) -> dt.datetime:
    return dt.datetime.fromtimestamp(os.lstat(path).st_mtime, tz=dt.UTC)


def secret_tombstones(root: Path) -> list[tuple[str, tuple[SecretHit, ...]]]:
    """Tombstones that still hold a secret in the memory directory (older versions kept the
    original verbatim): each with what was found, described, never the value."""
    found: list[tuple[str, tuple[SecretHit, ...]]] = []
    for path in regular_files(root / TOMBSTONE_DIR, ".md"):
        data = read_or_none(path) or b""
        hits = find_secrets(data.decode("utf-8", errors="replace"))
        if hits:
            found.append((f"{TOMBSTONE_DIR}/{path.name}", hits))
    return found
