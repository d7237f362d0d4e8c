"""Take many entries out of MEMORY.md in one reading: what `indexedit.remove_entry` does for
each file in turn, in time that grows with the index, not with the index times the batch.

The index is read once and every line's link targets worked out once. Each removal then
finds its lines through that map and remembers the same context a single removal would,
reading the lines still there around it. A removed line that could change how the rest
is read (a code fence, a comment, a reference definition, the frontmatter marker) makes
the map be worked out again, so the result is always the one-by-one result: a property
test holds the two equal.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import replace

from prune_memory.engine.edits.index_links import (
    definitions,
    line_targets,
    links_others,
    visible_lines,
)
from prune_memory.engine.edits.indexedit import IndexText, owner_line, with_sub_items
from prune_memory.engine.edits.placement import context
from prune_memory.engine.tombstone import IndexLineRecord

# A removed line of one of these shapes may change how the lines after it are read.
_STRUCTURAL = ("```", "~~~", "<!--", "-->", "]:")


class _Lines(Sequence[str]):
    """The lines still in the index, by their place now; `ids` are their places in the
    original reading, ascending, so a line's place now is a binary search away."""

    def __init__(self, index: IndexText) -> None:
        self.text, self.eols = index.lines, index.eols
        self.ids = list(range(len(index.lines)))

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, at: int) -> str:  # type: ignore[override]
        return self.text[self.ids[at]]

    def place(self, line_id: int) -> int | None:
        at = bisect_left(self.ids, line_id)
        return at if at < len(self.ids) and self.ids[at] == line_id else None

    def around(self, at: int, step: int) -> Iterator[str]:
        """The lines before (`step` -1) or after (+1) place `at`, nearest first."""
        n = at + step
        while 0 <= n < len(self.ids):
            yield self.text[self.ids[n]]
            n += step

    def current(self) -> list[str]:
        return [self.text[i] for i in self.ids]


def _targets(lines: _Lines) -> dict[str, list[int]]:
    """Every memory file a line links, to the ids of the lines linking it, in order; a line
    that also links another memory is left out (`index_links.links_others`)."""
    now = lines.current()
    visible = visible_lines(now)
    refs = definitions(now, visible)
    found: defaultdict[str, list[int]] = defaultdict(list)
    for at, line in enumerate(now):
        if visible[at] and "[" in line:
            targets = line_targets(line, refs)
            for target in targets:
                if not links_others(targets, target):
                    found[target].append(lines.ids[at])
    return found


def remove_entries(raw: bytes, files: Sequence[str]) -> tuple[bytes, list[tuple[
        IndexLineRecord, ...]]]:
    """`raw` without the lines linking each of `files` (taken out in that order), and the
    records of each file's lines as `indexedit.remove_entry` would have made them."""
    index = IndexText.parse(raw)
    lines = _Lines(index)
    counts = Counter(index.lines)
    targets = _targets(lines)
    out: list[tuple[IndexLineRecord, ...]] = []
    for file in files:
        pointers = sorted(at for i in targets.get(file, ()) if (at := lines.place(i)) is not None)
        doomed = with_sub_items(lines, pointers)
        out.append(tuple(replace(_record(lines, at, counts),
                                 under=owner_line(lines, pointers, at)) for at in doomed))
        gone = [lines.ids[at] for at in doomed]
        first_before = lines[0] if len(lines) else None
        for at in reversed(doomed):
            counts[lines[at]] -= 1
            del lines.ids[at]
        if _reshapes(index.lines, gone) or (len(lines) and lines[0] != first_before
                                            and lines[0].rstrip("\r") == "---"):
            targets = _targets(lines)
    kept = lines.ids
    index.lines, index.eols = [index.lines[i] for i in kept], [index.eols[i] for i in kept]
    return index.render(), out


def _reshapes(text: list[str], gone: list[int]) -> bool:
    return any(mark in text[i] for i in gone for mark in _STRUCTURAL) or \
        any(text[i].rstrip("\r") == "---" for i in gone)


def _record(lines: _Lines, at: int, counts: Counter[str]) -> IndexLineRecord:
    prev, prev_edge = context(lines.around(at, -1), counts)
    after, next_edge = context(lines.around(at, 1), counts)
    return IndexLineRecord(text=lines[at], eol=lines.eols[lines.ids[at]], prev=prev,
                           next=after, at=at, prev_edge=prev_edge, next_edge=next_edge)
