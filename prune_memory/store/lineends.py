"""Lines and the endings they came with: CR, CRLF or LF, each kept as it was found.

Only these three end a line. Form feeds, U+2028 and the other characters Python's
`str.splitlines` also breaks on stay inside their line, so text the tool did not write
comes back byte for byte.
"""

from __future__ import annotations

import re
from collections import Counter

_BREAK = re.compile(r"(\r\n|\r|\n)")


def split_ends(text: str) -> tuple[list[str], list[str]]:
    """The lines of `text` and the ending of each (`""` for a last line without one).
    `"".join(line + end ...)` gives `text` back."""
    if not text:
        return [], []
    parts = _BREAK.split(text)
    lines, ends = parts[0::2], [*parts[1::2], ""]
    if lines[-1] == "":  # the text ended with a line ending: no line after it
        lines.pop()
        ends.pop()
    return lines, ends


def bare_lines(text: str) -> list[str]:
    """The lines of `text` without their endings."""
    return split_ends(text)[0]


def usual_end(ends: list[str]) -> str:
    """The ending most lines use (LF when there is none): the one new lines get."""
    counted = Counter(end for end in ends if end)
    return counted.most_common(1)[0][0] if counted else "\n"
