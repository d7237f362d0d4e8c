"""The code names a memory gives: what in its code spans, commands and fenced blocks reads
as a function, class, constant or key (`identifiers.py` checks them against the code)."""

from __future__ import annotations

import re

_CODE = re.compile(r"`([^`\n]{2,120})`")
_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FENCED = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*\n(.*?)^[ \t]*(?:```|~~~)", re.MULTILINE | re.DOTALL)
_DECLARED = re.compile(r"(?:export\s+)?(?:const|let|var|def|class|function|fn|func|type|"
                       r"interface|enum|struct|trait|val)\s+([A-Za-z_][A-Za-z0-9_]{2,})\b")
MIN_LENGTH = 4


def names_in(text: str) -> list[str]:
    """The code names in `text`'s code spans that say one thing: snake_case, camelCase,
    PascalCase with two humps, SCREAMING_CASE, or a call (`run()`); in commands and fenced
    blocks, the first two only. Paths, file names and plain words are others' or nobody's."""
    out: dict[str, None] = {}
    for span in _CODE.findall(text):
        span = span.strip()
        if declared := _DECLARED.match(span):
            out[declared.group(1)] = None  # `const FIRST = 0` names FIRST, however short
            continue
        if " " in span.strip("()"):
            _shaped_names(span, out)  # a command or a statement: only names shaped as code
            continue
        if "/" in span or _looks_like_file(span):
            continue
        called = span.endswith(")")
        for part in _PART.findall(span.split("(", 1)[0]):
            if _distinctive(part, called=called and span.split("(", 1)[0].endswith(part)):
                out[part] = None
    for block in _FENCED.findall(text):  # a fenced block's lines, as commands
        _shaped_names(block, out)
    return list(out)


def _shaped_names(code: str, out: dict[str, None]) -> None:
    """Names in code or a command shaped as no prose word is (snake_case, camelCase)."""
    for piece in code.split():
        if "/" in piece or "\\" in piece or _looks_like_file(piece):
            continue
        for part in _PART.findall(piece):
            if _distinctive(part, called=False):
                out.setdefault(part, None)


def _looks_like_file(span: str) -> bool:
    return re.fullmatch(r"[\w.-]+\.[A-Za-z][A-Za-z0-9]{0,5}", span) is not None \
        and not re.search(r"[a-z][A-Z]|\w\.\w+\(", span)


def _distinctive(word: str, *, called: bool) -> bool:
    if len(word) < MIN_LENGTH or word.isdigit():
        return False
    inner = word.strip("_")
    if "_" in inner and any(c.isalpha() for c in inner):
        return True  # snake_case or SCREAMING_CASE
    if re.search(r"[a-z][A-Z]", word):
        return True  # camelCase, PascalCase with two humps
    return called and word[0].isalpha()
