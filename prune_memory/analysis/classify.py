"""Step 1: sort each memory into one of the procedure's six classes, saying why."""

from __future__ import annotations

import re
from dataclasses import dataclass

from prune_memory.analysis.sessions import standing_rule
from prune_memory.matching.regexgate import GatedPattern
from prune_memory.model import Entry, MemoryClass

_EPHEMERAL = GatedPattern(
    r"\b(?:currently (?:working on|debugging|investigating|fixing)|this session|next session|"
    r"right now|today I|for now I|in the middle of|WIP\b|pick (?:this )?up (?:next|tomorrow))",
    re.IGNORECASE)
_DECISION = GatedPattern(
    r"\b(?:decided|decision|chose|chosen|opted|we went with|settled on|rationale|trade-?off|"
    r"ADR)\b", re.IGNORECASE)
_PATTERN = GatedPattern(
    r"\b(?:workaround|gotcha|fix(?:ed)? by|root cause|when you see|if you see|symptom|"
    r"means that|pattern|recipe|to debug|exit code \d+|flaky|retry)\b", re.IGNORECASE)
_PREFERENCE = GatedPattern(
    r"\b(?:user (?:prefers|wants|likes|asked)|prefer(?:s|red)?|always use|never use|"
    r"do not|don't)\b", re.IGNORECASE)
_URL = re.compile(r"https?://\S+")

_BY_TYPE = {
    "user": MemoryClass.FEEDBACK,
    "feedback": MemoryClass.FEEDBACK,
    "reference": MemoryClass.REFERENCE,
    "superseded": MemoryClass.DECISION,
    "decision": MemoryClass.DECISION,
    "pattern": MemoryClass.PATTERN,
}


@dataclass(frozen=True)
class Classification:
    cls: MemoryClass
    signal: str

    def to_json(self) -> dict[str, str]:
        return {"class": self.cls.value, "signal": self.signal}


def classify(entry: Entry) -> Classification:
    """The class of one memory and the signal that chose it. Session-state wording makes a
    memory Ephemeral only when it states no lasting rule ("next session, start fresh" is a
    rule, not chatter)."""
    text = entry.text
    if (hit := _EPHEMERAL.search(text)) and standing_rule(entry) is None:
        return Classification(MemoryClass.EPHEMERAL, f"session-state phrase {hit.group(0)!r}")
    if entry.memory_type in _BY_TYPE:
        return Classification(_BY_TYPE[entry.memory_type], f"type: {entry.memory_type}")
    return _by_wording(entry, text)


def _by_wording(entry: Entry, text: str) -> Classification:
    if hit := _DECISION.search(text):
        return Classification(MemoryClass.DECISION, f"decision wording {hit.group(0)!r}")
    if hit := _PATTERN.search(text):
        return Classification(MemoryClass.PATTERN, f"pattern wording {hit.group(0)!r}")
    if entry.memory_type is None and (hit := _PREFERENCE.search(text)):
        return Classification(MemoryClass.FEEDBACK, f"preference wording {hit.group(0)!r}")
    if entry.memory_type is None and _URL.search(text):
        return Classification(MemoryClass.REFERENCE, "links an external resource")
    if entry.memory_type == "project":
        return Classification(MemoryClass.PROJECT, "type: project")
    return Classification(MemoryClass.PROJECT, "no stronger signal; a project fact by default")
