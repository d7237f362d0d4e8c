"""The probe interface: each probe reads one entry against the repo facts and says what it checked.

A probe returns every claim it found with a verdict (confirmed, contradicted,
unverifiable) plus findings for the claims worth a human's attention. A finding may
carry the corrections it knows as plain old→new text pairs; the staleness stage
applies all of an entry's corrections at once to build the proposed text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, TypeVar, runtime_checkable

from prune_memory.analysis.text import standalone_spans
from prune_memory.config import Config
from prune_memory.evidence.gitrepo import RepoFacts
from prune_memory.model import JSON, Entry, Finding, FindingCode, MemoryDir

T = TypeVar("T")


class Verdict(StrEnum):
    CONFIRMED = "confirmed"
    CONTRADICTED = "contradicted"
    UNVERIFIABLE = "unverifiable"


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a memory and what the repo said about it."""

    kind: str
    text: str
    verdict: Verdict
    note: str = ""

    def to_json(self) -> JSON:
        return {"kind": self.kind, "text": self.text, "verdict": self.verdict.value,
                "note": self.note}


@dataclass(frozen=True)
class Correction:
    """Replace `old` with `new` wherever it stands on its own in the entry body.

    `bounded=False` replaces every occurrence, for text such as a URL prefix.
    """

    old: str
    new: str
    bounded: bool = True
    # A word that must not survive the fix anywhere in the text ("jest" in "ts-jest" after
    # Jest became Vitest): if it does, the correction is incomplete and is not proposed.
    residue: str = ""


@dataclass(frozen=True)
class Flagged:
    """A finding and the text corrections that would fix what it found."""

    finding: Finding
    corrections: tuple[Correction, ...] = ()


@dataclass(frozen=True)
class ProbeResult:
    claims: tuple[Claim, ...] = ()
    flagged: tuple[Flagged, ...] = ()

    def __add__(self, other: ProbeResult) -> ProbeResult:
        return ProbeResult(self.claims + other.claims, self.flagged + other.flagged)


EMPTY = ProbeResult()


class ProbeContext:
    """What every probe may read: repo facts, the whole memory dir, the config and `now`.

    `memo` caches values derived once per pass (tallies, parsed manifests), which is
    what keeps the cost per entry to dictionary look-ups. `prefetch` starts building one
    on the `background` worker, for a value that waits mostly on git: the first `memo` of
    that key then waits for it, and gets what it would have built itself.
    """

    def __init__(self, facts: RepoFacts, memdir: MemoryDir, config: Config,
                 now: datetime, *, background: Executor | None = None) -> None:
        self.facts = facts
        self.memdir = memdir
        self.config = config
        self.now = now
        self._memo: dict[str, Any] = {}
        self._background = background
        self._pending: dict[str, Future[Any]] = {}

    def memo(self, key: str, build: Callable[[], T]) -> T:
        if key not in self._memo:
            pending = self._pending.pop(key, None)
            self._memo[key] = pending.result() if pending is not None else build()
        value: T = self._memo[key]
        return value

    def prefetch(self, key: str, build: Callable[[], Any]) -> None:
        """Start building `memo(key)` on the background worker; without one, `memo` builds it
        when first asked, as always."""
        if self._background is None or key in self._memo or key in self._pending:
            return
        self._pending[key] = self._background.submit(build)


class Probe(Protocol):
    """One kind of staleness check."""

    code: FindingCode

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        """Claims found in `entry`, their verdicts, findings and known corrections."""
        ...


@runtime_checkable
class Prefetching(Probe, Protocol):
    """A probe with a value to build once that waits mostly on git (a `git grep`, a `git log
    -G`): `prefetch` starts it in the background before any entry is checked, and the
    stage checks every entry with the other probes first, so the wait overlaps them."""

    def prefetch(self, ctx: ProbeContext) -> None:
        """Start building what `check` will read."""
        ...


def flag(code: FindingCode, message: str, evidence: JSON,
         *corrections: Correction) -> Flagged:
    return Flagged(Finding(code=code, message=message, evidence=evidence), corrections)


def apply_corrections(text: str, corrections: Iterable[Correction]) -> str:
    """Apply every correction in one pass, so a replacement is never replaced again.

    Longer originals win where two overlap; the rest of the text is kept byte for byte.
    """
    chosen = sorted({c.old: c for c in corrections if c.old and c.old != c.new}.values(),
                    key=lambda c: len(c.old), reverse=True)
    taken: list[tuple[int, int, str]] = []
    for fix in chosen:
        for start, end in standalone_spans(text, fix.old, bounded=fix.bounded):
            if all(end <= s or start >= e for s, e, _ in taken):
                taken.append((start, end, fix.new))
    out, cursor = [], 0
    for start, end, new in sorted(taken):
        out.append(text[cursor:start] + new)
        cursor = end
    return "".join(out) + text[cursor:]
