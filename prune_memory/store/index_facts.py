"""Tie index lines to the topic files they point at, and lift facts written into the index."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import re

from prune_memory.model import Entry, EntryKind, Index, IndexLine

_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_ENTRY_ID = re.compile(r"^MEMORY\.md#L([1-9]\d*)$")


def index_entry_id(number: int, file: str = "MEMORY.md") -> str:
    return f"{file}#L{number}"


def index_line_number(file: str) -> int | None:
    """The 1-based line number of an inline-fact id `MEMORY.md#L<n>`; None for other names."""
    found = _ENTRY_ID.match(file.removeprefix("./"))
    return int(found.group(1)) if found else None


def fact_text(line: str) -> str:
    """What an inline fact says: the list item without its bullet."""
    return _BULLET.sub("", line).strip()


def pointer_targets(line: IndexLine, names: dict[str, str]) -> set[str]:
    """Files a line points at: by relative link, or by `[[name]]` of the memory."""
    targets = {lk.target for lk in line.links if not lk.external and not lk.escapes
               and lk.kind.value != "wiki"}
    targets |= {names[lk.target] for lk in line.links
                if lk.kind.value == "wiki" and lk.target in names}
    return targets


def attach_index_lines(index: Index, topics: list[Entry]) -> list[Entry]:
    """Each topic with the numbers of the index lines that link to it."""
    names = {t.name: t.file for t in topics}
    lines_for: dict[str, list[int]] = {}
    for line in index.lines:
        for target in pointer_targets(line, names):
            lines_for.setdefault(target, []).append(line.number)
    return [dataclasses.replace(t, index_lines=tuple(lines_for.get(t.file, ()))) for t in topics]


def inline_facts(index: Index, mtime: dt.datetime) -> list[Entry]:
    """List items of the index that state something themselves instead of pointing at a file."""
    facts: list[Entry] = []
    for line in index.lines:
        if not line.is_item or any(not lk.external for lk in line.links):
            continue
        text = fact_text(line.text)
        if not text:
            continue
        raw = line.text.encode("utf-8")
        facts.append(Entry(
            file=index_entry_id(line.number, index.file), kind=EntryKind.INDEX_LINE,
            name=text[:60], description="", memory_type=None, frontmatter={}, body=text,
            sha256=hashlib.sha256(raw).hexdigest(), size=len(raw), mtime=mtime,
            links=line.links, index_lines=(line.number,),
        ))
    return facts
