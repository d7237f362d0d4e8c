"""A lexer for the commands Claude's Bash tool runs: words, operators and redirections as
bash reads them (regexes missed `>&file`, `1<>file`, `$'…'` targets, a backslash-newline
inside a target, `${UNSET:-…/memory}`). It follows bash's grammar where it decides where a
command writes: quoting, line continuations, comments, here-documents (bodies skipped),
operators, descriptor numbers, and the expansions a target may hold (`~`, `$VAR`, `${VAR}`,
`${VAR:-word}` and the other defaults). A word holding a command substitution is inexact.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import NamedTuple

from prune_memory.claude.hooks.shellquotes import (
    GROUP_PLAIN,
    ansi_c,
    closing_backtick,
    closing_brace,
    closing_double,
    closing_single,
    is_fd_name,
)

OPERATORS = (";;&", "&>>", "<<<", "<<-", ";;", ";&", "||", "|&", "&&", "&>", ">>", ">|",
             ">&", "<>", "<<", "<&", ">", "<", "|", "&", ";", "(", ")", "\n")
REDIRECTS = frozenset({"&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<>", "<<", "<&", ">",
                       "<"})
_PLAIN = re.compile(r"[^\s'\"\\$`|&;()<>]+")
_IN_DOUBLE = re.compile(r'[^"\\$`]+')
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL = re.compile(r"[0-9@*#?$!-]")



class _Stop(Exception):
    """The lexer's step budget is spent."""


class Token(NamedTuple):
    kind: str  # "word", "op" or "io" (a descriptor number or {name} before a redirection)
    text: str  # the word after quote removal and expansion; the operator itself
    exact: bool = True  # False: a part of it cannot be known (a command substitution)


class _Word:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.exact = True
        self.started = False

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.started = True


def tokens(command: str) -> Iterator[Token]:
    """The tokens of `command`, here-document bodies left out."""
    yield from Lexer(command).run()


