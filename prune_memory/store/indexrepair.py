"""Byte-preserving index edits for step 9's repairs: drop a line, fix a link, add a line.

Each function returns new MEMORY.md bytes; every line it does not own keeps its bytes.
"""

from __future__ import annotations

from prune_memory.errors import RefusedError


def _lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True)


def _newline(raw: bytes) -> bytes:
    return b"\r\n" if b"\r\n" in raw else b"\n"


def _check(lines: list[bytes], number: int, expected: str) -> bytes:
    if not 1 <= number <= len(lines):
        raise RefusedError(f"MEMORY.md has no line {number} any more; index changed since plan")
    line = lines[number - 1]
    if line.rstrip(b"\r\n").decode("utf-8", errors="replace") != expected:
        raise RefusedError(f"MEMORY.md line {number} changed since the plan; left as it is")
    return line


def drop_line(raw: bytes, number: int, expected: str) -> bytes:
    """Remove line `number` (1-based), which must still read `expected`."""
    lines = _lines(raw)
    _check(lines, number, expected)
    return b"".join(lines[:number - 1] + lines[number:])


def retarget_line(raw: bytes, number: int, expected: str, old: str, new: str) -> bytes:
    """Point the link on line `number` at `new` instead of `old`."""
    lines = _lines(raw)
    line = _check(lines, number, expected)
    fixed = line.replace(f"]({old})".encode(), f"]({new})".encode(), 1)
    if fixed == line:
        fixed = line.replace(f"]: {old}".encode(), f"]: {new}".encode(), 1)
    if fixed == line:
        raise RefusedError(f"MEMORY.md line {number}: link to {old} not found")
    return b"".join([*lines[:number - 1], fixed, *lines[number:]])


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
