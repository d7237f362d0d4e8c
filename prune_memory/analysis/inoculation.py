"""Step 5: spot abandoned strategies whose trigger persists, and draft their counter-memory.

A tombstone keeps the content out of retrieval; only a SUPERSEDED record in the index
stops the same reasoning from rebuilding the same conclusion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from prune_memory.model import Entry, Finding, FindingCode, MemoryDir
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
    """A `superseded-candidate` finding when the memory's own subject is an approach that was
    given up and its trigger is still around.

    The abandonment must be said where the memory says what it is about — its name,
    description, first heading or first sentence. "Reverted" or "didn't work" deeper in a
    memory about current code tells a detail of its history, not that it is abandoned.
    """
    if entry.memory_type == "superseded":
        return None
    gave_up = _ABANDONED.search(_head(entry))
    persists = _PERSISTS.search(entry.body) or _DONT.search(entry.body)
    if gave_up is None or persists is None:
        return None
    return Finding(
        FindingCode.SUPERSEDED_CANDIDATE,
        f"an abandoned approach ({gave_up.group(0)!r}) whose trigger persists "
        f"({persists.group(0)!r}): withdrawing alone would let it be re-derived",
        evidence={"abandoned": gave_up.group(0), "trigger": persists.group(0)},
    )


def _head(entry: Entry) -> str:
    """Where a memory says what it is about: name, description, first heading, first sentence."""
    heading = next((ln.lstrip("#").strip() for ln in entry.body.splitlines()
                    if ln.startswith("#")), "")
    first = sentences_of(entry.body)[:1]
    return " ".join((entry.name, entry.description, heading, *first))


def sentences_of(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]


def draft_inoculation(entry: Entry, now: datetime, findings: Sequence[Finding] = (),
                      memdir: MemoryDir | None = None) -> Inoculation:
    """SUPERSEDED fields prefilled from the memory's own sentences, for a human to edit.

    For a decision that a later one overrode, the fields come from the reversal's evidence.
    """
    reversal = next((f for f in findings if f.code is FindingCode.DECISION_REVERSAL), None)
    if reversal is not None:
        return _overridden(entry, reversal, memdir)
    sentences = sentences_of(entry.body)
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


def _overridden(entry: Entry, reversal: Finding, memdir: MemoryDir | None) -> Inoculation:
    ev = reversal.evidence
    newer = str(ev.get("overridden_by", "a later memory"))
    when = str(ev.get("overridden_on", ""))
    later = memdir.entry(newer) if memdir is not None else None
    said = sentences_of(later.body)[0] if later and sentences_of(later.body) else newer
    sentences = sentences_of(entry.body)
    commit = f"; the repo changed in {ev['short']} on {ev['date']} ({ev.get('subject', '')})" \
        if ev.get("short") else ""
    start = entry.written_at[0].date().isoformat()
    return Inoculation(
        pattern=sentences[0] if sentences else entry.description,
        period=f"{(_MONTH.findall(entry.body) or [start])[0]} to {when or 'now'}",
        evidence=f"overridden by {newer} on {when or 'a later date'}{commit}",
        abandonment_reason=f"replaced by a later decision: {said}",
        do_not_rederive=f"the reasoning recorded in {entry.file}; the current decision is "
                        f"in {newer}",
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
