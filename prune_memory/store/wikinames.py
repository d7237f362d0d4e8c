"""The one key a `[[name]]` link and a memory's name or file share, however it is written.

People write `[[gates-pattern]]` for `feedback_gates_pattern.md`: another case, `-` or a
space for `_`, `.md` or not, the type prefix Claude Code puts on file names left out.
"""

from __future__ import annotations

import re

_TYPE_PREFIX = re.compile(r"^(?:user|feedback|project|reference)_")
_SEPARATORS = re.compile(r"[-\s]+")


def wiki_key(name: str) -> str:
    """`feedback_gates_pattern.md`, `Feedback-Gates-Pattern` and `gates pattern` all give
    `gates_pattern`."""
    key = _SEPARATORS.sub("_", name.strip().casefold()).removesuffix(".md")
    return _TYPE_PREFIX.sub("", key)
