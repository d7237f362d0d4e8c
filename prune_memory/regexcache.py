"""Compiled regex programs remembered between processes, for the write-time gate.

`re.compile` parses a pattern, emits a program for the C matcher, then hands it to
`_sre.compile`. For the gate's few dozen patterns the first two steps cost several
milliseconds in every fresh process, more than the matching. The program depends only on
the pattern, its flags and the interpreter, so it is kept in the warm cache under a section
named for the exact interpreter and matcher version, and handed straight to `_sre.compile`
next time. A program is stored only after the pattern it rebuilds compares equal to
`re.compile`'s (pattern equality includes the program); anything unexpected falls back to
`re.compile`.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from prune_memory import warmcache

try:
    import _sre  # type: ignore[import-not-found]  # no stubs: the C half of `re`

    _SECTION: str | None = f"sre-{sys.hexversion:x}-{_sre.MAGIC}"
    if _sre.CODESIZE != 4:  # the stored form packs 4-byte code units
        _SECTION = None
except (ImportError, AttributeError):  # pragma: no cover - another interpreter
    _SECTION = None

# What `_rebuild` raises on an entry that is not a program (`_sre` validates the code).
_DAMAGED = (TypeError, ValueError, KeyError, IndexError, RuntimeError)


def compile_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, without parsing or code generation when remembered."""
    if _SECTION is None:
        return re.compile(pattern, flags)
    key = f"{int(flags)}:{pattern}"
    known = warmcache.get(_SECTION, key)
    if known is not None:
        try:
            return _rebuild(pattern, known)
        except _DAMAGED:
            pass  # a damaged entry: compile afresh and overwrite it
    compiled = re.compile(pattern, flags)
    program = _program(pattern, flags)
    if program is not None and _matches(pattern, program, compiled):
        warmcache.put(_SECTION, key, program)
    return compiled


def _program(pattern: str, flags: int) -> list[Any] | None:
    """What `re._compiler.compile` passes to `_sre.compile`, in JSON-friendly form."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        packed = b"".join(unit.to_bytes(4, sys.byteorder) for unit in code).hex()
        state = parsed.state
        return [int(flags | state.flags), packed, state.groups - 1, dict(state.groupdict)]
    except Exception:  # private API of `re`: if it moved, simply do not cache
        return None


def _rebuild(pattern: str, program: list[Any]) -> re.Pattern[str]:
    flags, packed, groups, groupindex = program
    code = memoryview(bytes.fromhex(packed)).cast("I").tolist()
    indexgroup: list[str | None] = [None] * (groups + 1)
    for name, index in groupindex.items():
        indexgroup[index] = name
    rebuilt: re.Pattern[str] = _sre.compile(pattern, flags, code, groups, groupindex,
                                            tuple(indexgroup))
    return rebuilt


def _matches(pattern: str, program: list[Any], compiled: re.Pattern[str]) -> bool:
    try:
        return _rebuild(pattern, program) == compiled
    except _DAMAGED:
        return False
