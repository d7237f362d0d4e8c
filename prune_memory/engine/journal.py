"""The write-ahead journal: one typed record per step, written before the step starts.

Each kind of step is a frozen dataclass, built and run in the module of its operation
(`withdraw.py`, `update.py`, ...), which registers it here with `@kind`. A record is
written as JSON (the dataclass's fields, plus `op`) atomically under the state directory,
outside the memory directory. The step removes it when every file is in place; a record
still present means the step was interrupted and `recovery.py` must finish or undo it.
`engine/__init__.py` imports every operation, so each kind is known before a record is read.
"""

from __future__ import annotations

import base64
import dataclasses
import errno
import json
import os
import re
import secrets
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, TypeVar

from prune_memory.errors import PruneMemoryError, RefusedError
from prune_memory.model import JSON
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic

_RECORD = re.compile(r"^step-(\d{8})\.json$")
S = TypeVar("S", bound="Step")


@dataclass(frozen=True)
class StepOutcome:
    """What one step did: `done`, `rolled-back`, `cancelled` (after its commit point)."""

    op: str
    file: str
    status: str
    message: str = ""


class Step(ABC):
    """A journalled step: its record's fields are the dataclass's; `outcomes` runs it (or
    finishes it after a crash: every step looks at the disk first, so it can run again)."""

    OP: ClassVar[str]
    file: str  # what the step is about, as its outcome names it

    @abstractmethod
    def outcomes(self, root: Path) -> list[StepOutcome]:
        """Carry out (or finish) the step: one outcome, or one per entry of a batch."""

    def to_json(self) -> JSON:
        return {"op": self.OP, **{f.name: _encoded(getattr(self, f.name))
                                  for f in dataclasses.fields(self)}}  # type: ignore[arg-type]

    @classmethod
    def from_json(cls: type[S], data: JSON) -> S:
        """The record read back; KeyError, TypeError or ValueError when it has a shape no
        version of the tool writes (recovery sets such a record aside)."""
        return _decoded(cls, data)


class OneStep(Step):
    """A step about one file, with one outcome."""

    @abstractmethod
    def run(self, root: Path) -> StepOutcome:
        """Carry out (or finish) the step."""

    def outcomes(self, root: Path) -> list[StepOutcome]:
        return [self.run(root)]


KINDS: dict[str, type[Step]] = {}


def kind(cls: type[S]) -> type[S]:
    """Register a step kind under its `OP`, so a record of it can be read back."""
    KINDS[cls.OP] = cls
    return cls


def step_of(record: JSON) -> Step:
    """The typed step a journal record holds; RefusedError for a kind never registered."""
    found = KINDS.get(str(record.get("op")))
    if found is None:
        raise RefusedError(f"journal step of unknown kind {record.get('op')!r}; inspect the "
                           "journal before running a write command again")
    return found.from_json(record)


class StepInterrupted(RefusedError):
    """A step could not finish (disk full, permission denied, a conflict only a person can
    settle). Its journal record stays, so nothing is lost; a batch must stop here."""


def execute(root: Path, step: OneStep) -> StepOutcome:
    """Journal `step`, run it, and drop the record once every file is in place."""
    (outcome,) = execute_all(root, step)
    return outcome


def carried_out(root: Path, step: OneStep) -> StepOutcome:
    """Run one journalled step; anything short of done refuses the command."""
    outcome = execute(root, step)
    if outcome.status != "done":
        raise RefusedError(outcome.message)
    return outcome


def execute_all(root: Path, step: Step) -> list[StepOutcome]:
    """`execute` for a step of any kind: one outcome, or one per entry of a batch."""
    try:
        record = begin(root, step.to_json())
    except OSError as err:
        raise StepInterrupted(f"cannot write the journal ({why(err)}); nothing was "
                              "changed") from err
    try:
        outcomes = step.outcomes(root)
    except (OSError, PruneMemoryError) as err:
        said = why(err) if isinstance(err, OSError) else str(err)
        raise StepInterrupted(f"{step.OP} of {step.file} stopped ({said}); the step is "
                              f"kept in {record} and nothing is lost — fix the cause, then "
                              "run `prune-memory recover`") from err
    finish(record)
    return outcomes


