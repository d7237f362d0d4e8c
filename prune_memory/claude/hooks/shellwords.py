"""A lexer for the shell commands Claude's Bash tool runs: words, operators and redirections
as bash reads them.

Regexes over the command text missed what bash itself sees: `>&file` and `1<>file` (writes),
a target in ANSI-C quotes (`$'…/memory/a.md'`), one split by a backslash-newline, one that
comes out of `${UNSET:-…/memory}`. This follows bash's grammar for the parts that decide
where a command writes: quoting (`'…'`, `"…"`, `$'…'`, `\\`), line continuations, comments,
here-documents (their bodies are skipped), operators, descriptor numbers before a
redirection, and the expansions a target may hold (`~`, `$VAR`, `${VAR}`, `${VAR:-word}`
and the other defaults). A command substitution cannot be known without running it: a word
holding one is marked inexact.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import NamedTuple

OPERATORS = (";;&", "&>>", "<<<", "<<-", ";;", ";&", "||", "|&", "&&", "&>", ">>", ">|",
             ">&", "<>", "<<", "<&", ">", "<", "|", "&", ";", "(", ")", "\n")
REDIRECTS = frozenset({"&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<>", "<<", "<&", ">",
                       "<"})
_PLAIN = re.compile(r"[^\s'\"\\$`|&;()<>]+")
_IN_DOUBLE = re.compile(r'[^"\\$`]+')
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL = re.compile(r"[0-9@*#?$!-]")
_ANSI = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
         "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
_ANSI_CODE = re.compile(r"\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}"
                        r"|c.|.)", re.DOTALL)


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
                    if op in REDIRECTS and word.exact and (digits.isdigit() or _braced(digits)):
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
            end = _closing_backtick(text, at + 1)
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
                self.at = _closing_backtick(text, self.at + 1) + 1
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
            end = _closing_single(text, at + 2)
            word.add(_ansi_c(text[at + 2:end]))
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
            end = _closing_brace(text, at + 2)
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
            if depth and (plain := _GROUP_PLAIN.match(text, at)) is not None:
                at = plain.end()
                continue
            char = text[at]
            if char == "\\":
                at += 2
                continue
            if char == "'":
                at = _closing_single(text, at + 1) + 1
                continue
            if char == '"':
                at = _closing_double(text, at + 1) + 1
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


def _braced(word: str) -> bool:
    return bool(re.fullmatch(r"\{[A-Za-z_][A-Za-z0-9_]*\}", word))


def _ansi_c(body: str) -> str:
    def decode(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "xuU":
            return chr(min(int(code[1:], 16), 0x10FFFF))
        if code[0] in "01234567":
            return chr(int(code, 8) & 0xFF)
        if code[0] == "c":
            return chr(ord(code[1].upper()) ^ 0x40) if len(code) > 1 else ""
        return _ANSI.get(code, "\\" + code)
    return _ANSI_CODE.sub(decode, body)


_UPTO = {quote: re.compile(rf"[^{quote}\\]*(?:\\.[^{quote}\\]*)*", re.DOTALL)
         for quote in "'\"`"}
_GROUP_PLAIN = re.compile(r"[^()'\"\\]+")
_BRACE_PLAIN = re.compile(r"[^{}'\"\\]+")


def _closing(quote: str, text: str, start: int) -> int:
    """The unescaped `quote` that closes a quoted run starting at `start` (or the end)."""
    match = _UPTO[quote].match(text, start)
    return min(match.end() if match else start, len(text))


def _closing_single(text: str, start: int) -> int:
    return _closing("'", text, start)


def _closing_double(text: str, start: int) -> int:
    return _closing('"', text, start)


def _closing_backtick(text: str, start: int) -> int:
    return _closing("`", text, start)


def _closing_brace(text: str, start: int) -> int:
    depth, at = 1, start
    while at < len(text):
        if (plain := _BRACE_PLAIN.match(text, at)) is not None:
            at = plain.end()
            continue
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == "'":
            at = text.find("'", at + 1) % (len(text) + 1) + 1
            continue
        if char == '"':
            at = _closing_double(text, at + 1) + 1
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return at
        at += 1
    return len(text)
