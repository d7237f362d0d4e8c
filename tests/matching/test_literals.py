"""The literals and the line answer read from a pattern's source: what cannot be read means
"cannot tell", and a pattern said to keep to one line finds the same matches line by line."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prune_memory.matching.literals import crosses_lines, required_literals
from tests.matching.regexgen import regex_patterns


@dataclass(frozen=True)
class _Source:
    pattern: str
    flags: int


@pytest.mark.parametrize(("pattern", "flags"), [
    ("(a", 0), ("a)", 0), ("*a", 0), ("a**", 0), (r"\q", 0), ("abc", re.LOCALE),
    ("(a)?(?(1)bc|de)", 0),
])
def test_what_cannot_be_read_is_cannot_tell(pattern: str, flags: int) -> None:
    source = _Source(pattern, flags)  # not a LazyPattern: the shipped-pattern scan skips it
    assert required_literals(source) is None
    assert crosses_lines(source)


def test_bytes_are_cannot_tell() -> None:
    assert required_literals(re.compile(b"token")) is None
    assert crosses_lines(re.compile(b"token"))


def test_an_alternation_gives_each_whole_word() -> None:
    assert required_literals(re.compile(r"\b(?:AKIA|ASIA|A3T[A-Z])")) == {
        ("AKIA", False), ("ASIA", False), ("A3T", False)}


def _atoms() -> st.SearchStrategy[str]:
    literal = st.text(alphabet="ab -_.\n\t", min_size=1, max_size=3).map(re.escape)
    fixed = st.sampled_from([r"\b", r"\B", r"\s", r"\S+", r"\w", r"\W", r"\d", r"\D", ".",
                             "[ab]", "[^a]", r"[^\s]", r"[^\n]", r"[\x00-\x20]", "^", "$",
                             r"\A", r"\Z", r"(?=a)", r"(?!\n)", r"(?<=b)", r"(?<!\s)",
                             "[a-z]{2}", r"(?>a|ab)", "a++", r"(?x: a \n)", "(?m:$)"])
    return st.one_of(literal, fixed)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(regex_patterns(_atoms(), ("s", "m")), st.sampled_from([0, re.MULTILINE, re.DOTALL]),
       st.text(alphabet="ab -_.\n\t", max_size=30))
def test_a_pattern_said_to_keep_to_one_line_finds_the_same_line_by_line(
        pattern: str, flags: int, text: str) -> None:
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        return
    if crosses_lines(compiled):
        return
    whole = [m.span() for m in compiled.finditer(text) if m.end() > m.start()]
    by_line, start = [], 0
    for line in text.split("\n"):
        end = start + len(line)
        by_line += [m.span() for m in compiled.finditer(text, start, end) if m.end() > m.start()]
        start = end + 1
    assert whole == by_line, (pattern, flags, text)
