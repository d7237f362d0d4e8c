"""Contradictions between memories: one says a thing was removed, another still describes it.

When a memory records "`CharacterRegistry` DELETED — replaced by `CharacterCatalog`", any
other memory that still explains how `CharacterRegistry` works disagrees with it. Git may
not know yet (the replacement can be uncommitted), so this is not staleness: both memories
are shown side by side for a person to decide which one holds.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from prune_memory.analysis.text import mentions_change, planned, short_quote
from prune_memory.model import Entry, EntryKind, Finding, FindingCode, MemoryDir

_NAME = re.compile(r"`([A-Za-z_][\w.:]*[A-Za-z0-9_])(?:\(\))?`")
_GONE_WORDS = (r"(?:DELETED|REMOVED|deleted|removed|no longer exists?|is gone|was dropped|"
               r"ripped out|replaced (?:by|with)|已删除|已移除|entfernt|gelöscht|eliminad[oa])")
# The removal word right after the name ("`X` DELETED", "`X` was removed") or just before
# it ("removed `X`"); "not removed" says the opposite.
_AFTER = re.compile(rf"^[`*_)\s]*(?:—|-|:|,)?\s*(?:is |was |has been |got )?{_GONE_WORDS}")
_BEFORE = re.compile(r"(?<!not )(?<!never )\b(?:deleted|removed|dropped|ripped out|"
                     r"删除|移除|entfernt|gelöscht)\s*[*_]*$", re.IGNORECASE)
# "`build.py` — REMOVED the retry loop": a removal word with an object of its own says what
# was taken out of the name, so the name itself is still there.
_OBJECT = re.compile(r"\s+`|\s+(?:the|a|an|all|its|their|this|that|these|those|every|each|"
                     r"any|some|one|two|three|\d+)\b", re.IGNORECASE)
MIN_NAME = 6  # short names ("id", "run") are too common to stand for one thing


@dataclass(frozen=True)
class Line:
    file: str
    number: int
    text: str


def check_said_gone(memdir: MemoryDir) -> dict[str, tuple[Finding, ...]]:
    """`contradiction` findings (kind `said-removed`) per entry file."""
    gone: dict[str, Line] = {}
    live: dict[str, list[Line]] = defaultdict(list)
    for entry in memdir.entries:
        if entry.memory_type == "superseded":
            continue
        for line in _lines(entry):
            for name, said_gone in _names(line.text):
                if said_gone and not planned(line.text):
                    gone.setdefault(name, line)
                elif not mentions_change(line.text):
                    live[name].append(line)
    found: dict[str, list[Finding]] = defaultdict(list)
    for name, said in sorted(gone.items()):
        for other in live.get(name, ()):
            if other.file != said.file:
                found[other.file].append(_finding(name, other, said))
    return {file: tuple(_first_per_name(items)) for file, items in sorted(found.items())}


def _lines(entry: Entry) -> Iterator[Line]:
    if entry.kind is EntryKind.INDEX_LINE:
        for number, text in zip(entry.index_lines, entry.body.splitlines(), strict=False):
            yield Line(entry.file, number, text)
        return
    for number, text in enumerate(entry.body.splitlines(), start=1):
        yield Line(entry.file, number, text)


def _names(text: str) -> Iterator[tuple[str, bool]]:
    """Each code name on the line, and whether the line says that very name is gone."""
    for m in _NAME.finditer(text):
        name = m.group(1)
        if len(name) < MIN_NAME or name.isdigit():
            continue
        tail = text[m.end():m.end() + 60]
        said = _AFTER.match(tail)
        after = said is not None and (said.group(0).rstrip().endswith(("by", "with"))
                                      or _OBJECT.match(tail[said.end():]) is None)
        before = _BEFORE.search(text[max(0, m.start() - 24):m.start()]) is not None
        yield name, after or before


def _finding(name: str, here: Line, there: Line) -> Finding:
    message = (f"describes `{name}` (line {here.number}), but {there.file} says it was "
               f"removed: {short_quote(there.text, 120)}; read both and keep the one that holds")
    return Finding(
        FindingCode.CONTRADICTION, message,
        evidence={"kind": "said-removed", "subject": name,
                  "sides": [{"file": there.file, "line": there.number,
                             "says": short_quote(there.text)},
                            {"file": here.file, "line": here.number,
                             "says": short_quote(here.text)}],
                  "claim_line": {"where": "body", "line": here.number,
                                 "text": short_quote(here.text)}},
        related=(there.file,))


def _first_per_name(items: list[Finding]) -> list[Finding]:
    seen: set[str] = set()
    out: list[Finding] = []
    for item in items:
        if item.evidence["subject"] not in seen:
            seen.add(item.evidence["subject"])
            out.append(item)
    return out
