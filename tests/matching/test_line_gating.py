"""Searching only the lines that hold a needle finds exactly what a full search finds."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.analysis.poison import _INJECTIONS, InjectionHit, find_injection
from prune_memory.analysis.policy import default_policy, match_filters
from prune_memory.matching.literals import crosses_lines
from prune_memory.matching.regexgate import needle_lines
from prune_memory.secrets.patterns import PATTERNS, PatternDetector

WORDS = ["token", "Secret", "api_key", "password", ":", "=", " ", "\n", "\t", "`", "ghp_",
         "ignore", "previous", "instructions", "you", "must", "always", "currently",
         "working", "I", "think", "abcDEF123456789xyzQRS", "hunter2hunter2", "Bearer",
         "postgres://u:p4ssw0rd@db/x", "—", "é", "DB_PASSWORD", "export", "tried", "failed",
         "didn't", "work", "Traceback (most recent call last)", "&&", "npm", "install",
         "left@1.2.3", "the user", "seemed", "frustrated", "ſ"]
texts = st.lists(st.sampled_from(WORDS), max_size=60).map("".join)


@pytest.mark.parametrize(("pattern", "crosses"), [
    (r"\s+x", True), (r"a.b", False), (r"(?s)a.b", True), (r"a$", True), (r"(?m)^a$", False),
    (r"^a", False), (r"a\Z", True), (r"[^a]", True), (r"[^\s]+", False), (r"\W", True),
    (r"(?<![\w-])key(?![\w-])", False), (r"(?<!\s)x", True), (r"[\x00-\x20]", True),
])
def test_crosses_lines(pattern: str, crosses: bool) -> None:
    assert crosses_lines(re.compile(pattern)) is crosses


@settings(max_examples=300, deadline=None)
@given(texts)
def test_secret_patterns_find_the_same_spans(text: str) -> None:
    gated = list(PatternDetector().spans(text))
    full = list(PatternDetector(tuple(p._replace(needles=()) for p in PATTERNS)).spans(text))
    assert gated == full


def _injections_by_line(text: str) -> tuple[InjectionHit, ...]:
    hits = []
    for number, line in enumerate(text.splitlines(), start=1):
        for kind, pattern in _INJECTIONS:
            if match := pattern.search(line):
                hits.append(InjectionHit(kind, number, " ".join(match.group(0).split())[:80]))
    return tuple(hits)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_injections_match_a_search_line_by_line(text: str) -> None:
    assert find_injection(text) == _injections_by_line(text)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_filters_match_a_full_search_and_the_gate_a_line_search(text: str) -> None:
    policy = default_policy()
    full = [(h.rule, h.line) for h in match_filters(text, policy)]
    want = []
    for rule in policy.rules:
        if match := rule.pattern.search(text):
            want.append((rule.id, text.count("\n", 0, match.start()) + 1))
    assert full == want
    per_line = []
    for rule in policy.rules:
        lines = text.split("\n")
        hit = next((n for n, line in enumerate(lines, start=1) if rule.pattern.search(line)),
                   None)
        if hit is not None:
            per_line.append((rule.id, hit))
    assert [(h.rule, h.line) for h in match_filters(text, policy, within_lines=True)] == per_line


def test_needle_lines_refuses_what_it_cannot_promise() -> None:
    assert needle_lines(re.compile(r"token\s+x"), "token\nx") is None
    assert needle_lines(re.compile(r"(?i)key"), "a\nKEY here\nb") == [(2, 10)]
    assert needle_lines(re.compile(r"(?i)key"), "\u212aey") is None  # Kelvin sign folds to k
