"""Taking many entries out of the index in one reading gives the one-by-one result."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.store import index_edit
from prune_memory.store.index_edit import remove_entries

FILES = [f"f{n}.md" for n in range(6)]
SHAPES = [
    "- [F{n}](f{n}.md) — a fact", "  - detail under it", "    - deeper", "", "# Memory",
    "## Area", "- [Both](f{n}.md) and [other](f{m}.md)", "See [[f{n}]] here", "```", "~~~",
    "<!-- a comment", "-->", "<!-- [F{n}](f{n}.md) -->", "[ref{n}]: f{n}.md",
    "- [F{n}][ref{n}] by reference", "---", "- [F{n}](<f{n}.md>) — angle", "plain text",
    "- [F{n}](./f{n}.md)\r", "`[F{n}](f{n}.md)` in code", "- [F{n}](f{n}.md) — a fact",
]


@st.composite
def indexes(draw: st.DrawFn) -> tuple[bytes, list[str]]:
    rows = draw(st.lists(st.tuples(st.sampled_from(SHAPES), st.integers(0, 5),
                                   st.integers(0, 5), st.sampled_from(["\n", "\r\n", ""])),
                         max_size=40))
    text = "".join(shape.format(n=n, m=m) + (eol or "\n") for shape, n, m, eol in rows)
    if rows and rows[-1][3] == "":
        text = text.rstrip("\n")
    files = draw(st.lists(st.sampled_from(FILES), max_size=6, unique=True))
    return (("\ufeff" if draw(st.booleans()) else "") + text).encode(), files


def one_by_one(raw: bytes, files: list[str]) -> tuple[bytes, list[tuple[object, ...]]]:
    records = []
    for file in files:
        raw, removed = index_edit.remove_entry(raw, file)
        records.append(removed)
    return raw, records


@settings(max_examples=500, deadline=None)
@given(indexes())
def test_a_batch_removes_what_one_by_one_removes(case: tuple[bytes, list[str]]) -> None:
    raw, files = case
    assert remove_entries(raw, files) == one_by_one(raw, files)


def test_sub_items_and_shared_lines() -> None:
    raw = ("# M\n- [A](a.md) — x\n  - under a\n- [B](b.md) and [A](a.md)\n- [C](c.md)\n"
           "  - under c\n\n").encode()
    batch, records = remove_entries(raw, ["a.md", "b.md", "c.md"])
    # A line two memories share stays (a later scan drops it once none of its links works).
    assert batch == b"# M\n- [B](b.md) and [A](a.md)\n\n"
    assert [len(r) for r in records] == [2, 0, 2]
    assert (batch, records) == one_by_one(raw, ["a.md", "b.md", "c.md"])


def test_a_fence_leaving_with_an_entry_is_read_again() -> None:
    # A's sub-item opens a code fence that hides B's line; once A leaves, B's line is seen.
    raw = b"# M\n- [A](a.md)\n  ```\n- [B](b.md)\n  ```\nend\n"
    batch, records = remove_entries(raw, ["a.md", "b.md"])
    assert batch == b"# M\nend\n" and [len(r) for r in records] == [2, 2]
    assert (batch, records) == one_by_one(raw, ["a.md", "b.md"])
