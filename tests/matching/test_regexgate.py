"""The regex gate may only ever say "cannot match" when the regex really cannot match."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prune_memory.analysis.poison import _INJECTIONS
from prune_memory.analysis.policy import default_policy
from prune_memory.matching.regexgate import any_of, may_match, required_literals
from prune_memory.secrets.vendor import VENDOR_PLUGINS
from tests.matching.regexgen import regex_patterns

# Letters that fold onto ASCII ones under IGNORECASE (long s, Kelvin sign, dotted/dotless i).
TRICKY = "ſKİıµé"
ALPHABET = "abkKsS- _\n." + TRICKY


def _atoms() -> st.SearchStrategy[str]:
    literal = st.text(alphabet="abkKsS-_ ." + TRICKY, min_size=1, max_size=4).map(re.escape)
    fixed = st.sampled_from([r"\b", r"\s+", r"\w", ".", "[ab]", "[^a]", "[kS]", "^", "$",
                             r"(?=a)", r"(?!b)", r"(?<=k)", r"\d*", "[a-z]{2}"])
    return st.one_of(literal, fixed)


def _patterns() -> st.SearchStrategy[str]:
    return regex_patterns(_atoms(), ("i", "-i"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.sampled_from([0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE]),
       st.text(alphabet=ALPHABET, max_size=30))
def test_a_closed_gate_means_no_match(pattern: str, flags: int, text: str) -> None:
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        return
    if not may_match(compiled, text):
        assert compiled.search(text) is None, (pattern, flags, text)


def test_literals_are_found_through_groups_classes_and_alternation() -> None:
    found = required_literals(re.compile(r"\b(?:this|next) session\b", re.IGNORECASE))
    assert found == {("this session", True), ("next session", True)}
    assert required_literals(re.compile(r"gh[pousr]_")) == {
        (f"gh{c}_", False) for c in "pousr"}
    assert required_literals(re.compile(r"a+b?c*")) is None  # nothing two characters long


def test_unicode_folding_keeps_the_regex_in_play() -> None:
    pattern = re.compile("kelvin", re.IGNORECASE)
    assert may_match(pattern, "\u212aelvin")  # KELVIN SIGN folds to k: the regex matches
    assert pattern.search("\u212aelvin")
    assert not may_match(pattern, "plain ascii text")
    long_s = re.compile("\u017fecret", re.IGNORECASE)  # matches "secret" as well
    assert required_literals(long_s) == {("ecret", True)}  # the long s gives no needle
    assert may_match(long_s, "a secret") and long_s.search("a secret")


def test_caseless_letters_are_needles_under_ignorecase() -> None:
    pattern = re.compile(r"\bplan\b|计划|待办", re.IGNORECASE)
    assert required_literals(pattern) == {("plan", True), ("计划", True), ("待办", True)}
    assert may_match(pattern, "下一步计划") and not may_match(pattern, "nothing here")
    assert required_literals(re.compile("é", re.IGNORECASE)) is None  # É is its other case


def test_the_shipped_patterns_are_gated() -> None:
    """The gate only saves time if the hygiene patterns yield literals; keep it that way."""
    patterns = [p for _, p in _INJECTIONS] + [r.pattern for r in default_policy().rules]
    gated = [p.pattern[:30] for p in patterns if required_literals(p) is not None]
    assert len(gated) == len(patterns)
    vendor = [row for row in VENDOR_PLUGINS if required_literals(re.compile(row.trigger))]
    assert len(vendor) >= 10


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab.-\\(", max_size=4), max_size=6),
       st.text(alphabet="ab.-\\(x", max_size=20))
def test_any_of_finds_exactly_the_texts_holding_a_needle(needles: list[str], text: str) -> None:
    pattern = any_of(needles)
    if not needles:
        assert pattern is None
    else:
        assert pattern is not None
        assert (pattern.search(text) is not None) == any(n in text for n in needles)
