"""Which copy of a duplicated memory survives, and why."""

from __future__ import annotations

from collections.abc import Sequence

from prune_memory.model import Entry, EntryKind


def completeness(entry: Entry) -> tuple[int, int, int]:
    """Body length, filled frontmatter fields, description length: more is more complete."""
    fields = sum(1 for value in entry.frontmatter.values() if value not in (None, "", [], {}))
    return len(entry.body.strip()), fields, len(entry.description)


def survivor_rank(entry: Entry, protected: frozenset[str]) -> tuple[int, int, int, int, int, int]:
    """Sort key, best first: protected, then a topic file over an inline index fact, then the
    most complete copy, then one the index points at; equal ranks fall back to the file name."""
    body, fields, description = completeness(entry)
    return (
        -(entry.file in protected),
        -(entry.kind is EntryKind.TOPIC),
        -body,
        -fields,
        -description,
        -entry.indexed,
    )


def choose_survivor(group: Sequence[Entry], protected: frozenset[str]) -> Entry:
    return min(group, key=lambda e: (survivor_rank(e, protected), e.file))


def survivor_reason(survivor: Entry, other: Entry, protected: frozenset[str]) -> str:
    """The first rule that separates the survivor from `other`, in words."""
    if survivor.file in protected and other.file not in protected:
        return "protected copy"
    if survivor.kind is EntryKind.TOPIC and other.kind is EntryKind.INDEX_LINE:
        return "topic file beats an inline index fact"
    if completeness(survivor) != completeness(other):
        body, fields, _ = completeness(survivor)
        return f"most complete copy ({body} characters of body, {fields} frontmatter fields)"
    if survivor.indexed != other.indexed:
        return "listed in the index"
    return "equally complete; first by file name"
