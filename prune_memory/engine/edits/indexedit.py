"""Edit MEMORY.md one line at a time: every byte of the lines not edited stays as it was.

Line endings (LF, CRLF or a lone CR, per line), a missing final newline and a UTF-8 BOM all
survive an edit, and removing lines then putting them back gives the original bytes.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from prune_memory.engine.edits.index_links import linking_lines, visible_lines
from prune_memory.engine.edits.placement import context, position
from prune_memory.engine.tombstone import IndexLineRecord
from prune_memory.errors import RefusedError
from prune_memory.store.lineends import split_ends, usual_end

BOM = "\ufeff"


@dataclass
class IndexText:
    """The index as lines without their endings, the endings, and the BOM if there was one."""

    bom: str
    lines: list[str]
    eols: list[str]

    @classmethod
    def parse(cls, raw: bytes) -> IndexText:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RefusedError(f"MEMORY.md is not valid UTF-8 (byte {err.start}); "
                               "not editing it") from err
        bom = BOM if text.startswith(BOM) else ""
        lines, eols = split_ends(text[len(bom):])
        return cls(bom=bom, lines=lines, eols=eols)

    def render(self) -> bytes:
        body = "".join(line + eol for line, eol in zip(self.lines, self.eols, strict=True))
        return (self.bom + body).encode("utf-8")

    def insert(self, at: int, line: str, eol: str) -> None:
        """Insert one line at `at`. At the end of a file without a final newline, the old
        last line gets one and the new line goes without, so that style is kept."""
        at_end = at == len(self.lines)
        if at_end and self.lines and self.eols[-1] == "":
            self.eols[-1] = eol or self._neighbour_eol(at)
            eol = ""
        elif not eol and not at_end:
            eol = self._neighbour_eol(at)
        self.lines.insert(at, line)
        self.eols.insert(at, eol)

    def _neighbour_eol(self, at: int) -> str:
        for pos in (at - 1, at):
            if 0 <= pos < len(self.eols) and self.eols[pos]:
                return self.eols[pos]
        return usual_end(self.eols)


def links_file(raw: bytes, file: str) -> bool:
    return bool(linking_lines(IndexText.parse(raw).lines, file))


def has_line(raw: bytes, text: str) -> bool:
    return text in IndexText.parse(raw).lines


def remove_entry(raw: bytes, file: str,
                 replacement: str | None = None) -> tuple[bytes, tuple[IndexLineRecord, ...]]:
    """Drop the lines linking `file` (putting `replacement` where the first one was)."""
    index = IndexText.parse(raw)
    pointers = linking_lines(index.lines, file)
    doomed = with_sub_items(index.lines, pointers)
    counts = Counter(index.lines)
    records = [replace(_record(index, n, counts), under=owner_line(index.lines, pointers, n))
               for n in doomed]
    first_eol = index.eols[doomed[0]] if doomed else "\n"
    for n in reversed(doomed):
        del index.lines[n]
        del index.eols[n]
    if replacement is not None and not has_line_in(index, replacement):
        at = doomed[0] if doomed else len(index.lines)
        index.insert(at, replacement, first_eol if doomed else "")
    return index.render(), tuple(records)


_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d+[.)])[ \t]+(?:[*_~]{1,3})?\[")


def with_sub_items(lines: Sequence[str], pointers: list[int]) -> list[int]:
    """The pointer lines and, under each that is a list item opening with its link, the
    lines indented beneath it: a withdrawn memory's sub-bullets leave with its pointer."""
    out: set[int] = set(pointers)
    for n in pointers:
        item = _ITEM.match(lines[n])
        if item is None:
            continue
        depth = len(item.group("indent").expandtabs(4))
        for m in range(n + 1, len(lines)):
            text = lines[m]
            indent = len(text) - len(text.lstrip(" \t"))
            if not text.strip() or len(text[:indent].expandtabs(4)) <= depth:
                break
            out.add(m)
    return sorted(out)


def owner_line(lines: Sequence[str], pointers: Sequence[int], at: int) -> str:
    """For a sub-item that leaves with a pointer, that pointer's line; else empty."""
    if at in pointers:
        return ""
    above = [p for p in pointers if p < at]
    return lines[max(above)] if above else ""


def insert_after_entry(raw: bytes, file: str, line: str) -> bytes:
    """Add `line` just after the last line linking `file` (at the end if none does)."""
    index = IndexText.parse(raw)
    if line in index.lines:
        return raw
    linked = linking_lines(index.lines, file)
    at = linked[-1] + 1 if linked else len(index.lines)
    index.insert(at, line, index.eols[linked[-1]] if linked else "")
    return index.render()


def restore_lines(raw: bytes, records: Sequence[IndexLineRecord],
                  hints: Sequence[IndexLineRecord] = ()) -> bytes:
    """Put removed lines back where they were; lines already present (as links: a copy in
    a code block or a comment does not count) are left alone, copy for copy, so an entry
    indexed twice by the same line gets both back."""
    index = IndexText.parse(raw)
    present = Counter(line for line, shown in zip(index.lines, visible_lines(index.lines),
                                                  strict=True) if shown)
    for record in records:
        if record.under:  # a sub-item is back when it is under its own pointer again
            if _under_owner(index.lines, record):
                continue
        elif present[record.text] > 0:
            present[record.text] -= 1
            continue
        siblings = [r for r in records if r is not record]  # the entry's other lines
        index.insert(position(index.lines, record, [*hints, *siblings]), record.text,
                     record.eol)
    return index.render()


def _under_owner(lines: list[str], record: IndexLineRecord) -> bool:
    """`record`'s text sits in the indented block under a copy of its pointer line."""
    for at, line in enumerate(lines):
        if line != record.under:
            continue
        for below in lines[at + 1:]:
            if not below.strip() or not below[:1].isspace():
                break
            if below == record.text:
                return True
    return False


def has_line_in(index: IndexText, text: str) -> bool:
    return text in index.lines


# A fact written straight into the index is a line, not a file: these edit it by text and
# place, since an identical line may sit elsewhere in the index.

def line_record(index: IndexText, at: int) -> IndexLineRecord:
    """Line `at` (0-based) with the context a withdrawal remembers, so restore finds its place."""
    return _record(index, at, Counter(index.lines))


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


def _record(index: IndexText, n: int, counts: Counter[str]) -> IndexLineRecord:
    lines = index.lines
    prev, prev_edge = context(reversed(lines[:n]), counts)
    after, next_edge = context(lines[n + 1:], counts)
    return IndexLineRecord(text=lines[n], eol=index.eols[n], prev=prev, next=after, at=n,
                           prev_edge=prev_edge, next_edge=next_edge)
