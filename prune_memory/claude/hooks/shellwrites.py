"""Where a shell command writes: the targets of its redirections and of `tee`.

The command is read with a lexer that follows bash's grammar (`shellwords`), so quoting,
line continuations, here-documents and the defaults of `${…}` come out as bash sees them.
It errs towards finding too many targets (a false target only costs one check); writes by
`cp`, `mv`, `sed -i` or a script are not seen at all (references/hooks.md).
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from prune_memory.claude.hooks.shellwords import REDIRECTS, Lexer, Token

# Redirections that open their word for writing; `>&word` too, unless the word is a
# descriptor (`>&2`) or `-`, and `<>` (read-write). `<`, `<<`, `<<<` and `<&` only read.
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
# Words that run the command after them (`sudo tee …`).
_RUNNERS = frozenset({"sudo", "command", "env", "nohup", "time", "exec", "nice", "doas"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")


# How much of a command the gate reads, in lexer steps (about one per word, quote or
# operator): a command that writes memory is a line or two, and the gate must answer
# within its second.
READ_STEPS = 50_000


class ShellWrites(NamedTuple):
    targets: tuple[str, ...]
    unread: str = ""  # the end of a command too long to read whole ("" when read whole)


def write_targets(command: str, cwd: str | None) -> tuple[str, ...]:
    """Absolute paths `command` redirects or tees into, in order of appearance, without repeats."""
    return read_writes(command, cwd, limit=None).targets


def read_writes(command: str, cwd: str | None, limit: int | None = READ_STEPS) -> ShellWrites:
    """`write_targets` of the first `limit` lexer steps, and what was left unread."""
    lexer = Lexer(command, limit)
    seen: dict[str, None] = {}
    for word in _target_words(list(lexer.run())):
        path = _to_path(word, cwd)
        if path:
            seen.setdefault(path, None)
    unread = command[lexer.stopped_at:] if lexer.stopped_at is not None else ""
    return ShellWrites(tuple(seen), unread)


def _target_words(found: list[Token]) -> list[str]:
    targets: list[str] = []
    starting, tee = True, False
    at = 0
    while at < len(found):
        token = found[at]
        if token.kind == "op" and token.text in REDIRECTS:
            following = found[at + 1] if at + 1 < len(found) else None
            if following is not None and following.kind == "word" and token.text in _WRITES \
                    and not (token.text == ">&" and (following.text.isdigit()
                                                     or following.text == "-")):
                targets.append(following.text)
            at += 2
            continue
        if token.kind == "op":
            starting, tee = True, False
        elif token.kind == "word" and starting:
            name = os.path.basename(token.text)
            if not _ASSIGNMENT.match(token.text) and name not in _RUNNERS:
                starting, tee = False, name == "tee"
        elif token.kind == "word" and tee and not token.text.startswith("-"):
            targets.append(token.text)
        at += 1
    return targets


def _to_path(text: str, cwd: str | None) -> str | None:
    if not text or text.startswith("/dev/"):
        return None
    if not os.path.isabs(text):
        if not cwd:
            return None
        text = os.path.join(cwd, text)
    return os.path.normpath(text)
