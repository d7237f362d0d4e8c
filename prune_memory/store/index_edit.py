"""The index, MEMORY.md, edited one line at a time: every byte of the lines not edited
stays as it was.

Line endings (LF, CRLF or a lone CR, per line), a missing final newline and a UTF-8 BOM all
survive an edit, and removing lines then putting them back gives the original bytes
(placed by `index_placement.py`). Here: an entry's lines out and back, a fact's one line
by text and place (an identical line may sit elsewhere), many entries out in one reading
(`remove_entries`: the one-by-one result in time that grows with the index, not with the
index times the batch), and step 9's repairs (drop a line, fix a link, add a line)."""

from __future__ import annotations

import difflib
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace

from prune_memory.errors import RefusedError
from prune_memory.store.index import (
    definitions,
    line_targets,
    linked_targets,
    linking_lines,
    links_others,
    visible_lines,
)
from prune_memory.store.index_placement import IndexLineRecord, context, position
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


def linked_files(raw: bytes) -> set[str]:
    """Every file `links_file(raw, file)` is true for, from one reading of the index."""
    return linked_targets(IndexText.parse(raw).lines)


def has_line(raw: bytes, text: str) -> bool:
    return text in IndexText.parse(raw).lines


def remove_entry(raw: bytes, file: str,
                 replacement: str | None = None) -> tuple[bytes, tuple[IndexLineRecord, ...]]:
    """Drop the lines linking `file` (putting `replacement` where the first one was)."""
    index = IndexText.parse(raw)
    pointers = linking_lines(index.lines, file, alone=True)
    doomed = with_sub_items(index.lines, pointers)
    counts = Counter(index.lines)
    records = [replace(record_at(index, n, counts), under=owner_line(index.lines, pointers, n))
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
    indexed twice by the same line gets both back. Lines that left side by side (a
    pointer and its sub-items, say) go back as one block, placed by its first line."""
    index = IndexText.parse(raw)
    present = Counter(line for line, shown in zip(index.lines, visible_lines(index.lines),
                                                  strict=True) if shown)
    anchors = [r for r in hints if not r.under]  # a sub-item's text may repeat anywhere
    run_end = _run_ends(records)
    placed: Counter[tuple[str, str]] = Counter()
    below = -1  # where the next line of a block just put back goes; -1 when none
    for n, record in enumerate(records):
        if below >= 0 and record.at == records[n - 1].at + 1:
            index.insert(below, record.text, record.eol)
            below += 1
            continue
        below = -1
        if record.under and _restore_sub_item(index, record, placed):
            continue
        if not record.under and present[record.text] > 0:
            present[record.text] -= 1
            continue
        # Texts standing in the index (in a code block, say) may be that copy, not ours;
        # the rest of our block follows this line, so it is no hint for it.
        twins = {r.text for r in records if r.text in index.lines}
        siblings = [r for m, r in enumerate(records) if not n <= m <= run_end[n]
                    and not r.under and r.text not in twins]
        at = position(index.lines, record, [*anchors, *siblings], twins, blind=twins)
        index.insert(at, record.text, record.eol)
        below = at + 1
    return index.render()


def _run_ends(records: Sequence[IndexLineRecord]) -> list[int]:
    """For each record, the last one of the run of old line numbers in a row it starts."""
    ends = list(range(len(records)))
    for n in reversed(range(len(records) - 1)):
        if records[n + 1].at == records[n].at + 1:
            ends[n] = ends[n + 1]
    return ends


def _restore_sub_item(index: IndexText, record: IndexLineRecord,
                      placed: Counter[tuple[str, str]]) -> bool:
    """Back under a copy of its pointer that stayed, after the sub-items already there; a
    copy already under it counts once. False when the pointer is nowhere to be found."""
    owners = [n for n, line in enumerate(index.lines) if line == record.under]
    if not owners:
        return False
    owner = min(owners, key=lambda n: (abs(n - record.at), n))
    end = owner + 1
    while end < len(index.lines) and index.lines[end].strip() and \
            index.lines[end][:1].isspace():
        end += 1
    key = (record.under, record.text)
    if index.lines[owner + 1:end].count(record.text) <= placed[key]:
        index.insert(end, record.text, record.eol)
    placed[key] += 1
    return True


def has_line_in(index: IndexText, text: str) -> bool:
    return text in index.lines


def record_at(index: IndexText, n: int, counts: Counter[str]) -> IndexLineRecord:
    lines = index.lines
    prev, prev_edge = context(reversed(lines[:n]), counts)
    after, next_edge = context(lines[n + 1:], counts)
    return IndexLineRecord(text=lines[n], eol=index.eols[n], prev=prev, next=after, at=n,
                           prev_edge=prev_edge, next_edge=next_edge)


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
    that also links another memory is left out (`links_others`)."""
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
    records of each file's lines as `remove_entry` would have made them."""
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


def _lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True)


