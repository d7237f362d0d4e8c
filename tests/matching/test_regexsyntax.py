"""The regex reader follows every pattern the package ships and gives up on what it cannot
read (what the gates conclude from it is held to `re` in test_literals.py)."""

from __future__ import annotations

import gc
import re

import pytest

import prune_memory.analysis.hygiene  # noqa: F401
from prune_memory.analysis.policy import default_policy
from prune_memory.matching.regexgate import LazyPattern
from prune_memory.matching.regexsyntax import FOREVER, Unknown, parse


def test_every_pattern_of_the_package_is_read() -> None:
    patterns = {(p.pattern, p.flags) for p in gc.get_objects() if isinstance(p, LazyPattern)}
    patterns |= {(r.pattern.pattern, r.pattern.flags) for r in default_policy().rules}
    assert len(patterns) > 20
    for source, flags in patterns:
        parse(source, flags)  # raises Unknown if the reader could not follow it


def test_the_tree_of_a_small_pattern() -> None:
    tree, flags = parse(r"(?i)a[^\s-]{2,}(?=x)|\bb$", 0)
    assert flags & re.IGNORECASE
    assert tree == [("BRANCH", [
        [("LITERAL", ord("a")),
         ("REPEAT", (2, FOREVER, [("IN", [("NEGATE", None), ("CATEGORY", "s"),
                                         ("LITERAL", ord("-"))])])),
         ("ASSERT", [("LITERAL", ord("x"))])],
        [("AT", "BOUNDARY"), ("LITERAL", ord("b")), ("AT", "END")]])]


def test_literal_braces_escapes_and_comments() -> None:
    tree, _ = parse(r"a{b}{}\x41\u00e9\0\n[\]a-c\b]{,2}(?#note)(?P<q>x)(?P=q)", 0)
    assert [kind for kind, _ in tree] == ["LITERAL"] * 10 + ["REPEAT", "GROUP", "GROUPREF"]
    assert "".join(chr(v) for _, v in tree[:10]) == "a{b}{}Aé\0\n"
    assert tree[10] == ("REPEAT", (0, 2, [("IN", [("LITERAL", ord("]")),
                                                  ("RANGE", (ord("a"), ord("c"))),
                                                  ("LITERAL", 8)])]))


@pytest.mark.parametrize("pattern", [
    r"(?x) a b", r"a(?(1)b|c)", r"(a)\1", r"\N{BULLET}", r"a(?i)b", r"\q", "(a", "a)", "*a",
    r"a**", r"\b+",
])
def test_what_the_reader_does_not_follow_is_unknown(pattern: str) -> None:
    with pytest.raises(Unknown):
        parse(pattern, 0)


def test_verbose_flags_are_unknown() -> None:
    with pytest.raises(Unknown):
        parse("a b", re.VERBOSE)