def why(err: OSError) -> str:
    where = f": {err.filename}" if err.filename else ""
    return f"{err.strerror or err}{where}"


# Errors that pass once space, permissions or the device come back: the step waits for
# them. Any other (a name too long, a path that cannot exist) never will.
PASSING = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS,
                     errno.EIO, errno.EAGAIN, errno.EBUSY, errno.EINTR, errno.ENOMEM,
                     errno.EMFILE, errno.ENFILE})


def _encoded(value: object) -> typing.Any:
    """A record's value as JSON: nested records by their own `to_json`, tuples as lists."""
    to_json: Callable[[], JSON] | None = getattr(value, "to_json", None)
    if to_json is not None:
        return to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encoded(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_encoded(item) for item in value]
    return value


def _decoded(cls: type[S], data: JSON) -> S:
    if not isinstance(data, dict):
        raise TypeError(f"{cls.__name__} record is not an object")
    return cls(**_fields(cls, data))


def _fields(cls: type, data: JSON) -> dict[str, object]:
    hints = typing.get_type_hints(cls)
    values: dict[str, object] = {}
    for field in dataclasses.fields(cls):
        if field.name in data:
            values[field.name] = _as(hints[field.name], data[field.name])
        elif field.default is dataclasses.MISSING and \
                field.default_factory is dataclasses.MISSING:
            raise KeyError(field.name)
    return values


def _as(hint: typing.Any, value: object) -> object:
    """`value` read as `hint` says: primitives checked, tuples and records rebuilt."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        (other,) = [a for a in args if a is not type(None)]
        return _as(other, value)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_as(args[0], item) for item in value)
        return tuple(_as(a, item) for a, item in zip(args, value, strict=True))
    if origin is dict:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {value!r}")
        return value
    from_json = getattr(hint, "from_json", None)
    if from_json is not None:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {value!r}")
        return from_json(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {value!r}")
        return hint(**_fields(hint, value))
    if hint is type(None):
        if value is not None:
            raise TypeError(f"expected null, got {value!r}")
        return None
    if not isinstance(value, hint) or (hint is int and isinstance(value, bool)):
        raise TypeError(f"expected {hint.__name__}, got {value!r}")
    return value


@dataclass(frozen=True)
class Pending:
    """An interrupted step found in the journal."""

    path: Path
    step: JSON  # the record as the journal holds it


def journal_dir(root: Path) -> Path:
    return state_subdir("journal", dir_key(root))


def begin(root: Path, record: JSON) -> Path:
    """Record `record` durably before any of its files change; return the record's path."""
    folder = journal_dir(root)
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := _RECORD.match(p.name))]
    path = folder / f"step-{max(numbers, default=0) + 1:08d}.json"
    data = json.dumps({"memory_dir": str(root.resolve()), **record}, ensure_ascii=False)
    atomic.atomic_write(path, data.encode("utf-8"))
    path.chmod(0o600)  # it can hold a memory's body
    return path


def finish(record: Path) -> None:
    """The step is complete on disk: drop its record. No directory fsync: if the removal
    is lost in a power cut, recovery runs the finished step again, which changes nothing."""
    record.unlink(missing_ok=True)


def pending(root: Path) -> list[Pending]:
    """Interrupted steps of `root`, oldest first; an unreadable record is refused, not guessed."""
    folder = journal_dir(root)
    found: list[Pending] = []
    for path in sorted(p for p in folder.iterdir() if _RECORD.match(p.name)):
        try:
            step = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise RefusedError(f"journal record {path} cannot be read ({err}); inspect it, "
                               "then move it away and run `prune-memory recover` again") from err
        found.append(Pending(path=path, step=step))
    return found


def set_aside(record: Path, root: Path) -> Path:
    """Move a record no run can finish out of the journal, keeping it for a person; the
    journal then stops blocking every later write."""
    folder = state_subdir("set-aside", dir_key(root))
    target = folder / f"{record.stem}.{secrets.token_hex(4)}.json"
    os.replace(record, target)
    return target


def clean_temps(root: Path) -> list[Path]:
    return atomic.clean_temps(journal_dir(root))


def pack(data: bytes) -> str:
    """Bytes as text for a JSON record."""
    return base64.b64encode(data).decode("ascii")


def unpack(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"))
