"""Edit MEMORY.md one line at a time: every byte of the lines not edited stays as it was.

Line endings (LF, CRLF or a lone CR, per line), a missing final newline and a UTF-8 BOM all
survive an edit, and removing lines then putting them back gives the original bytes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from prune_memory.engine.edits.index_links import linked_targets, linking_lines, visible_lines
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