def _newline(raw: bytes) -> bytes:
    """The line ending most lines of `raw` use: a line we add takes it."""
    text = raw.decode("utf-8", "surrogateescape")
    return usual_end(split_ends(text)[1]).encode()


def _text(line: bytes) -> str:
    return line.rstrip(b"\r\n").decode("utf-8", errors="replace")


def _find(lines: list[bytes], number: int, expected: str) -> int:
    """The 0-based position of the planned line: line `number` while it still reads
    `expected`, else the copy of `expected` nearest to it. Withdrawals earlier in the same
    pass remove index lines above it, which moves it up; the text is what identifies it."""
    matches = [i for i, line in enumerate(lines) if _text(line) == expected]
    if not matches:
        raise RefusedError(f"MEMORY.md no longer has the line planned at {number} "
                           "(index changed since the plan); left as it is")
    return min(matches, key=lambda i: (abs(i - (number - 1)), i))


def drop_line(raw: bytes, number: int, expected: str) -> bytes:
    """Remove the line planned at `number` (1-based), found by its text `expected`."""
    lines = _lines(raw)
    at = _find(lines, number, expected)
    return b"".join(lines[:at] + lines[at + 1:])


def retarget_line(raw: bytes, number: int, expected: str, old: str, new: str) -> bytes:
    """Point the link on the line planned at `number` at `new` instead of `old`."""
    lines = _lines(raw)
    at = _find(lines, number, expected)
    line = lines[at]
    fixed = line.replace(f"]({old})".encode(), f"]({new})".encode(), 1)
    if fixed == line:
        fixed = line.replace(f"]: {old}".encode(), f"]: {new}".encode(), 1)
    if fixed == line:
        raise RefusedError(f"MEMORY.md line {at + 1}: link to {old} not found")
    return b"".join([*lines[:at], fixed, *lines[at + 1:]])


def add_line(raw: bytes, line: str, section: str) -> bytes:
    """Append `line` under `## section`, creating the section at the end when missing."""
    nl = _newline(raw)
    lines = _lines(raw)
    heading = f"## {section}".encode()
    body = line.encode("utf-8") + nl
    if lines and not lines[-1].endswith((b"\n", b"\r")):
        lines[-1] += nl
    at = next((i for i, ln in enumerate(lines) if ln.rstrip(b"\r\n") == heading), None)
    if at is None:
        gap = [nl] if lines and lines[-1].strip() else []
        return b"".join([*lines, *gap, heading + nl, body])
    end = at + 1
    while end < len(lines) and not lines[end].startswith(b"#") and lines[end].strip():
        end += 1
    return b"".join([*lines[:end], body, *lines[end:]])


def rewrite_line(raw: bytes, number: int, expected: str, new: str) -> bytes:
    """Replace the text of the line planned at `number` (found by its text); its ending stays."""
    lines = _lines(raw)
    at = _find(lines, number, expected)
    ending = lines[at][len(lines[at].rstrip(b"\r\n")):]
    return b"".join([*lines[:at], new.encode("utf-8") + ending, *lines[at + 1:]])
