"""Where quoted and bracketed runs of a shell command end, and what ANSI-C quotes hold:
the text-level pieces of the lexer in `shellwords`, each a regex run or a short scan."""

from __future__ import annotations

import re

_ANSI = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
         "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
_ANSI_CODE = re.compile(r"\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}"
                        r"|c.|.)", re.DOTALL)


def ansi_c(body: str) -> str:
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
GROUP_PLAIN = re.compile(r"[^()'\"\\]+")
_BRACE_PLAIN = re.compile(r"[^{}'\"\\]+")


def _closing(quote: str, text: str, start: int) -> int:
    """The unescaped `quote` that closes a quoted run starting at `start` (or the end)."""
    match = _UPTO[quote].match(text, start)
    return min(match.end() if match else start, len(text))


def closing_single(text: str, start: int) -> int:
    return _closing("'", text, start)


def closing_double(text: str, start: int) -> int:
    return _closing('"', text, start)


def closing_backtick(text: str, start: int) -> int:
    return _closing("`", text, start)


def closing_brace(text: str, start: int) -> int:
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
            at = closing_double(text, at + 1) + 1
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return at
        at += 1
    return len(text)


def is_fd_name(word: str) -> bool:
    """`{name}` before a redirection: bash puts the descriptor it opens in `name`."""
    return bool(re.fullmatch(r"\{[A-Za-z_][A-Za-z0-9_]*\}", word))
