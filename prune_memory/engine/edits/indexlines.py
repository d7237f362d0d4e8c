"""A fact written straight into MEMORY.md is a line, not a file: these edit it by text and
place, since an identical line may sit elsewhere in the index."""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Collection, Sequence

from prune_memory.engine.edits.indexedit import IndexText, has_line_in, record_at
from prune_memory.engine.edits.placement import position
from prune_memory.engine.tombstone import IndexLineRecord


def line_record(index: IndexText, at: int) -> IndexLineRecord:
    """Line `at` (0-based) with the context a withdrawal remembers, so restore finds its place."""
    return record_at(index, at, Counter(index.lines))


def count_line(raw: bytes, text: str) -> int:
    return IndexText.parse(raw).lines.count(text)


def remove_line(raw: bytes, text: str, near: int, replacement: str | None = None) -> bytes:
    """Drop the copy of `text` nearest line `near` (0-based); `replacement` takes its place."""
    index = IndexText.parse(raw)
    places = [n for n, line in enumerate(index.lines) if line == text]
    if not places:
        return raw
    at = min(places, key=lambda n: (abs(n - near), n))
    eol = index.eols[at]
    del index.lines[at]
    del index.eols[at]
    if replacement is not None and not has_line_in(index, replacement):
        index.insert(at, replacement, eol)
    return index.render()


def insert_line(raw: bytes, record: IndexLineRecord, hints: Sequence[IndexLineRecord] = (),
                restored: Collection[str] = ()) -> bytes:
    """Put a removed line back at its remembered place, even beside an identical line.
    `restored` holds the register ids of hints whose withdrawal was undone."""
    index = IndexText.parse(raw)
    twins = _twins(index.lines, record, hints, restored)
    # A hint that saw our text beside it may have seen a copy: it cannot vouch for a place.
    usable = [h for h in hints if h.text not in twins
              and not (record.text in twins and record.text in (*h.prev, *h.next))]
    index.insert(position(index.lines, record, usable, twins), record.text, record.eol)
    return index.render()


def _twins(lines: list[str], record: IndexLineRecord, hints: Sequence[IndexLineRecord],
           restored: Collection[str]) -> set[str]:
    """Texts that may stand for more than one line, which placement must not read as one:
    a withdrawn line's text still in the index (an identical copy stayed), ours when a
    copy of it is there, and a text more than one record removed."""
    present = set(lines)
    seen = Counter(h.text for h in hints)
    seen[record.text] += 1
    twins = {h.text for h in hints if h.text in present and h.seq not in restored}
    twins |= {text for text, n in seen.items() if n > 1}
    return twins | ({record.text} if record.text in present else set())


def map_line(old: list[str], new: list[str], at: int) -> int | None:
    """Where line `at` of `old` sits in `new` if it is still there unchanged, following
    lines added or removed around it; None when it was changed or removed."""
    if old == new:
        return at if at < len(old) else None
    ahead, behind = _embedding(old, new), _embedding(old[::-1], new[::-1])
    if ahead is not None and behind is not None:
        # `new` is `old` with lines taken out (the usual case inside a batch): new[j] can be
        # our line if the lines before it fit above it and the lines after it fit below.
        return next((j for j, line in enumerate(new) if line == old[at] and ahead[j] <= at
                     and len(old) - behind[len(new) - j - 1] > at), None)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for start, there, size in matcher.get_matching_blocks():
        if start <= at < start + size:
            return there + at - start
    return None


def _embedding(old: list[str], new: list[str]) -> list[int] | None:
    """Placing `new` in `old` in order, each line as early as it can go: how many lines of
    `old` the first j lines of `new` use up, for each j; None if `new` does not fit."""
    used = [0]
    i = 0
    for line in new:
        while i < len(old) and old[i] != line:
            i += 1
        if i == len(old):
            return None
        i += 1
        used.append(i)
    return used
