"""The plain reading of the index gives exactly markdown-it's reading, or stands aside."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.model import Block
from prune_memory.store import index
from prune_memory.store.index import parse_index, plain_structure

# Lines of the plain shape and lines one character away from it.
LINES = [
    "", "# Memory", "## Build & test", "### Notes (old)", "#### a_b", "# x #", "#no space",
    "####### seven", "#  two spaces", "# trailing ", "# [link](a.md)", "# <b>x</b>",
    "- [Title](a.md) — hook", "- [a.md](a.md): older shape", "- [Note 1](project_000001.md)",
    "- [x_y z](b.md) — uses foo_bar and *stars*", "- [_x_](c.md)", "- [a *b*](c.md)",
    "- [a](b c.md)", "- [a](<b c.md>)", "- [a](b%20c.md) — encoded", "- [ü](ü.md)",
    "- [a](javascript:alert(1))", "- [a](https://example.com/x) — web", "- [a](./d.md)",
    "- [a](../up.md)", "- [a](/abs.md)", "- [a](b.md) and [c](d.md)", "- [a](b.md) <x>",
    "- [a](b.md) `code`", "- [a](b.md) [[wiki]]", "- [a\\]](b.md)", "- [a&amp;](b.md)",
    "- [a](b.md \"title\")", "-  [a](b.md)", " - [a](b.md)", "- [a](b.md)  ", "- [ ](b.md)",
    "- [](b.md)", "* [a](b.md)", "1. [a](b.md)", "  continued text", "plain paragraph",
    "---", "===", "<!-- hidden -->", "- [a](b.md)\t", "[ref]: r.md", "- [ref] — uses it",
    "- [a](b.md) — ends with two spaces  ", "```", "- [x](y.md) — ſ and K",
]
# The lines read plainly, so that most generated indexes take the plain path.
PLAIN = [line for line in LINES if plain_structure([line], 0) is not None]
texts = st.one_of(st.lists(st.sampled_from(LINES), max_size=12),
                  st.lists(st.sampled_from(PLAIN), max_size=12)).map("\n".join)


def _markdown_reading(raw: bytes, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as patch:
        patch.setattr(index, "plain_structure", lambda lines, offset: None)
        return parse_index(raw)


@settings(max_examples=500, deadline=None)
@given(texts, st.booleans(), st.booleans())
def test_the_plain_reading_equals_markdown_its(text: str, frontmatter: bool,
                                               final_newline: bool) -> None:
    if frontmatter:
        text = "---\nname: index\n---\n" + text
    raw = (text + ("\n" if final_newline else "")).encode()
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert parse_index(raw) == _markdown_reading(raw, monkeypatch)


def test_most_sample_lines_take_the_plain_path() -> None:
    assert len(PLAIN) >= 15


def test_the_usual_index_is_read_plainly() -> None:
    lines = ["# Memory", "", "## Area 0", "- [Note 0](project_000000.md) — a hook",
             "- [feedback_x.md](feedback_x.md): older shape"]
    read = plain_structure(lines, 0)
    assert read is not None
    assert [line.block for line in read] == [Block.HEADING, Block.OTHER, Block.HEADING,
                                             Block.ITEM, Block.ITEM]
    assert [link.target for line in read for link in line.links] == [
        "project_000000.md", "feedback_x.md"]


@pytest.mark.parametrize("line", ["- [a *b*](c.md)", "- [_x_](c.md)", "  continued",
                                  "- [a](b.md) [[wiki]]", "- [a](javascript:x)", "# [l](a.md)"])
def test_anything_markdown_could_read_differently_is_left_to_it(line: str) -> None:
    assert plain_structure(["# Memory", line], 0) is None
