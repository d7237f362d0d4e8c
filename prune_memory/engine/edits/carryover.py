"""Carry a body's corrections over to the description and the index line of the same memory.

An update that fixes `pebble` to `cairn` in the body must fix it where Claude reads first
too: the one-line `description` and the MEMORY.md line loaded into every session. The
corrections are read off the body's own change (a word-level diff of old against new), so
the same rule serves a proposed update, an edit made in review and a sweep.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

_TOKEN = re.compile(r"[\w][\w./-]*[\w]|[\w]|\s+|[^\w\s]")
MAX_PHRASE_TOKENS = 7  # a longer rewrite is a new sentence, not a correction to carry


def corrections(old: str, new: str) -> list[tuple[str, str]]:
    """(old phrase, new phrase) for each short replacement in the change from `old` to `new`."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    pairs: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or max(i2 - i1, j2 - j1) > MAX_PHRASE_TOKENS:
            continue
        before, after = "".join(a[i1:i2]).strip(), "".join(b[j1:j2]).strip()
        if re.search(r"\w\w", before) and before != after and after:
            pairs.append((before, after))
    return list(dict.fromkeys(pairs))


def carry(text: str, pairs: Sequence[tuple[str, str]]) -> str:
    """`text` with every correction applied where the old phrase stands as whole words."""
    for before, after in sorted(pairs, key=lambda p: len(p[0]), reverse=True):
        pattern = re.compile(r"(?<![\w])" + re.escape(before) + r"(?![\w])")
        text = pattern.sub(after.replace("\\", "\\\\"), text)
    return text
