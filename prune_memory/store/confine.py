"""Values read back from files the tool wrote earlier (pass records, tombstone headers,
review sessions), checked before use.

Those files sit where anything can edit them, so a path read from one is used only when,
with every symlink resolved, it lies inside the folder it belongs to, and every other value
only when it has the type the tool writes. Anything else is a `BadInputError` naming the
file: one line, exit 2, raised before anything is read or written through it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from prune_memory.errors import BadInputError
from prune_memory.secrets.mask import mask_text

_HEX64 = re.compile(r"[0-9a-f]{64}")


class NotOursError(BadInputError):
    """A file the tool wrote holds something it never writes there."""

    def __init__(self, source: str, why: str) -> None:
        super().__init__(f"{source} is not as prune-memory wrote it ({why}); nothing was "
                         "changed — move that file away, then run the command again")


def is_within(base: Path, candidate: Path) -> bool:
    """True when `candidate`, every symlink resolved (realpath), lies inside `base`."""
    real_base = os.path.realpath(base)
    real = os.path.realpath(candidate)
    return real == real_base or real.startswith(real_base.rstrip(os.sep) + os.sep)


def confined(base: Path, rel: object, source: str, what: str = "a path") -> str:
    """`rel` when it is a relative path that stays inside `base` after realpath; else
    NotOursError. The name is returned as given (callers join it to `base` themselves)."""
    if not isinstance(rel, str) or not rel or "\0" in rel:
        raise NotOursError(source, f"{what} is {shown(rel)}, not a file name")
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or not is_within(base, base / rel) \
            or os.path.realpath(base / rel) == os.path.realpath(base):
        raise NotOursError(source, f"{what} {shown(rel)} lies outside {base}")
    return rel


def is_digest(value: object) -> bool:
    """A sha256 hex digest as the tool writes it (64 lowercase hex digits)."""
    return isinstance(value, str) and bool(_HEX64.fullmatch(value))


def digest(value: object, source: str, what: str = "a hash") -> str:
    if not isinstance(value, str) or not is_digest(value):
        raise NotOursError(source, f"{what} is {shown(value)}, not a sha256 digest")
    return value


def text(value: object, source: str, what: str) -> str:
    if not isinstance(value, str):
        raise NotOursError(source, f"{what} is {shown(value)}, not text")
    return value


def optional_text(value: object, source: str, what: str) -> str | None:
    return None if value is None else text(value, source, what)


def mapping(value: object, source: str, what: str) -> dict[str, object]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise NotOursError(source, f"{what} is {shown(value)}, not a table of names")
    return value


def text_list(value: object, source: str, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise NotOursError(source, f"{what} is {shown(value)}, not a list of text")
    return value


def shown(value: object) -> str:
    """A short, printable description of a bad value: at most 40 characters of it, escaped
    and masked, or only its type when it is not text."""
    if isinstance(value, str):
        masked = mask_text(value)  # whole, before it is cut short
        return repr(masked[:40] + ("…" if len(masked) > 40 else ""))
    return "null" if value is None else f"a {type(value).__name__}"
