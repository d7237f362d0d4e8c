"""Which copy of a duplicated memory survives, and why."""

from __future__ import annotations

from collections.abc import Sequence

from prune_memory.model import Entry, EntryKind


def completeness(entry: Entry) -> tuple[int, int, int]:
    """Body length, filled frontmatter fields, description length: more is more complete."""
    fields = sum(1 for value in entry.frontmatter.values() if value not in (None, "", [], {}))
    return len(entry.body.strip()), fields, len(entry.description)


def survivor_rank(entry: Entry, protected: frozenset[str]) -> tuple[int, ...]:
    """Sort key, best first: protected, then a topic file over an inline index fact, then the
    most complete copy (longest body, then one Claude Code stamped `modified:`, then more
    frontmatter, then a longer description), then one the index points at; equal ranks fall
    back to the file name."""
    body, fields, description = completeness(entry)
    return (
        -(entry.file in protected),
        -(entry.kind is EntryKind.TOPIC),
        -body,
        -(entry.modified is not None),
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
    mine, theirs = completeness(survivor), completeness(other)
    if mine[0] != theirs[0]:
        return f"longer text ({mine[0]} characters against {theirs[0]})"
    if survivor.modified is not None and other.modified is None:
        return "carries a `modified:` stamp"
    if mine[1] != theirs[1]:
        return f"more frontmatter ({mine[1]} fields against {theirs[1]})"
    if mine[2] != theirs[2]:
        return "longer description"
    if survivor.indexed != other.indexed:
        return "listed in the index"
    return "equally complete; first by file name"
