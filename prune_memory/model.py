"""Frozen records passed between the stages. Each one serialises to JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import NewType

from prune_memory.vocab import (
    INDEX_FILE,
    JSON,
    LOG_FILE,
    MEMORY_TYPES,
    OWN_FILES,
    POLICY_FILE,
    TOMBSTONE_DIR,
    FindingCode,
)

# Re-exported so stages keep one import for every shared name.
__all__ = ["INDEX_FILE", "JSON", "LOG_FILE", "MEMORY_TYPES", "OWN_FILES", "POLICY_FILE",
           "TOMBSTONE_DIR", "FindingCode"]

RegisterId = NewType("RegisterId", str)


class MemoryClass(StrEnum):
    """The procedure's six kinds of memory (step 1)."""

    PROJECT = "Project"
    DECISION = "Decision"
    PATTERN = "Pattern"
    REFERENCE = "Reference"
    FEEDBACK = "Feedback"
    EPHEMERAL = "Ephemeral"


class Fidelity(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    FAILED = "failed"
    UNVERIFIABLE = "unverifiable"


class Action(StrEnum):
    KEEP = "keep"
    UPDATE = "update"
    WITHDRAW = "withdraw"
    WITHDRAW_INOCULATE = "withdraw+inoculate"
    INOCULATE = "inoculate"
    FLAG = "flag"
    REVIEW = "review"




class EntryKind(StrEnum):
    """A topic file, or a fact written straight into the index with no file behind it."""

    TOPIC = "topic"
    INDEX_LINE = "index-line"


class LinkKind(StrEnum):
    INLINE = "inline"
    REFERENCE = "reference"
    WIKI = "wiki"


@dataclass(frozen=True)
class Finding:
    """One thing a stage noticed about an entry, with the evidence that shows it."""

    code: FindingCode
    message: str
    evidence: JSON = field(default_factory=dict)
    proposed_text: str | None = None
    related: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        out: JSON = {"code": self.code.value, "message": self.message, "evidence": self.evidence}
        if self.proposed_text is not None:
            out["proposed_text"] = self.proposed_text
        if self.related:
            out["related"] = list(self.related)
        return out

    @classmethod
    def from_json(cls, data: JSON) -> Finding:
        return cls(
            code=FindingCode(data["code"]),
            message=data["message"],
            evidence=dict(data.get("evidence", {})),
            proposed_text=data.get("proposed_text"),
            related=tuple(data.get("related", ())),
        )


@dataclass(frozen=True)
class Link:
    """A link found in the index or a body. `target` is percent-decoded, fragment dropped."""

    target: str
    text: str
    line: int
    kind: LinkKind
    external: bool = False
    escapes: bool = False

    def to_json(self) -> JSON:
        return {"target": self.target, "text": self.text, "line": self.line,
                "kind": self.kind.value, "external": self.external, "escapes": self.escapes}


@dataclass(frozen=True)
class LoadCap:
    """How much of the index Claude Code loads: the first 200 lines or 25,000 UTF-16 units."""

    lines: int
    chars: int
    loaded_lines: int
    line_cap: int = 200
    char_cap: int = 25_000

    @property
    def usage(self) -> float:
        return max(self.chars / self.char_cap, self.lines / self.line_cap)

    @property
    def binding_cap(self) -> str:
        return "chars" if self.chars / self.char_cap > self.lines / self.line_cap else "lines"

    @property
    def near_cap(self) -> bool:
        return self.usage >= 0.8

    def to_json(self) -> JSON:
        return {"lines": self.lines, "chars": self.chars, "line_cap": self.line_cap,
                "char_cap": self.char_cap, "usage": round(self.usage, 4),
                "binding_cap": self.binding_cap}


class Block(StrEnum):
    """What a line of MEMORY.md is part of, as markdown reads it."""

    HEADING = "heading"
    ITEM = "item"  # the first line of a list item
    ITEM_MORE = "item-more"  # a wrapped line of a list item, not a new item
    PARAGRAPH = "paragraph"
    TABLE_HEAD = "table-head"
    TABLE_ROW = "table-row"
    CODE = "code"
    HTML = "html"
    OTHER = "other"  # blank lines, rules, frontmatter


@dataclass(frozen=True)
class IndexLine:
    """One line of MEMORY.md. `number` is 1-based in the file as stored.

    `parent` is the line of the list item this line belongs to: the item a wrapped line
    continues, or the item a nested (indented) item hangs under.
    """

    number: int
    text: str
    section: str | None
    links: tuple[Link, ...]
    loaded: bool
    is_item: bool = False
    block: Block = Block.OTHER
    parent: int | None = None


@dataclass(frozen=True)
class Index:
    file: str
    raw: bytes
    lines: tuple[IndexLine, ...]
    cap: LoadCap

    def lines_linking(self, file: str) -> tuple[IndexLine, ...]:
        return tuple(ln for ln in self.lines if any(lk.target == file for lk in ln.links))


@dataclass(frozen=True)
class Entry:
    """One memory: a topic file, or an inline fact in the index (file = `MEMORY.md#L<n>`)."""

    file: str
    kind: EntryKind
    name: str
    description: str
    memory_type: str | None
    frontmatter: JSON
    body: str
    sha256: str
    size: int
    mtime: datetime
    modified: datetime | None = None
    links: tuple[Link, ...] = ()
    index_lines: tuple[int, ...] = ()
    # How the file was read when not as written: its frontmatter was not valid YAML and was
    # read line by line, as Claude Code reads it ("" when it parsed).
    read_leniently: str = ""

    @property
    def text(self) -> str:
        """What the memory says: description and body, the part analysis reads."""
        return f"{self.description}\n{self.body}" if self.description else self.body

    @property
    def written_at(self) -> tuple[datetime, str]:
        """Best write-time signal: Claude Code's `modified:` stamp, else the file mtime."""
        return (self.modified, "modified") if self.modified else (self.mtime, "mtime")

    @property
    def indexed(self) -> bool:
        return bool(self.index_lines)


@dataclass(frozen=True)
class LoadError:
    """A file the loader could not read. It is reported and left untouched."""

    file: str
    message: str

    def to_json(self) -> JSON:
        return {"file": self.file, "message": self.message}


@dataclass(frozen=True)
class MemoryDir:
    """Everything the loader read from one memory directory."""

    root: Path
    index: Index | None
    entries: tuple[Entry, ...]
    errors: tuple[LoadError, ...] = ()
    tombstones: tuple[str, ...] = ()
    other_files: tuple[str, ...] = ()

    @cached_property
    def topics(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.kind is EntryKind.TOPIC)

    @cached_property
    def by_file(self) -> dict[str, Entry]:
        return {e.file: e for e in self.entries}

    def entry(self, file: str) -> Entry | None:
        return self.by_file.get(file)
