"""Where a shell command writes: the targets of `>`/`>>` redirections and of `tee`.

This is a reading of the command text, not a shell parser. It errs towards finding too many
targets (a `>` inside a quoted string counts), because a false target only costs one check;
writes by `cp`, `mv`, `sed -i` or a script are not seen at all (references/hooks.md).
"""

from __future__ import annotations

import os
import re

# One shell word: quoted pieces and unquoted characters, glued together ("$HOME"/notes.md).
_WORD = r"""(?:"(?:[^"\\]|\\.)*"|'[^']*'|\\.|[^\s;&|<>()'"\\])+"""
# `>`, `>>`, `>|`, `&>`, `&>>`, `2>`; not `>&2` (a descriptor), `>(…)`, `->`, `=>` or `<>`.
_REDIRECT = re.compile(rf"(?<![<>=\-])(?:&|\d*)>>?\|?(?!&|\()[ \t]*(?P<target>{_WORD})")
_TEE = re.compile(rf"(?<![\w.-])tee(?P<args>(?:[ \t]+{_WORD})+)")
_WORDS = re.compile(_WORD)
_QUOTED = re.compile(r""""((?:[^"\\]|\\.)*)"|'([^']*)'|\\(.)""", re.DOTALL)


def write_targets(command: str, cwd: str | None) -> tuple[str, ...]:
    """Absolute paths `command` redirects or tees into, in order of appearance, without repeats."""
    words = [match.group("target") for match in _REDIRECT.finditer(command)]
    for match in _TEE.finditer(command):
        words.extend(word for word in _WORDS.findall(match.group("args"))
                     if not word.startswith("-"))
    seen: dict[str, None] = {}
    for word in words:
        path = _to_path(word, cwd)
        if path:
            seen.setdefault(path, None)
    return tuple(seen)


def _to_path(word: str, cwd: str | None) -> str | None:
    text = _unquote(word)
    if not text or text.startswith("/dev/"):
        return None
    text = os.path.expandvars(os.path.expanduser(text))
    if not os.path.isabs(text):
        if not cwd:
            return None
        text = os.path.join(cwd, text)
    return os.path.normpath(text)


def _unquote(word: str) -> str:
    return _QUOTED.sub(lambda m: next(g for g in m.groups() if g is not None), word)
