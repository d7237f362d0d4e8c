"""Byte-preserving index edits for step 9's repairs: drop a line, fix a link, add a line.

Each function returns new MEMORY.md bytes; every line it does not own keeps its bytes.
"""

from __future__ import annotations

from prune_memory.errors import RefusedError
from prune_memory.store.lineends import split_ends, usual_end


def _lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True)


def _newline(raw: bytes) -> bytes:
    """The line ending most lines of `raw` use: a line we add takes it."""
    text = raw.decode("utf-8", "surrogateescape")
    return usual_end(split_ends(text)[1]).encode()


def _text(line: bytes) -> str:
    return line.rstrip(b"\r\n").decode("utf-8", errors="replace")


def _find(lines: list[bytes], number: int, expected: str) -> int:
    """The 0-based position of the planned line: line `number` while it still reads
    `expected`, else the copy of `expected` nearest to it. Withdrawals earlier in the same
    pass remove index lines above it, which moves it up; the text is what identifies it."""
    matches = [i for i, line in enumerate(lines) if _text(line) == expected]
    if not matches:
        raise RefusedError(f"MEMORY.md no longer has the line planned at {number} "
                           "(index changed since the plan); left as it is")
    return min(matches, key=lambda i: (abs(i - (number - 1)), i))


def drop_line(raw: bytes, number: int, expected: str) -> bytes:
    """Remove the line planned at `number` (1-based), found by its text `expected`."""
    lines = _lines(raw)
    at = _find(lines, number, expected)
    return b"".join(lines[:at] + lines[at + 1:])


def retarget_line(raw: bytes, number: int, expected: str, old: str, new: str) -> bytes:
    """Point the link on the line planned at `number` at `new` instead of `old`."""
    lines = _lines(raw)
    at = _find(lines, number, expected)
    line = lines[at]
    fixed = line.replace(f"]({old})".encode(), f"]({new})".encode(), 1)
    if fixed == line:
        fixed = line.replace(f"]: {old}".encode(), f"]: {new}".encode(), 1)
    if fixed == line:
        raise RefusedError(f"MEMORY.md line {at + 1}: link to {old} not found")
    return b"".join([*lines[:at], fixed, *lines[at + 1:]])


def add_line(raw: bytes, line: str, section: str) -> bytes:
    """Append `line` under `## section`, creating the section at the end when missing."""
    nl = _newline(raw)
    lines = _lines(raw)
    heading = f"## {section}".encode()
    body = line.encode("utf-8") + nl
    if lines and not lines[-1].endswith((b"\n", b"\r")):
        lines[-1] += nl
    at = next((i for i, ln in enumerate(lines) if ln.rstrip(b"\r\n") == heading), None)
    if at is None:
        gap = [nl] if lines and lines[-1].strip() else []
        return b"".join([*lines, *gap, heading + nl, body])
    end = at + 1
    while end < len(lines) and not lines[end].startswith(b"#") and lines[end].strip():
        end += 1
    return b"".join([*lines[:end], body, *lines[end:]])


def rewrite_line(raw: bytes, number: int, expected: str, new: str) -> bytes:
    """Replace the text of the line planned at `number` (found by its text); its ending stays."""
    lines = _lines(raw)
    at = _find(lines, number, expected)
    ending = lines[at][len(lines[at].rstrip(b"\r\n")):]
    return b"".join([*lines[:at], new.encode("utf-8") + ending, *lines[at + 1:]])
