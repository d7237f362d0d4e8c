"""The literals and the line answer come from `re`'s own parser: every pattern the package
ships is read whole, what cannot be read means "cannot tell", and a pattern said to keep to
one line finds the same matches line by line."""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import prune_memory.analysis.hygiene
import prune_memory.secrets.scan  # noqa: F401
from prune_memory.analysis.policy import default_policy
from prune_memory.matching import literals
from prune_memory.matching.literals import crosses_lines, required_literals
from prune_memory.matching.regexgate import LazyPattern
from prune_memory.secrets.gitleaks import rules
from tests.matching.regexgen import regex_patterns

# Every node kind literals.py names; a shipped pattern using any other would run ungated.
KNOWN = {"LITERAL", "NOT_LITERAL", "ANY", "IN", "AT", "BRANCH", "SUBPATTERN", "ATOMIC_GROUP",
         "MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT", "ASSERT", "ASSERT_NOT", "GROUPREF"}


def _kinds(items: Any) -> Iterator[str]:
    for op, value in items:
        yield op.name
        if op.name == "BRANCH":
            for alternative in value[1]:
                yield from _kinds(alternative)
        elif op.name == "SUBPATTERN":
            yield from _kinds(value[3])
        elif op.name == "ATOMIC_GROUP":
            yield from _kinds(value)
        elif op.name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            yield from _kinds(value[2])
        elif op.name in ("ASSERT", "ASSERT_NOT"):
            yield from _kinds(value[1])


def _shipped() -> set[tuple[str, int]]:
    patterns = {(p.pattern, p.flags) for p in gc.get_objects() if isinstance(p, LazyPattern)}
    patterns |= {(r.pattern.pattern, r.pattern.flags) for r in default_policy().rules}
    return patterns | {(r.regex.pattern, r.regex.flags) for r in rules()}


def test_every_pattern_of_the_package_is_read_whole() -> None:
    patterns = _shipped()
    assert len(patterns) > 100
    for source, flags in patterns:
        assert set(_kinds(literals._PARSER.parse(source, flags))) <= KNOWN, source


@pytest.mark.parametrize(("pattern", "flags"), [
    ("(a", 0), ("a)", 0), ("*a", 0), ("a**", 0), (r"\q", 0), ("abc", re.LOCALE),
    ("(a)?(?(1)bc|de)", 0),
])
def test_what_cannot_be_read_is_cannot_tell(pattern: str, flags: int) -> None:
    source = LazyPattern(pattern, flags)
    assert required_literals(source) is None
    assert crosses_lines(source)


def test_bytes_and_a_missing_parser_are_cannot_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    assert required_literals(re.compile(b"token")) is None
    assert crosses_lines(re.compile(b"token"))
    monkeypatch.setattr(literals, "_PARSER", None)
    literals._facts.cache_clear()
    try:
        assert required_literals(re.compile("token")) is None
        assert crosses_lines(re.compile("token"))
    finally:
        literals._facts.cache_clear()


def test_a_node_the_gates_do_not_know_crosses_lines() -> None:
    assert literals._node_crosses("SOMETHING_NEW", None, 0)
    assert literals._part("SOMETHING_NEW", None, False) is None


def test_verbose_patterns_and_back_references_are_read() -> None:
    assert required_literals(re.compile(r"(?x) to ken \s+ x")) == {("token", False)}
    assert not crosses_lines(re.compile(r"(?P<q>['\"])secret(?P=q)"))
    assert required_literals(re.compile(r"(?P<q>['\"])secret(?P=q)")) == {
        ("'secret", False), ('"secret', False)}


def test_an_alternation_keeps_the_prefix_the_parser_moved_out() -> None:
    # re's parser reads AKIA|ASIA as A(?:KIA|SIA): the needles are still the whole words
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
