"""The one key a `[[name]]` link and a memory's name or file share, however it is written.

People write `[[gates-pattern]]` for `feedback_gates_pattern.md`: another case, `-` or a
space for `_`, `.md` or not, the type prefix Claude Code puts on file names left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_TYPE_PREFIX = re.compile(r"^(?:user|feedback|project|reference)_")
_SEPARATORS = re.compile(r"[-\s]+")


def wiki_key(name: str) -> str:
    """`feedback_gates_pattern.md`, `Feedback-Gates-Pattern` and `gates pattern` all give
    `gates_pattern`."""
    key = _SEPARATORS.sub("_", name.strip().casefold()).removesuffix(".md")
    return _TYPE_PREFIX.sub("", key)


def close_match(target: str, files: Iterable[str]) -> str | None:
    """The one existing file an inexact link target most likely names (its `wiki_key`,
    folders dropped), if exactly one fits: the scan's guess and the unlinker's agree."""
    wanted = wiki_key(target.rsplit("/", 1)[-1])
    hits = sorted(f for f in files if wiki_key(f) == wanted)
    return hits[0] if len(hits) == 1 else None
