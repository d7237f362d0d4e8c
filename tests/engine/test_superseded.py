from __future__ import annotations

import unicodedata

import yaml
from hypothesis import given
from hypothesis import strategies as st

from prune_memory.engine.superseded import (
    FIELDS,
    Superseded,
    free_slug,
    parse_superseded,
    render_superseded,
    slugify,
)

RECORD = Superseded(
    slug="retry-forever", date="2026-11-29", pattern="retry failed CI jobs until green",
    period="2026-03 to 2026-10", evidence="3 outages hidden by retries: 'flaky' #12",
    abandonment_reason="retries masked real failures", do_not_rederive="timeouts in CI logs",
    supersedes="deaccessioned/feedback_retry.md")


def test_frontmatter_and_fields_as_the_design_lists_them() -> None:
    text = render_superseded(RECORD).decode()
    _, head, body = text.split("---\n", 2)
    meta = yaml.safe_load(head)
    assert meta == {"name": "superseded-retry-forever",
                    "description": "Counter-memory preventing re-derivation of retry failed "
                                   "CI jobs until green",
                    "type": "superseded"}
    lines = [ln for ln in body.splitlines() if ln]
    assert lines[0] == "SUPERSEDED 2026-11-29"
    assert [ln.split(": ", 1)[0] for ln in lines[1:]] == list(FIELDS)


def test_parse_reads_back_every_field() -> None:
    assert parse_superseded(render_superseded(RECORD)) == RECORD


@given(st.lists(st.text(min_size=1).filter(lambda s: s.strip()), min_size=6, max_size=6))
def test_any_single_line_values_round_trip(values: list[str]) -> None:
    record = Superseded("s", "2026-11-29", *values)
    back = parse_superseded(render_superseded(record))
    # One line each; control characters (NUL, ESC…) never reach the file.
    assert back.values() == tuple(
        " ".join("".join(" " if unicodedata.category(c) == "Cc" else c for c in v).split())
        for v in values)


def test_slugs() -> None:
    assert slugify("feedback_Retry Forever!") == "feedback-retry-forever"
    assert slugify("***") == "entry"
    assert free_slug("x", {"superseded_x.md", "superseded_x-2.md"}) == "x-3"


def test_the_index_line_points_at_the_file() -> None:
    assert "](superseded_retry-forever.md)" in RECORD.index_line()


@given(pattern=st.text(min_size=1, max_size=120), hook=st.text(min_size=1, max_size=120))
def test_the_index_line_always_holds_exactly_one_link_to_the_note(pattern: str,
                                                                  hook: str) -> None:
    from dataclasses import replace

    from prune_memory.store.index import parse_index

    record = replace(RECORD, pattern=pattern, do_not_rederive=hook)
    line = record.index_line()
    (_, parsed) = parse_index(f"# Memory\n{line}\n".encode()).lines
    assert [link.target for link in parsed.links] == [record.file]
    assert parsed.links[0].text.startswith("SUPERSEDED: ")
