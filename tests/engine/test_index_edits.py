from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.store import index_edit
from prune_memory.store.index import linking_lines, normalize_target, parse_index
from prune_memory.store.index_placement import IndexLineRecord

INDEX = (
    "# Memory\n\n## Project\n"
    "- [Auth](project_auth.md) — how login works\n"
    "- [Deploy](<deploy notes.md>) — the deploy\n"
    "- [Spaces](my%20file.md) — percent-encoded\n"
    "- [Dot](./dotted.md#part) — dot prefix and fragment\n"
    "- [Ref][cfg] — reference style\n"
    "\n```\n- [Fenced](project_auth.md) — not a link\n```\n"
    "<!-- - [Hidden](project_auth.md) -->\n"
    "- `[Code](project_auth.md)` inline code is not a link\n"
    "\n[cfg]: config.md\n"
)


@pytest.mark.parametrize(("file", "lines"), [
    ("project_auth.md", [3]),
    ("deploy notes.md", [4]),
    ("my file.md", [5]),
    ("dotted.md", [6]),
    ("config.md", [7, 15]),
])
def test_finds_every_shape_of_link_and_only_visible_ones(file: str, lines: list[int]) -> None:
    assert linking_lines(INDEX.split("\n"), file) == lines


def test_agrees_with_the_reference_parser_on_inline_links() -> None:
    parsed = parse_index(INDEX.encode())
    for file in ("project_auth.md", "deploy notes.md", "my file.md", "dotted.md"):
        expected = [ln.number - 1 for ln in parsed.lines_linking(file)]
        assert linking_lines(INDEX.split("\n"), file) == expected


def test_normalize_target() -> None:
    assert normalize_target("<a b.md>") == "a b.md"
    assert normalize_target("./x%2Dy.md#frag") == "x-y.md"
    assert normalize_target(r"a\_b.md") == "a_b.md"


@pytest.mark.parametrize("raw", [
    b"# M\n- [A](a.md) x\n- [B](b.md) y\n",
    b"# M\r\n- [A](a.md) x\r\n- [B](b.md) y\r\n",
    b"# M\n- [A](a.md) x\n- [B](b.md) y",
    b"\xef\xbb\xbf- [A](a.md) x\n- [B](b.md) y\n",
    b"- [A](a.md) only line",
    b"# M\r\n- [A](a.md) x\n- [B](b.md) y",
])
def test_remove_then_restore_is_byte_identical(raw: bytes) -> None:
    for file in ("a.md", "b.md"):
        removed, records = index_edit.remove_entry(raw, file)
        assert file.encode() not in removed
        assert index_edit.restore_lines(removed, records) == raw


def test_remove_touches_only_the_lines_linking_the_file() -> None:
    raw = "# Mém\r\n\n- [A](a.md) x\r\n- [B](b.md) y\n\ttrailing  \n".encode()
    removed, records = index_edit.remove_entry(raw, "a.md")
    assert removed == "# Mém\r\n\n- [B](b.md) y\n\ttrailing  \n".encode()
    assert [r.text for r in records] == ["- [A](a.md) x"]
    assert records[0].prev == ("", "# Mém")
    assert records[0].next == ("- [B](b.md) y", "\ttrailing  ")
    assert records[0].at == 2


def test_replacement_takes_the_place_of_the_first_removed_line() -> None:
    raw = b"# M\n- [A](a.md) x\n- [B](b.md) y\n"
    new, _ = index_edit.remove_entry(raw, "a.md", replacement="- [S](superseded_a.md) s")
    assert new == b"# M\n- [S](superseded_a.md) s\n- [B](b.md) y\n"


def test_insert_after_entry_and_idempotence() -> None:
    raw = b"# M\n- [A](a.md) x\n- [B](b.md) y\n"
    once = index_edit.insert_after_entry(raw, "a.md", "- [S](s.md) s")
    assert once == b"# M\n- [A](a.md) x\n- [S](s.md) s\n- [B](b.md) y\n"
    assert index_edit.insert_after_entry(once, "a.md", "- [S](s.md) s") == once


