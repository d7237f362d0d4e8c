"""Is this folder a memory directory at all? Checked before a command reads or writes it.

A memory directory has the index (`MEMORY.md`), the tool's own files, or at least one
top-level markdown file whose frontmatter names a memory type, as Claude Code writes
them. A repository root, a home folder or a docs folder has none of these: taking one for
memory would snapshot the whole tree and write `pruning-log.md` into it.
"""

from __future__ import annotations

import os
from pathlib import Path

from prune_memory.errors import FileLoadError
from prune_memory.vocab import INDEX_FILE, LOG_FILE, MEMORY_TYPES, TOMBSTONE_DIR

HEAD_BYTES = 8192  # frontmatter sits at the top; a memory's is a few lines
MAX_LOOKED_AT = 200  # markdown files read before giving up on finding a memory


def why_not_memory(root: Path) -> str | None:
    """None when `root` looks like a memory directory; else what it lacks, in words."""
    names = _names(root)
    if INDEX_FILE in names or LOG_FILE in names or TOMBSTONE_DIR in names:
        return None
    markdown = sorted(n for n in names if n.endswith(".md"))
    if any(_memory_shaped(root / name) for name in markdown[:MAX_LOOKED_AT]):
        return None
    what = f"no {INDEX_FILE} and no memory files (markdown whose frontmatter has a " \
        "memory `type:`)"
    if ".git" in names:
        what += "; it is a git repository"
    elif not names:
        what = "it is empty"
    return what


def _names(root: Path) -> set[str]:
    try:
        return {item.name for item in os.scandir(root)}
    except OSError:
        return set()


def _memory_shaped(path: Path) -> bool:
    """A regular file whose frontmatter says it is a memory (`type:` at the top or under
    `metadata:`, read leniently, as Claude Code reads it)."""
    from prune_memory.store.frontmatter_parse import memory_type, parse_memory_text  # YAML

    try:
        if path.is_symlink() or not path.is_file():
            return False
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES).decode("utf-8", errors="replace")
        parsed = parse_memory_text(path.name, head)
    except (OSError, FileLoadError):
        return False
    return parsed.has_frontmatter and memory_type(parsed.meta) in MEMORY_TYPES