class Lexer:
    """`run` yields the tokens; with `limit`, it stops after that many tokens (what each
    costs to read; a long quoted word or a here-document body is one step), and
    `stopped_at` says where: what comes after was not read."""

    def __init__(self, text: str, limit: int | None = None) -> None:
        self.text = text
        self.at = 0
        self.limit = limit
        self.steps = 0
        self.stopped_at: int | None = None
        self.heredocs: list[tuple[str, bool]] = []  # (delimiter, strip leading tabs)

    def run(self) -> Iterator[Token]:
        try:
            yield from self._run()
        except _Stop:
            self.stopped_at = self.at

    def _step(self) -> None:
        self.steps += 1
        if self.limit is not None and self.steps > self.limit:
            raise _Stop

    def _run(self) -> Iterator[Token]:
        text = self.text
        word = _Word()
        expect_delimiter: str | None = None
        while self.at < len(text):
            self._step()
            char = text[self.at]
            if char in " \t":
                self.at += 1
                if word.started:
                    yield from self._end(word, expect_delimiter)
                    expect_delimiter, word = None, _Word()
                continue
            if char == "\\" and text.startswith("\\\n", self.at):
                self.at += 2  # a line continuation: nothing at all
                continue
            if char == "#" and not word.started:
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end
                continue
            if char in "<>" and text.startswith("(", self.at + 1):
                self._skip_group(self.at + 1)  # process substitution: a file of its own
                word.exact, word.started = False, True
                continue
            op = self._operator()
            if op is not None:
                if word.started:
                    digits = "".join(word.parts)
                    if op in REDIRECTS and word.exact and (digits.isdigit() or is_fd_name(digits)):
                        yield Token("io", digits)
                    else:
                        yield from self._end(word, expect_delimiter)
                    expect_delimiter, word = None, _Word()
                yield Token("op", op)
                if op in ("<<", "<<-"):
                    expect_delimiter = op
                if op == "\n":
                    self._skip_heredocs()
                continue
            self._word_part(word)
        if word.started:
            yield from self._end(word, expect_delimiter)

    def _end(self, word: _Word, delimiter_of: str | None) -> Iterator[Token]:
        value = "".join(word.parts)
        if delimiter_of is not None:
            self.heredocs.append((value, delimiter_of == "<<-"))
        yield Token("word", value, word.exact)

    def _operator(self) -> str | None:
        text, at = self.text, self.at
        if text[at] not in "|&;()<>\n":
            return None
        op = next(o for o in OPERATORS if text.startswith(o, at))
        self.at += len(op)
        return op

    def _word_part(self, word: _Word) -> None:
        text, at = self.text, self.at
        char = text[at]
        if char == "'":
            end = text.find("'", at + 1)
            end = len(text) if end < 0 else end
            word.add(text[at + 1:end])
            self.at = end + 1
        elif char == '"':
            self.at += 1
            word.add("")
            self._double_quoted(word)
        elif char == "\\":
            word.add(text[at + 1:at + 2])
            self.at += 2
        elif char == "$":
            self._dollar(word)
        elif char == "`":
            end = closing_backtick(text, at + 1)
            word.exact = False
            word.started = True
            self.at = end + 1
        elif char == "~" and not word.started:
            match = re.compile(r"~[A-Za-z0-9_.-]*").match(text, at)
            assert match is not None
            word.add(os.path.expanduser(match.group()))
            self.at = match.end()
        else:
            match = _PLAIN.match(text, at)
            if match is None:  # an unquoted `{` or `}` alone, say
                word.add(char)
                self.at += 1
            else:
                word.add(match.group())
                self.at = match.end()

    def _double_quoted(self, word: _Word) -> None:
        text = self.text
        while self.at < len(text):
            self._step()
            char = text[self.at]
            if char == '"':
                self.at += 1
                return
            if char == "\\":
                following = text[self.at + 1:self.at + 2]
                if following == "\n":
                    pass
                elif following in ('"', "\\", "$", "`"):
                    word.add(following)
                else:
                    word.add("\\" + following)
                self.at += 2
            elif char == "$":
                self._dollar(word, quoted=True)
            elif char == "`":
                self.at = closing_backtick(text, self.at + 1) + 1
                word.exact = False
            else:
                match = _IN_DOUBLE.match(text, self.at)
                assert match is not None
                word.add(match.group())
                self.at = match.end()

    def _dollar(self, word: _Word, quoted: bool = False) -> None:
        text, at = self.text, self.at
        nxt = text[at + 1:at + 2]
        if nxt == "'" and not quoted:
            end = closing_single(text, at + 2)
            word.add(ansi_c(text[at + 2:end]))
            self.at = end + 1
        elif nxt == '"' and not quoted:
            self.at += 2
            word.add("")
            self._double_quoted(word)
        elif nxt == "(":
            self.at = self._skip_group(at + 1)
            word.exact = False
            word.started = True
        elif nxt == "{":
            end = closing_brace(text, at + 2)
            value, exact = expand_parameter(text[at + 2:end])
            word.add(value)
            word.exact = word.exact and exact
            self.at = end + 1
        elif (match := _NAME.match(text, at + 1)) is not None:
            word.add(os.environ.get(match.group(), ""))
            self.at = match.end()
        elif _SPECIAL.match(nxt):
            word.exact = False  # $1, $?, $$: known only when it runs
            word.started = True
            self.at += 2
        else:
            word.add("$")
            self.at += 1

    def _skip_group(self, opening: int) -> int:
        """Past the `)` that closes the `(` at `opening` (quotes and nesting respected)."""
        depth, at, text = 0, opening, self.text
        while at < len(text):
            self._step()
            if depth and (plain := GROUP_PLAIN.match(text, at)) is not None:
                at = plain.end()
                continue
            char = text[at]
            if char == "\\":
                at += 2
                continue
            if char == "'":
                at = closing_single(text, at + 1) + 1
                continue
            if char == '"':
                at = closing_double(text, at + 1) + 1
                continue
            depth += {"(": 1, ")": -1}.get(char, 0)
            at += 1
            if depth == 0:
                break
        self.at = at
        return at

    def _skip_heredocs(self) -> None:
        """Past the bodies of the here-documents the line just ended opened."""
        text = self.text
        for delimiter, strip_tabs in self.heredocs:
            tabs = "\t*" if strip_tabs else ""
            end = re.compile(rf"^{tabs}{re.escape(delimiter)}$", re.MULTILINE).search(text,
                                                                                 self.at)
            self.at = len(text) if end is None else min(end.end() + 1, len(text))
        self.heredocs.clear()


def expand_parameter(inner: str) -> tuple[str, bool]:
    """`${inner}`: the variable, or its default or alternative word as bash picks it."""
    match = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-=+?])(.*))?", inner, re.DOTALL)
    if match is None:
        return "", False  # ${#x}, ${x%y}, ${!x}…: not worked out
    name, colon, kind, word = match.groups()
    value = os.environ.get(name)
    unset = value is None or (colon == ":" and value == "")
    if kind is None:
        return value or "", True
    alternative = _word_value(word)
    if kind in "-=":
        return (alternative if unset else (value or "")), True
    if kind == "+":
        return ("" if unset else alternative), True
    return value or "", not unset  # ${x:?message}: the shell stops when it is unset


def _word_value(word: str) -> str:
    """The value of a word inside `${…}` (quotes removed, expansions done)."""
    return "".join(t.text for t in tokens(word) if t.kind == "word")

