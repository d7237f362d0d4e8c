"""Regular expressions a user wrote, run with a time limit.

A never-persist rule in `retention-policy.md` or a count rule in `.prune-memory.toml` can
backtrack catastrophically (`(a|aa)+$` on a long run of `a`): with Python's `re` that
hangs the write-time gate on every tool call, or a `plan` for good. Such patterns run on
the `regex` engine, whose matching takes a timeout. A search that runs out of time raises
`PatternTimeout`, a one-line error naming the rule. The patterns are still checked and
analysed with `re` (their syntax is `re`'s); only the matching moves.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prune_memory.errors import BadInputError
from prune_memory.matching.regexgate import LazyPattern

LIMIT_SECONDS = 2.0  # one search of one text; a sane pattern needs milliseconds
_DEADLINE: list[float | None] = [None]  # monotonic time by which every search must be done


class PatternTimeout(BadInputError):
    """A user-supplied pattern ran out of time: catastrophic backtracking, most likely."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Every timed search in the block ends by `seconds` from now (the gate's budget)."""
    previous = _DEADLINE[0]
    _DEADLINE[0] = time.monotonic() + seconds
    try:
        yield
    finally:
        _DEADLINE[0] = previous


def time_left() -> float | None:
    """Seconds until the current deadline (None: there is none)."""
    end = _DEADLINE[0]
    return None if end is None else end - time.monotonic()


class TimedPattern(LazyPattern):
    """A `LazyPattern` whose searches run on the `regex` engine with a timeout."""

    __slots__ = ("_engine", "label")

    def __init__(self, pattern: str, flags: int = 0, *, label: str) -> None:
        super().__init__(pattern, flags)
        self.label = label  # names the rule in the error: "count rule `skills`"
        self._engine: Any = None

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        return self._run(lambda engine, limit: engine.search(text, pos, endpos, timeout=limit))

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        return self._run(lambda engine, limit: engine.match(text, pos, endpos, timeout=limit))

    def fullmatch(self, text: str) -> Any:
        return self._run(lambda engine, limit: engine.fullmatch(text, timeout=limit))

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[Any]:
        found = self._run(lambda engine, limit: list(engine.finditer(text, pos, endpos,
                                                                     timeout=limit)))
        return iter(found)

    @property
    def groupindex(self) -> dict[str, int]:
        return dict(self.compiled.groupindex)

    def _run(self, call: Any) -> Any:
        limit = LIMIT_SECONDS
        left = time_left()
        if left is not None:
            limit = min(limit, left)
        if limit <= 0:
            raise PatternTimeout(f"{self.label}: no time left to run its pattern")
        try:
            return call(self._compiled_engine(), limit)
        except TimeoutError as err:
            raise PatternTimeout(
                f"{self.label}: its pattern {self.pattern!r} ran for more than {limit:.1f} s "
                "on one text (it backtracks without end, most likely); simplify it") from err

    def _compiled_engine(self) -> Any:
        if self._engine is None:
            import regex  # only when a user's pattern really runs

            self._engine = regex.compile(self.pattern, self.flags)
        return self._engine
