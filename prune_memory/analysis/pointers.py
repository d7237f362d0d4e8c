"""Which index lines are pointers — `- [Title](file.md) — hook` — and which link targets are
only the format written out as an example.

A pointer line exists to point: dropping it when its file is gone loses nothing. A line of
prose that happens to hold a link, or a link to `file.md` shown as the shape of an index
line, is text a person wrote; step 9 never deletes it on its own.
"""

from __future__ import annotations

import re

from prune_memory.model import IndexLine, LinkKind

_POINTER_START = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*|__)?\[")
_PLACEHOLDER_STEMS = frozenset({
    "file", "filename", "file-name", "file_name", "name", "topic", "topic-file", "topic_file",
    "example", "sample", "foo", "bar", "baz", "x", "xx", "xxx", "your-file", "your_file",
    "some-file", "some_file", "path", "note", "title", "memory", "entry", "new-file",
    "new_file", "other", "slug", "your-topic", "your_topic", "my-file", "my_file",
})


def pointer_target(line: IndexLine, *, outside: bool = False) -> str | None:
    """The file a pointer line points at: a list item that starts with its link (with
    `outside`, a link out of the directory too)."""
    if not line.is_item or not line.links or not _POINTER_START.match(line.text):
        return None
    first = line.links[0]
    if first.kind is LinkKind.WIKI or first.external or (first.escapes and not outside):
        return None
    return first.target


def is_placeholder(target: str) -> bool:
    """`file.md`, `<name>.md`, `path/to/file.md`: the format shown, not a memory."""
    stem = target.rsplit("/", 1)[-1].removesuffix(".md").casefold()
    return (stem in _PLACEHOLDER_STEMS or any(ch in target for ch in "<>{}")
            or "..." in target or "…" in target or target.startswith("path/to/"))
