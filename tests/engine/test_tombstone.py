from __future__ import annotations

from datetime import UTC, datetime

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.engine.tombstone import (
    CONTRACT_FIELDS,
    TombstoneHeader,
    parse_tombstone,
    render_tombstone,
    sha256,
    tombstone_name,
)
from prune_memory.store.index_placement import IndexLineRecord

WHEN = datetime(2026, 11, 29, 12, 30, tzinfo=UTC)


def header(reason: str = "count drift: 280 is now 310", original: bytes = b"") -> TombstoneHeader:
    return TombstoneHeader(
        original_file="project_counts.md", deaccessioned_at=WHEN, reason=reason,
        rule="4-stale-subject-gone", register_id="2026-11-29-03",
        original_sha256=sha256(original), superseded_by=None,
        index_lines=(IndexLineRecord("- [Counts](project_counts.md) — sizes", "\n",
                                     ("## Project",), ("- [B](b.md)",), 4),))


def test_header_fields_in_design_order_then_the_original_verbatim() -> None:
    original = b"---\nname: counts\ntype: project\n---\nbody\r\n\x00?"
    raw = render_tombstone(header(original=original), original)
    head, _, rest = raw.partition(b"\n---\n")
    keys = [line.split(":", 1)[0] for line in head.decode().splitlines()[1:]]
    assert keys[:len(CONTRACT_FIELDS)] == list(CONTRACT_FIELDS)
    assert rest == original
    meta = yaml.safe_load(head[4:])
    assert meta["name"] == "withdrawn-project_counts"
    assert meta["description"].startswith("WITHDRAWN 2026-11-29 — not current memory.")
    assert meta["deaccessioned_at"] == "2026-11-29T12:30:00Z"
    assert meta["superseded_by"] == "N/A"
    assert meta["register_id"] == "2026-11-29-03"
    assert meta["original_sha256"] == sha256(original)


def test_parse_gives_back_the_header_and_the_bytes() -> None:
    original = b"plain body, no frontmatter\n"
    stone = parse_tombstone(render_tombstone(header(original=original), original))
    assert stone.header == header(original=original)
    assert stone.original == original
    assert stone.fields["rule"] == "4-stale-subject-gone"


@settings(max_examples=200)
@given(reason=st.text(min_size=1).filter(lambda s: s.strip()), original=st.binary())
def test_any_reason_and_any_bytes_round_trip(reason: str, original: bytes) -> None:
    made = header(reason=reason, original=original)
    stone = parse_tombstone(render_tombstone(made, original))
    assert stone.original == original
    assert stone.header.reason == " ".join(reason.split())
    assert stone.header.original_sha256 == sha256(original)


def test_a_name_used_before_gets_a_distinct_tombstone() -> None:
    assert tombstone_name("a.md", set(), "2026-11-29-01") == "deaccessioned/a.md"
    assert tombstone_name("a.md", {"deaccessioned/a.md"}, "2026-11-29-04") == \
        "deaccessioned/a.2026-11-29-04.md"
