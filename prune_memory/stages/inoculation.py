"""Step 5: spot abandoned strategies whose trigger persists, and draft their counter-memory.

A tombstone keeps the content out of retrieval; only a SUPERSEDED record in the index
stops the same reasoning from rebuilding the same conclusion.
"""

from __future__ import annotations

import re
from datetime import datetime

from prune_memory.model import Entry, Finding, FindingCode
from prune_memory.plan import Inoculation

_ABANDONED = re.compile(
    r"\b(?:abandoned|was dropped|were dropped|reverted|rolled back|gave up|backed out|"
    r"did ?n[o']t work|didn't pan out|was removed because|ripped out)\b", re.IGNORECASE)
_PERSISTS = re.compile(
    r"\b(?:still|tempting|again|keeps? coming up|remains?|every time)\b", re.IGNORECASE)
_DONT = re.compile(r"\b(?:do not|don't|never) (?:add|bring|re-?introduce|use|try|go back)\b",
                   re.IGNORECASE)
_MONTH = re.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)(?: \d{4})?\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def find_abandoned_strategy(entry: Entry) -> Finding | None:
    """A `superseded-candidate` finding when a failed approach's trigger is still around."""
    if entry.memory_type == "superseded":
        return None
    gave_up = _ABANDONED.search(entry.text)
    persists = _PERSISTS.search(entry.body) or _DONT.search(entry.body)
    if gave_up is None or persists is None:
        return None
    return Finding(
        FindingCode.SUPERSEDED_CANDIDATE,
        f"an abandoned approach ({gave_up.group(0)!r}) whose trigger persists "
        f"({persists.group(0)!r}): withdrawing alone would let it be re-derived",
        evidence={"abandoned": gave_up.group(0), "trigger": persists.group(0)},
    )


def draft_inoculation(entry: Entry, now: datetime) -> Inoculation:
    """SUPERSEDED fields prefilled from the memory's own sentences, for a human to edit."""
    sentences = [s.strip() for s in _SENTENCE.split(" ".join(entry.body.split())) if s.strip()]
    first = sentences[0] if sentences else entry.description
    reason = _first_matching(sentences, _ABANDONED) or entry.description
    trigger = _first_matching(sentences, _PERSISTS) or _first_matching(sentences, _DONT) or ""
    return Inoculation(
        pattern=first,
        period=_period(entry, now),
        evidence=reason,
        abandonment_reason=_after_colon(reason),
        do_not_rederive=trigger or f"signals that lead back to: {first}",
    )


def _first_matching(sentences: list[str], pattern: re.Pattern[str]) -> str | None:
    return next((s for s in sentences if pattern.search(s)), None)


def _after_colon(sentence: str) -> str:
    head, sep, tail = sentence.partition(":")
    return tail.strip() if sep and tail.strip() else head.strip()


def _period(entry: Entry, now: datetime) -> str:
    months = _MONTH.findall(entry.body)
    if len(months) >= 2:
        first, last = months[0], months[-1]
        year = first.split()[-1] if " " in first else ""
        return f"{first} to {last} {year}".strip() if " " not in last else f"{first} to {last}"
    written, _ = entry.written_at
    start = months[0] if months else written.date().isoformat()
    return f"{start} to {now.date().isoformat()}"
