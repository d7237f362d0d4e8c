"""decision-reversal: a later memory or a SUPERSEDED record overrides an earlier decision.

Conservative on purpose. An entry is overridden only when
- a SUPERSEDED record (frontmatter `type: superseded`) names it, or
- a later entry names it (`[[name]]`, a link, or its file name) in a sentence that
  says it replaces, supersedes or overrides it, or
- a later entry says it switched from X to Y (or replaced X with Y), and the earlier
  entry records a decision for X and never mentions Y.
A reversal is not a wrong fact, so it adds no contradicted claim: fidelity is untouched.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from prune_memory.analysis.text import entry_sentences, has_standalone, short_quote
from prune_memory.evidence.probes.base import EMPTY, Flagged, ProbeContext, ProbeResult
from prune_memory.evidence.probes.decisionrefs import (
    SUPERSEDED_TYPE,
    Topics,
    later,
    named_entries,
    repo_agreement,
    superseded_targets,
)
from prune_memory.evidence.probes.evidence import said
from prune_memory.matching.regexgate import GatedPattern
from prune_memory.model import Entry, Finding, FindingCode, MemoryDir

ACTIVE = GatedPattern(r"\b(?:replaces|supersedes|overrides|overturns|reverses|obsoletes"
                    r"|retires|takes\s+over\s+from)\b", re.IGNORECASE)
PASSIVE = GatedPattern(r"\b(?:replaced|superseded|overridden|overturned|reversed)\s+by\b",
                     re.IGNORECASE)
TERM = r"(`[^`\n]{2,40}`|[A-Za-z][\w.+#-]{2,30})"
SWITCH = GatedPattern(rf"\b(?:switched|moved|migrated|changed)\s+(?:\w+\s+){{0,3}}?from\s+{TERM}"
                    rf"\s+to\s+{TERM}|\breplaced\s+{TERM}\s+with\s+{TERM}", re.IGNORECASE)
DECIDED = GatedPattern(r"\b(?:decided|decision|chose|chosen|settled\s+on|standardi[sz]ed\s+on"
                     r"|going\s+with|went\s+with|opted\s+for)\b", re.IGNORECASE)
GENERIC = frozenset({"the", "this", "that", "one", "old", "new", "it", "them", "there"})


@dataclass(frozen=True)
class Override:
    target: str
    by: Entry
    sentence: str
    how: str


class DecisionProbe:
    code = FindingCode.DECISION_REVERSAL

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        table = ctx.memo("decision.overrides", lambda: overrides(ctx.memdir))
        found = table.get(entry.file, ())
        if not found:
            return EMPTY
        return ProbeResult(flagged=tuple(_flag(entry, o, ctx) for o in found))


def overrides(memdir: MemoryDir) -> Mapping[str, tuple[Override, ...]]:
    """Every overridden entry, with what overrides it."""
    table: dict[str, list[Override]] = {}
    for item in _all_overrides(Topics.of(memdir)):
        known = table.setdefault(item.target, [])
        if all(o.by.file != item.by.file for o in known):
            known.append(item)
    return {k: tuple(v) for k, v in table.items()}


def _all_overrides(topics: Topics) -> Iterator[Override]:
    decisions = _decision_sentences(topics)
    for entry in topics.by_file.values():
        if entry.memory_type == SUPERSEDED_TYPE:
            for target, line in superseded_targets(entry, topics):
                yield Override(target, entry, line, "a SUPERSEDED record names it")
            continue
        if not (ACTIVE.search(entry.text) or PASSIVE.search(entry.text)
                or SWITCH.search(entry.text)):
            continue
        for sentence in entry_sentences(entry):
            yield from _by_reference(entry, sentence, topics)
            yield from _by_subject(entry, sentence, topics, decisions)


def _by_reference(entry: Entry, sentence: str, topics: Topics) -> Iterator[Override]:
    passive = PASSIVE.search(sentence)
    active = ACTIVE.search(sentence)
    if not (passive or active):
        return
    for target, where in named_entries(sentence, topics):
        if target == entry.file or target not in topics.by_file:
            continue
        if passive and where > passive.start():
            older, newer = entry, topics.by_file[target]
        elif active:
            older, newer = topics.by_file[target], entry
        else:
            continue
        if later(newer, older):
            yield Override(older.file, newer, sentence, "a later memory says it replaces it")


def _by_subject(entry: Entry, sentence: str, topics: Topics,
                decisions: Mapping[str, tuple[str, ...]]) -> Iterator[Override]:
    for match in SWITCH.finditer(sentence):
        old, new = [g.strip("`") for g in match.groups() if g][:2]
        if old.lower() in GENERIC or new.lower() in GENERIC or old.lower() == new.lower():
            continue
        for file, decided in decisions.items():
            other = topics.by_file[file]
            if file == entry.file or not later(entry, other):
                continue
            if not any(has_standalone(s, old, True) for s in decided):
                continue
            if has_standalone(other.text, new, True):
                continue
            yield Override(file, entry, sentence,
                           f"a later memory says it moved from {old} to {new}")


def _decision_sentences(topics: Topics) -> dict[str, tuple[str, ...]]:
    """The sentences of each entry that record a decision, found once per pass."""
    found: dict[str, tuple[str, ...]] = {}
    for entry in topics.by_file.values():
        if entry.memory_type == SUPERSEDED_TYPE or not DECIDED.search(entry.text):
            continue
        decided = tuple(s for s in entry_sentences(entry) if DECIDED.search(s))
        if decided:
            found[entry.file] = decided
    return found


def _flag(entry: Entry, item: Override, ctx: ProbeContext) -> Flagged:
    by_date = item.by.written_at[0].date().isoformat()
    quote = short_quote(item.sentence)
    message = f"overridden by `{item.by.file}` ({by_date}): {item.how}: \"{quote}\""
    agreement = repo_agreement(entry, item.by, ctx)
    evidence = said(short_quote(entry.description or entry.body, 120),
                    f"{item.by.file}: {quote}", overridden_by=item.by.file,
                    overridden_on=by_date, how=item.how,
                    inoculated=item.by.memory_type == SUPERSEDED_TYPE,
                    **(agreement or {"commit": None, "date": None}))
    if agreement is not None:
        message += (f"; the repo agrees: {agreement['short']} on {agreement['date']} "
                    f"(\"{agreement['subject']}\") changed `{agreement['path']}`")
    return Flagged(Finding(FindingCode.DECISION_REVERSAL, message, evidence,
                           related=(item.by.file,)))
