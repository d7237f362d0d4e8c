"""Claude Code's files that `hook install` and `skill install` touch: read without waiting,
and settings written back as strict JSON.

Claude Code must still read a settings file after we rewrite it, so nothing is written that
a strict JSON reader refuses: a number no double holds (`1e400` would come back as
`Infinity`), `NaN`, a lone surrogate escape. Such a file, one nested past any sane depth,
or one that is not a regular file (a FIFO would block the reader forever) is refused in
one line before anything changes.
"""

from __future__ import annotations

import json
import math
import os
import stat

from prune_memory.errors import BadInputError

# No pathlib here: the gate reads settings through this module on every tool call.
Where = str | os.PathLike[str]

MAX_BYTES = 8 * 1024 * 1024  # settings are a few KB; past this it is not a settings file


def read_bytes(path: Where, limit: int = MAX_BYTES) -> bytes | None:
    """The bytes of the file at `path` (links followed), None when there is none. A FIFO,
    device or folder is refused before it is opened, and never waited on."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise BadInputError(f"{path}: cannot read it ({err.strerror or err}); nothing "
                            "changed") from err
    if not stat.S_ISREG(info.st_mode):
        raise BadInputError(f"{path} is not a regular file (a FIFO, device or folder); "
                            "nothing changed — put a real file there first")
    if info.st_size > limit:
        raise BadInputError(f"{path} is {info.st_size} bytes, too big for a file of Claude "
                            "Code's settings; nothing changed")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped meanwhile
                raise BadInputError(f"{path} is not a regular file; nothing changed")
            return handle.read(limit + 1)[:limit]
    except OSError as err:
        raise BadInputError(f"{path}: cannot read it ({err.strerror or err}); nothing "
                            "changed") from err


def loads(text: str, where: Where) -> object:
    """Parse strictly: what a strict reader accepts and what we can write back unchanged."""
    def no_constant(name: str) -> object:
        raise BadInputError(f"{where}: holds {name}, which is not JSON; nothing changed")

    def real(number: str) -> float:
        value = float(number)
        if not math.isfinite(value):
            raise BadInputError(f"{where}: the number {number[:30]} does not fit a JSON "
                                "reader's double, so it could not be written back as "
                                "itself; nothing changed — fix it by hand first")
        return value

    def whole(number: str) -> int:
        try:
            return int(number)
        except ValueError as err:  # past Python's digit limit
            raise BadInputError(f"{where}: a number of {len(number)} digits is too long to "
                                "keep; nothing changed") from err

    try:
        return json.loads(text, parse_constant=no_constant, parse_float=real, parse_int=whole)
    except RecursionError as err:
        raise BadInputError(f"{where}: nested too deeply to be settings; nothing "
                            "changed") from err
    except ValueError as err:
        raise BadInputError(f"{where}: not valid JSON ({err}); nothing changed") from err


def dumps(data: object, where: Where) -> bytes:
    """The bytes written back: two-space JSON, UTF-8, never NaN or Infinity."""
    try:
        text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        return text.encode("utf-8")
    except UnicodeEncodeError as err:
        lone = ascii(err.object[err.start:err.end])
        raise BadInputError(f"{where}: holds a lone surrogate escape ({lone}), which UTF-8 "
                            "cannot write; nothing changed — fix it by hand first") from err
    except (ValueError, RecursionError) as err:
        raise BadInputError(f"{where}: cannot be written back as strict JSON ({err}); "
                            "nothing changed") from err
