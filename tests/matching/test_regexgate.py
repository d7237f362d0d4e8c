"""The regex gate may only ever say "cannot match" when the regex really cannot match."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prune_memory.analysis.poison import _INJECTIONS
from prune_memory.analysis.policy import default_policy
from prune_memory.matching.literals import required_literals
from prune_memory.matching.regexgate import ASCII_LOOKALIKES, FEW, Needles, may_match
from prune_memory.secrets.vendor import VENDOR_PLUGINS
from tests.matching.regexgen import regex_patterns

# Letters that fold onto ASCII ones under IGNORECASE (long s, Kelvin sign, dotted/dotless i).
TRICKY = "\u017f\u212a\u0130\u0131\u00b5\u00e9"  # ſ K İ ı µ é
ALPHABET = "abkKsS- _\n." + TRICKY
LOOKALIKE_SWAPS = str.maketrans("\u017f\u212a\u0130\u0131skSK", "skIi\u017f\u212a\u017f\u212a")
FLAGS = [0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE, re.IGNORECASE | re.ASCII,
         re.VERBOSE, re.DOTALL]


def _atoms() -> st.SearchStrategy[str]:
    literal = st.text(alphabet="abkKsS-_ ." + TRICKY, min_size=1, max_size=4).map(re.escape)
    fixed = st.sampled_from([r"\b", r"\s+", r"\w", ".", "[ab]", "[^a]", "[kS]", "^", "$",
                             r"(?=a)", r"(?!b)", r"(?<=k)", r"\d*", "[a-z]{2}", "(?>ab|a)",
                             "s++", r"(?P<g>k)(?P=g)", r"(?:(k)|s)(?(1)ab|ba)", "(?#c)"])
    return st.one_of(literal, fixed)


def _patterns() -> st.SearchStrategy[str]:
    return regex_patterns(_atoms(), ("i", "-i"))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.sampled_from(FLAGS), st.text(alphabet=ALPHABET, max_size=30))
def test_a_closed_gate_means_no_match(pattern: str, flags: int, text: str) -> None:
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        return
    if not may_match(compiled, text):
        assert compiled.search(text) is None, (pattern, flags, text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.sampled_from(FLAGS), st.data())
def test_a_text_of_the_patterns_own_words_that_matches_passes_the_gate(
        pattern: str, flags: int, data: st.DataObject) -> None:
    """Texts made of the pattern's literal runs in order, each in some case (or with the
    lookalikes and their ASCII letters swapped) or left out,
    with a little other text between: they match far more often than random ones (and
    hypothesis' from_regex can backtrack for ever on nested repeats)."""
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        return
    filler = st.text(alphabet=ALPHABET, max_size=2)
    text = data.draw(filler)
    for run in re.split(r"[\\()\[\]{}?*+|^$.:=!<>#]+", pattern):
        cases = [run, run.swapcase(), run.translate(LOOKALIKE_SWAPS), ""]
        text += data.draw(st.sampled_from(cases)) + data.draw(filler)
    if compiled.search(text):
        assert may_match(compiled, text), (pattern, flags, text)


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


def test_the_lookalikes_are_every_letter_that_folds_to_ascii() -> None:
    letter = re.compile("[a-z]", re.IGNORECASE)
    folding = {chr(c) for c in range(0x80, 0x110000) if letter.fullmatch(chr(c))}
    assert folding == set(ASCII_LOOKALIKES)


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


WORDS = st.lists(st.text(alphabet="ab.-\\(é😀", max_size=4), max_size=3 * FEW)
TEXTS = st.text(alphabet="ab.-\\(xé😀", max_size=30)


@settings(max_examples=400, deadline=None)
@given(WORDS, TEXTS)
def test_needles_find_what_in_and_find_find(words: list[str], text: str) -> None:
    """Both ways of looking (`in` for a few, the automaton for more) agree with str."""
    needles = Needles(words)
    assert bool(needles) == bool(words)
    assert needles.found_in(text) == any(w in text for w in words)
    assert needles.present(text) == {w for w in words if w in text}
    if "" not in words:
        where = {w: [at for at in range(len(text)) if text.startswith(w, at)] for w in words}
        assert needles.where(text) == {w: starts for w, starts in where.items() if starts}
        assert needles.starts(text) == {at for starts in where.values() for at in starts}


@pytest.mark.parametrize("count", [FEW, FEW + 1])
def test_needles_report_nested_and_overlapping_words(count: int) -> None:
    words = ["he", "she", "hers", "his", *(f"z{n}" for n in range(count))][:count]
    needles = Needles(words)
    assert (needles._automaton is None) == (count <= FEW)
    assert needles.present("ushers") == {"he", "she", "hers"} & set(words)
    assert needles.where("ushers") == {word: starts for word, starts in
                                       {"she": [1], "he": [2], "hers": [2]}.items()
                                       if word in words}
    assert needles.starts("ushers") == {1, 2}
