"""Faults the tests inject: a kill at an exact file operation, a record of the file
operations in order, and an alarm that turns a hang into a failure."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from prune_memory.store import atomic


class Killed(BaseException):
    """Stands in for SIGKILL at an exact point: nothing after it runs."""


def _around_file_ops(patch: pytest.MonkeyPatch, before: Callable[[str, str], None]) -> None:
    """Call `before(verb, name)` ahead of every write, rewrite and removal of a file."""
    write, rewrite, remove = atomic.atomic_write, atomic.rewrite, atomic.remove_file
    patch.setattr(atomic, "atomic_write", lambda p, d: (before("write", p.name), write(p, d))[1])
    patch.setattr(atomic, "rewrite", lambda p, c: (before("write", p.name), rewrite(p, c))[1])
    patch.setattr(atomic, "remove_file", lambda p: (before("remove", p.name), remove(p))[1])


def die_after(patch: pytest.MonkeyPatch, budget: int) -> None:
    """Let `budget` file operations through, then 'kill' the process at the next one."""
    calls = {"n": 0}

    def gate(_verb: str, _name: str) -> None:
        calls["n"] += 1
        if calls["n"] > budget:
            raise Killed

    _around_file_ops(patch, gate)


def survives(work: Callable[[], object], budget: int, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Run `work`, killed at file operation `budget`; True when it finished first."""
    with monkeypatch.context() as patch:
        die_after(patch, budget)
        try:
            work()
        except Killed:
            return False
    return True


def record_file_ops(patch: pytest.MonkeyPatch, order: list[str]) -> None:
    """Append `write <name>` or `remove <name>` to `order` for every file operation."""
    _around_file_ops(patch, lambda verb, name: order.append(f"{verb} {name}"))


@contextmanager
def no_hang(seconds: int) -> Iterator[None]:
    """Fail instead of waiting forever: the alarm interrupts a blocking open, read or match."""
    def expire(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
