"""Tie index lines to the topic files they point at, and lift facts written into the index.

A line of MEMORY.md is a pointer when it opens with a link to a memory (`- [Title](x.md) —
hook`); any other list item, paragraph line or table row states something itself and is an
inline fact, named `MEMORY.md#L<n>`. Lines indented under an item belong to that item: a
fact's sub-bullets are part of the fact, a pointer's sub-bullets travel with the pointer.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import re

from prune_memory.model import Block, Entry, EntryKind, Index, IndexLine, LinkKind
from prune_memory.secrets.mask import mask_text

_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_ENTRY_ID = re.compile(r"^MEMORY\.md#L([1-9]\d*)$")
_OPENS_WITH_LINK = re.compile(r"^(?:[*_~]{1,3})?\[")
_FACT_BLOCKS = frozenset({Block.ITEM, Block.PARAGRAPH, Block.TABLE_ROW})


def table_of(index: Index) -> dict[str, int]:
    """Inline facts that are rows of a table, mapped to the table's first line. Rows of one
    table share their shape by design: that makes them alike, not duplicates."""
    out: dict[str, int] = {}
    start: int | None = None
    for line in index.lines:
        if line.block in (Block.TABLE_HEAD, Block.TABLE_ROW) or (
                start is not None and line.text.lstrip().startswith("|")):
            start = line.number if start is None else start
            if line.block is Block.TABLE_ROW:
                out[index_entry_id(line.number, index.file)] = start
        else:
            start = None
    return out


def index_entry_id(number: int, file: str = "MEMORY.md") -> str:
    return f"{file}#L{number}"


def index_line_number(file: str) -> int | None:
    """The 1-based line number of an inline-fact id `MEMORY.md#L<n>`; None for other names."""
    found = _ENTRY_ID.match(file.removeprefix("./"))
    return int(found.group(1)) if found else None


def fact_text(line: str) -> str:
    """What an inline fact says: the list item without its bullet, a row without its pipes."""
    text = _BULLET.sub("", line).strip()
    if text.startswith("|") and text.endswith("|") and len(text) > 1:
        text = " | ".join(cell.strip() for cell in text[1:-1].split("|"))
    return text


def is_pointer(line: IndexLine) -> bool:
    """The line opens with a link to a memory: it points, it does not state."""
    internal = [lk for lk in line.links if not lk.external]
    return bool(internal) and _OPENS_WITH_LINK.match(fact_text(line.text)) is not None


def pointer_targets(line: IndexLine, names: dict[str, str]) -> set[str]:
    """Files a line points at: by relative link, or by `[[name]]` of the memory."""
    targets = {lk.target for lk in line.links if not lk.external and not lk.escapes
               and lk.kind is not LinkKind.WIKI}
    targets |= {names[lk.target] for lk in line.links
                if lk.kind is LinkKind.WIKI and lk.target in names}
    return targets


def attach_index_lines(index: Index, topics: list[Entry]) -> list[Entry]:
    """Each topic with the numbers of the index lines that link to it."""
    names = {t.name: t.file for t in topics} | {t.file.removesuffix(".md"): t.file
                                                for t in topics}
    lines_for: dict[str, list[int]] = {}
    for line in index.lines:
        for target in pointer_targets(line, names):
            lines_for.setdefault(target, []).append(line.number)
    return [dataclasses.replace(t, index_lines=tuple(lines_for.get(t.file, ()))) for t in topics]


def root_item(line: IndexLine, by_number: dict[int, IndexLine]) -> IndexLine:
    """The outermost list item a line hangs under (the line itself when it hangs on none)."""
    seen = line
    while seen.parent is not None and seen.parent in by_number:
        seen = by_number[seen.parent]
    return seen


def inline_facts(index: Index, mtime: dt.datetime) -> list[Entry]:
    """Every line of the index that states something itself, with the lines under it."""
    by_number = {ln.number: ln for ln in index.lines}
    groups: dict[int, list[IndexLine]] = {}
    for line in index.lines:
        head = root_item(line, by_number)
        if head.block in _FACT_BLOCKS and not is_pointer(head) and line.text.strip():
            groups.setdefault(head.number, []).append(line)
    facts = [_fact(index, lines, mtime) for _, lines in sorted(groups.items())]
    return [fact for fact in facts if fact.body]


def line_entry(index: Index, line: IndexLine, mtime: dt.datetime) -> Entry:
    """One index line as an entry of its own (a pointer whose hook is in question)."""
    return _fact(index, [line], mtime)


def _fact(index: Index, lines: list[IndexLine], mtime: dt.datetime) -> Entry:
    head = lines[0]
    body = "\n".join(fact_text(ln.text) for ln in lines).strip()
    raw = "\n".join(ln.text for ln in lines).encode("utf-8")
    return Entry(
        file=index_entry_id(head.number, index.file), kind=EntryKind.INDEX_LINE,
        name=mask_text(fact_text(head.text))[:60], description="", memory_type=None, frontmatter={},
        body=body, sha256=hashlib.sha256(raw).hexdigest(), size=len(raw), mtime=mtime,
        links=tuple(lk for ln in lines for lk in ln.links),
        index_lines=tuple(ln.number for ln in lines),
    )
