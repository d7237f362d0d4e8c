"""Labelled patterns for the secrets vendor plugins miss in markdown prose.

Each pattern names the group holding the value (or the whole match) and a check that the
value is a credential rather than a stand-in for one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from prune_memory.matching.literals import crosses_lines
from prune_memory.matching.regexgate import (
    LazyPattern,
    Needles,
    folds_unseen,
    lines_at,
    lowered,
)
from prune_memory.secrets import values
from prune_memory.secrets.base import ASSIGNMENT, STRUCTURE, VENDOR_FORMAT, Screen, SecretSpan


class LabelledPattern(NamedTuple):
    label: str
    regex: LazyPattern
    confidence: int
    accept: Callable[[str], bool]
    trim: bool = False  # strip sentence punctuation from the end of the value
    # Lowercase substrings one of which every match contains: a cheap test that lets
    # ordinary text skip the regex (empty: always run it).
    needles: tuple[str, ...] = ()


def _always(_: str) -> bool:
    return True


_MARK = r"[*_`\"']*"  # markdown emphasis, code ticks or quotes around a name or a value
_SEP = rf"{_MARK}[ \t]*(?::=|=>|[:=]){_MARK}[ \t]*{_MARK}"
_VALUE = r"(?P<value>[^\s`'\"*&]+)"  # `&` ends a value inside a URL query
# A bare `pass` right after a lower-case word is the verb ("three tests pass: `x`").
_PASSWORD_NAME = r"(?:pass(?:word|wd|phrase)|pwd|(?-i:(?<![a-z] ))pass)"
_PROSE_NAME = r"(?:pass(?:word|wd|phrase)|pwd)"
_TOKEN_NAME = (r"(?:token|secret|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key"
               r"|client[_-]?secret|auth[_-]?token)")
_NAME_PREFIX = r"(?:[A-Za-z][\w-]*[ _-])?"  # "db ", "github_", "DEPLOY-"
_ENV_NAME = (r"(?=[A-Z])[A-Z0-9_]*?(?:SECRET|SECRET_?KEY|PASSWORD|PASSWD|PWD|TOKEN|API_?KEY"
             r"|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)")


def _assignment(name: str) -> LazyPattern:
    return LazyPattern(rf"(?<![\w.-]){_MARK}{_NAME_PREFIX}{name}(?![\w-]){_SEP}{_VALUE}",
                      re.IGNORECASE)


PATTERNS: tuple[LabelledPattern, ...] = (
    LabelledPattern(
        "private-key",
        LazyPattern(r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
                   r"(?P<value>[\s\S]*?)(?=-----END [A-Z0-9 ]*-----|\Z)"),
        STRUCTURE, values.is_key_body,
        needles=("private key",)),
    LabelledPattern(
        "github-token",
        LazyPattern(r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255})"
                   r"(?![\w-])"),
        VENDOR_FORMAT, _always,
        needles=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    LabelledPattern(
        "slack-token",
        LazyPattern(r"(?<![\w-])(?:xox[abposre]-(?:[A-Za-z0-9]+-)+[A-Za-z0-9]+"
                   r"|xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]+)(?![\w-])"),
        VENDOR_FORMAT, values.has_digit,
        needles=("xox", "xapp-")),
    LabelledPattern(
        "aws-access-key",
        LazyPattern(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"
                   r"(?![A-Za-z0-9])"),
        VENDOR_FORMAT, _always,
        needles=("akia", "asia", "abia", "acca", "a3t")),
    LabelledPattern(
        "google-api-key",
        LazyPattern(r"(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])"),
        VENDOR_FORMAT, _always,
        needles=("aiza",)),
    LabelledPattern(
        "anthropic-key",
        LazyPattern(r"(?<![\w-])sk-ant-[a-z0-9]{2,8}-[A-Za-z0-9_-]{20,}(?![\w-])"),
        VENDOR_FORMAT, values.is_random_after_prefix,
        needles=("sk-ant-",)),
    LabelledPattern(
        "openai-key",
        LazyPattern(r"(?<![\w-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}(?![\w-])"),
        VENDOR_FORMAT, values.is_random_after_prefix,
        needles=("sk-",)),
    LabelledPattern(
        "jwt",
        LazyPattern(r"(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}"
                   r"(?![\w-])"),
        STRUCTURE, values.is_jwt,
        needles=("eyj",)),
    LabelledPattern(
        "connection-string",
        LazyPattern(r"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@'\"`<>]+:"
                   r"(?P<value>[^\s@/'\"`<>]+)@[^\s/'\"`<>]+"),
        STRUCTURE, values.is_url_password,
        needles=("://",)),
    LabelledPattern(
        "bearer-token",
        LazyPattern(r"(?<![\w-])Bearer[ \t]+(?P<value>[A-Za-z0-9._~+/-]{20,}=*)"),
        ASSIGNMENT, values.is_credential_value,
        needles=("bearer",)),
    LabelledPattern(
        "env-secret",
        LazyPattern(rf"(?<![\w-])(?:export[ \t]+)?{_ENV_NAME}[ \t]*=[ \t]*[\"']?{_VALUE}"),
        ASSIGNMENT, values.is_literal_credential, trim=True,
        needles=("secret", "pass", "pwd", "token", "key", "credential", "auth")),
    LabelledPattern("password", _assignment(_PASSWORD_NAME), ASSIGNMENT,
                    values.is_credential_value, trim=True, needles=("pass", "pwd")),
    LabelledPattern(
        "password",
        LazyPattern(rf"(?<![\w.-]){_MARK}{_NAME_PREFIX}{_PASSWORD_NAME}(?![\w-])[*_]*[ \t]*"
                   r"(?:[:=]|\bis\b)[ \t]*(?P<q>[`'\"])(?P<value>[^\s`'\"]{3,64})(?P=q)",
                   re.IGNORECASE),
        ASSIGNMENT, values.is_quoted_password, needles=("pass", "pwd")),
    LabelledPattern(  # "the staging password is hunter2horse", "…password for prod was X"
        "password",
        LazyPattern(rf"(?<![\w.-]){_PROSE_NAME}(?:[ \t]+(?:for|of|on)[ \t]+[\w.-]+)?[ \t]+"
                   rf"(?:is|was|=)[ \t]+(?:now[ \t]+)?{_VALUE}", re.IGNORECASE),
        ASSIGNMENT, values.is_credential_value, trim=True, needles=("pass", "pwd")),
    LabelledPattern("token-assignment", _assignment(_TOKEN_NAME), ASSIGNMENT,
                    values.is_credential_value, trim=True, needles=("token", "secret", "key")),
)


class PatternDetector:
    """The labelled patterns above, run over the whole text."""

    name = "patterns"

    def __init__(self, patterns: tuple[LabelledPattern, ...] = PATTERNS) -> None:
        self.patterns = patterns
        self._needles = Needles(n for pattern in patterns for n in pattern.needles)

    def screen(self) -> Screen | None:
        if not all(pattern.needles for pattern in self.patterns):
            return None
        return Screen(tuple(sorted({n for pattern in self.patterns for n in pattern.needles})))

    def spans(self, text: str) -> Iterator[SecretSpan]:
        lower = lowered(text)
        where = self._needles.where(lower)
        # "paſsword" matches a pattern whose needle ("pass") its lower-cased form lacks
        screened = not folds_unseen(text)
        for pattern in self.patterns:
            if screened and pattern.needles and where.keys().isdisjoint(pattern.needles):
                continue
            for match in _matches(pattern, text, lower, where if screened else None):
                span = _value_span(match, pattern.trim)
                if span is None:
                    continue
                start, end = span
                if pattern.accept(text[start:end]):
                    yield SecretSpan(pattern.label, start, end, pattern.confidence)


def _matches(pattern: LabelledPattern, text: str, lower: str,
             where: dict[str, list[int]] | None) -> Iterator[re.Match[str]]:
    """Every match, searching only the lines with a needle when no match spans lines
    (`where`: each needle's offsets; None searches the whole text)."""
    if where is None or not pattern.needles or crosses_lines(pattern.regex) \
            or len(lower) != len(text):
        yield from pattern.regex.finditer(text)
        return
    found = sorted({at for needle in pattern.needles for at in where.get(needle, ())})
    for start, end in lines_at(text, found):
        yield from pattern.regex.finditer(text, start, end)


def _value_span(match: re.Match[str], trim: bool) -> tuple[int, int] | None:
    """Offsets of the value inside the match, surrounding whitespace and punctuation dropped."""
    group = "value" if "value" in match.re.groupindex else 0
    start, end = match.span(group)
    raw = match.string[start:end]
    kept = raw.strip()
    if trim:
        kept = values.trim_trailing(kept)
    if not kept:
        return None
    start += len(raw) - len(raw.lstrip())
    return start, start + len(kept)
