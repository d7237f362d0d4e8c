"""The records and the interface every secret detector shares."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from prune_memory.matching.regexgate import Regex

JSON = dict[str, Any]  # kept local: this package must import without the rest of the tool

# How sure a detector is that a span is a secret; the surer one wins when spans overlap.
VENDOR_FORMAT = 3  # a vendor's documented token shape (ghp_…, AKIA…, xoxb-…)
STRUCTURE = 2  # a structure that holds a credential: key block, JWT, URL with a password
ASSIGNMENT = 1  # a credential-looking name given a value: `password: …`, `API_TOKEN=…`


class SecretSpan(NamedTuple):
    """Where a detector thinks a secret value sits in a text: offsets, never the value.

    A NamedTuple rather than a dataclass: these stay inside the package, and the write-time
    gate pays for every class created at import.
    """

    label: str
    start: int
    end: int
    confidence: int

    @property
    def length(self) -> int:
        return self.end - self.start

    def overlaps(self, other: SecretSpan) -> bool:
        return self.start < other.end and other.start < self.end


class SecretHit(NamedTuple):
    """A secret found in a text, described without its value."""

    label: str
    first4: str
    length: int
    line: int

    def to_json(self) -> JSON:
        return {"label": self.label, "first4": self.first4, "length": self.length,
                "line": self.line}


class SecretDetector(Protocol):
    """Anything that can point at secret values in a text."""

    name: str

    def spans(self, text: str) -> Iterator[SecretSpan]:
        """Every span of `text` this detector takes for a secret value (may overlap)."""
        ...

    def screen(self) -> Screen | None:
        """What a text must hold before `spans` can find anything; None: no promise."""
        ...


class Screen(NamedTuple):
    """A text can hold a find only if its lower-cased form holds one of `needles` (lower
    case), the text itself one of `exact`, or one of `patterns` matches it: the cheap test
    before the detectors run."""

    needles: tuple[str, ...]
    exact: tuple[str, ...] = ()
    patterns: tuple[Regex, ...] = ()


def shown_prefix(value: str) -> str:
    """The first four characters, fewer for short values so the prefix never gives most away."""
    return value[: min(4, len(value) // 3)]
