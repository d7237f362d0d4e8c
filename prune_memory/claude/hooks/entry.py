"""Command-line edge of `hook gate` and `hook record-read`, kept free of typer and rich.

Claude Code starts one process per tool call, so these two commands skip the full CLI
(`prune_memory.cli.main` sends them here before it imports anything heavy). They read the
payload on stdin, print at most one JSON answer, log their problems, and always exit 0.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

if TYPE_CHECKING:
    import datetime as dt

FAST_COMMANDS = ("gate", "record-read")
# What a hook reads of its payload; the rest is drained unread. A memory is a few KB: a
# payload past this is judged by where it writes (`payload.sketch`), never parsed whole.
READ_BYTES = 4 * 1024 * 1024


class HookArgs(NamedTuple):
    mode: str | None
    memory_roots: tuple[str, ...]
    problems: tuple[str, ...]


def parse_args(argv: Sequence[str]) -> HookArgs:
    """`--mode X` and any number of `--memory-root DIR`; the rest is noted, never fatal."""
    mode: str | None = None
    roots: list[str] = []
    problems: list[str] = []
    args = iter(argv)
    for arg in args:
        name, has_value, value = arg.partition("=")
        if name in ("--mode", "--memory-root"):
            value = value if has_value else next(args, "")
            if name == "--mode":
                mode = value
            elif value:
                roots.append(value)
        else:
            problems.append(f"unknown argument {arg!r} ignored")
    return HookArgs(mode, tuple(roots), tuple(problems))


def run(command: str, argv: Sequence[str]) -> int:
    """Run hook `command` ("gate" or "record-read") on stdin; the exit code is always 0."""
    raw, size = read_capped(sys.stdin.buffer, READ_BYTES if command == "gate" else None)
    args = parse_args(argv)
    try:
        problems = args.problems + (_gate(raw, args, size) if command == "gate"
                                    else _record(raw, args))
    except Exception:  # the hook never breaks the tool call; the log keeps the trace
        import traceback

        problems = (*args.problems, "internal error, allowed:\n" + traceback.format_exc())
    if problems:
        from prune_memory.claude.hooks.gatelog import log_problem

        for problem in problems:
            log_problem(command, problem, _now(), raw)
    return 0


def _gate(raw: bytes, args: HookArgs, size: int) -> tuple[str, ...]:
    from prune_memory.claude.hooks.gate import answer, decide, resolve_mode

    mode, problems = resolve_mode(args.mode, os.environ)
    verdict = decide(raw, mode, args.memory_roots, size=size)
    text = answer(verdict)
    if text is not None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    return problems + verdict.problems


def read_capped(stream: BinaryIO, limit: int | None) -> tuple[bytes, int]:
    """The first `limit` bytes of `stream` (all, for None), and its whole size (the rest
    is read and dropped, so the writer never meets a closed pipe)."""
    head = stream.read() if limit is None else stream.read(limit)
    size = len(head)
    while chunk := stream.read(1 << 20):
        size += len(chunk)
    return head, size


def _record(raw: bytes, args: HookArgs) -> tuple[str, ...]:
    from prune_memory.claude.hooks.readhook import record_read

    return record_read(raw, _now(), args.memory_roots).problems


def _now() -> dt.datetime:
    import datetime  # only record-read and the problem log need the clock

    return datetime.datetime.now(datetime.UTC)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry for `prune-memory hook <command> …` with `argv` = [command, options…]."""
    argv = list(sys.argv[2:] if argv is None else argv)
    return run(argv[0], argv[1:]) if argv and argv[0] in FAST_COMMANDS else 0
