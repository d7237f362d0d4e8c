"""What a SUPERSEDED note must pass before it is written.

A counter-memory stays in every session's index, so a bad one does lasting harm: fields
that are one sentence pasted five times say nothing, and a note calling a pattern
abandoned while CLAUDE.md — the project's own instructions — still prescribes it would
set the two against each other. Both are refused, with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from prune_memory.analysis.instruction_files import claude_md_units
from prune_memory.analysis.similarity import tokens
from prune_memory.plan import Inoculation

# Share of the pattern's words a CLAUDE.md line must hold to count as prescribing it.
PRESCRIBED_SHARE = 0.7
MIN_PATTERN_WORDS = 3


def inoculation_problem(ino: Inoculation, claude_md: Sequence[tuple[str, str]]) -> str | None:
    """Why this note must not be written, or None when it may."""
    return field_problem(ino) or claude_md_conflict(ino, claude_md)


def field_problem(ino: Inoculation) -> str | None:
    """Empty fields, or one sentence pasted into every field."""
    fields = [ino.pattern, ino.evidence, ino.abandonment_reason, ino.do_not_rederive]
    if any(not field.strip() for field in fields):
        return "every field of a SUPERSEDED note needs text: pattern, evidence, reason, " \
               "do-not-re-derive"
    if len({" ".join(field.split()).casefold() for field in fields}) == 1:
        return "the SUPERSEDED fields are all the same text; say what was tried, what " \
               "happened, why it was dropped and what leads back to it"
    return None


def claude_md_conflict(ino: Inoculation, claude_md: Sequence[tuple[str, str]]) -> str | None:
    """A CLAUDE.md line that still prescribes the pattern the note calls abandoned."""
    pattern = set(tokens(ino.pattern))
    if len(pattern) < MIN_PATTERN_WORDS:
        return None
    for unit in claude_md_units(claude_md):
        if len(pattern & set(tokens(unit.text))) / len(pattern) >= PRESCRIBED_SHARE:
            return (f"{unit.source} line {unit.line} still prescribes this pattern "
                    f"({unit.text[:80]!r}); a note calling it abandoned would contradict the "
                    "project's instructions — change CLAUDE.md first, or keep the memory")
    return None