def test_non_utf8_index_is_refused() -> None:
    from prune_memory.errors import RefusedError

    with pytest.raises(RefusedError):
        index_edit.remove_entry(b"- [A](a.md) \xff\n", "a.md")


@st.composite
def index_and_order(draw: st.DrawFn, blanks: bool = False) -> tuple[bytes, list[str], list[str]]:
    """An index with headings and prose (and, with `blanks`, blank lines) around entry lines,
    plus an order in which to withdraw a subset of the entries and another in which to
    restore them. Headings are distinct, as in a real index. With blank lines and every
    entry around them withdrawn, a blank line is the only context left and one blank line
    is like another: an out-of-order restore can pick a neighbouring one (the pass undo is
    byte-exact from the snapshot instead), so that shape is tested in reverse order."""
    count = draw(st.integers(1, 10))
    files = [f"e{n}.md" for n in range(count)]
    lines: list[str] = []
    for n, file in enumerate(files):
        fillers = st.sampled_from(["", f"## Section {n}", "prose"] if blanks
                                  else [f"## Section {n}", f"prose {n % 3}"])
        lines.extend(draw(st.lists(fillers, max_size=2)))
        lines.append(f"- [E{n}]({file}) — hook {n}")
        if draw(st.booleans()) and n % 3 == 0:
            lines.append(f"- see also [E{n}]({file})")
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    text = eol.join(lines) + (eol if draw(st.booleans()) else "")
    bom = "\ufeff" if draw(st.booleans()) else ""
    chosen = draw(st.lists(st.sampled_from(files), unique=True))
    rng = random.Random(draw(st.integers(0, 2**16)))
    restore_order = chosen[:]
    rng.shuffle(restore_order)
    return (bom + text).encode(), chosen, restore_order


@settings(max_examples=300, deadline=None)
@given(index_and_order())
def test_withdraw_any_subset_then_restore_in_any_order(case: tuple[bytes, list[str],
                                                                   list[str]]) -> None:
    _round_trip(*case)


@settings(max_examples=300, deadline=None)
@given(index_and_order(blanks=True))
def test_with_blank_lines_restoring_in_reverse_order_is_exact(
        case: tuple[bytes, list[str], list[str]]) -> None:
    raw, withdrawn, _ = case
    _round_trip(raw, withdrawn, list(reversed(withdrawn)))


@pytest.mark.long
@settings(max_examples=5000, deadline=None)
@given(index_and_order())
def test_withdraw_any_subset_then_restore_in_any_order_long(
        case: tuple[bytes, list[str], list[str]]) -> None:
    _round_trip(*case)


def _round_trip(raw: bytes, withdraw_order: list[str], restore_order: list[str]) -> None:
    current = raw
    stones: dict[str, tuple[IndexLineRecord, ...]] = {}
    for n, file in enumerate(withdraw_order):
        current, records = index_edit.remove_entry(current, file)
        stones[file] = tuple(replace(rec, seq=f"2026-01-01-{n + 1:02d}") for rec in records)
    for file in restore_order:
        hints = [rec for other, recs in stones.items() if other != file for rec in recs]
        current = index_edit.restore_lines(current, stones[file], hints)
    assert current == raw


@pytest.mark.parametrize("text", [INDEX, INDEX.replace("\n", "\r"), "[[auth]] and [x][cfg]\n"
                                  "[cfg]: <deploy notes.md>\n- [E](a\\_b.md)\n"])
def test_the_files_linked_are_those_each_file_is_linked_by(text: str) -> None:
    raw = text.encode()
    linked = index_edit.linked_files(raw)
    for file in ("project_auth.md", "deploy notes.md", "my file.md", "dotted.md", "config.md",
                 "auth.md", "auth", "a_b.md", "cfg.md", "missing.md"):
        assert (file in linked) == index_edit.links_file(raw, file), file
