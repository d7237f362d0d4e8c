"""The questions a review asks, in the order it asks them.

Each question is a `Proposal`: one plan entry, two entries that contradict or nearly
repeat each other (asked once, side by side), or one index repair (a dangling pointer to
drop, an orphan to index). They come strongest proof first (5 safety … 1 wording, the
repairs with what git shows), and within one strength class by class, so that `a`
(accept every remaining one of this class) takes a run of like proposals.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from prune_memory.evidence.classes import Strength, evidence_words
from prune_memory.model import INDEX_FILE, JSON, Action, FindingCode
from prune_memory.plan import Plan, PlanEntry

# Evidence that the memory is stale: git shows what it names changed (for a plan entry
# that carries no strength of its own).
_STALE = frozenset({FindingCode.PATH_DRIFT, FindingCode.COUNT_DRIFT, FindingCode.STATE_DRIFT,
                    FindingCode.VERSION_DRIFT, FindingCode.NAME_DRIFT,
                    FindingCode.DECISION_REVERSAL})
_PAIRED = (FindingCode.CONTRADICTION, FindingCode.NEAR_DUPLICATE)
REPAIR_WORDS = {"drop-dangling": "a dangling pointer: drop its line",
                "drop-outside": "a pointer out of the folder to a file found nowhere: drop "
                                "its line",
                "fix-link": "a link to a misspelt file name: point it at the file",
                "relink-outside": "a pointer out of the folder that misses the repo file it "
                                  "names: point it there",
                "index-orphan": "a memory no index line points at: index it",
                "rename-line": "an index line naming an old name: rename it"}


def strength(entry: PlanEntry) -> int:
    """How strong the evidence behind a proposal is: the plan's own figure (5 safety,
    4 conflicts, 3 history, 2 shape, 1 wording), or for an entry without one, what its
    findings show (secrets and poison, contradictions, staleness git shows)."""
    if entry.strength:
        return entry.strength
    codes = {f.code for f in entry.findings}
    if codes & {FindingCode.SECRET, FindingCode.POISON}:
        return Strength.SAFETY
    if FindingCode.CONTRADICTION in codes:
        return Strength.CONFLICT
    if codes & _STALE or entry.fidelity == "failed":
        return Strength.HISTORY
    return 0


def offered(entry: PlanEntry) -> Action:
    """What the review offers for `entry`: the plan's action, or for an entry held for
    review, what its evidence suggests."""
    if entry.action is Action.REVIEW and entry.suggested_action is not None:
        return entry.suggested_action
    return entry.action


@dataclass(frozen=True)
class Proposal:
    """One question: an entry (with `partner`, the other side of a pair), or a repair."""

    entry: PlanEntry | None = None
    partner: PlanEntry | None = None
    repair: JSON | None = None

    @property
    def key(self) -> str:
        """What its verdict is filed under: the entry's file, or the repair's own name."""
        if self.entry is not None:
            return self.entry.file
        repair = self.repair or {}
        where = repair.get("file") or f"line {repair.get('line')}"
        return f"{INDEX_FILE} {repair.get('kind')} {where}"

    @property
    def sha256(self) -> str:
        """The content a decision is about: the entry's, or the repair's own text."""
        if self.entry is not None:
            return self.entry.sha256
        data = json.dumps(self.repair, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return hashlib.sha256(data).hexdigest()

    @property
    def files(self) -> tuple[str, ...]:
        """The entries it decides: one, or both sides of a pair."""
        return tuple(e.file for e in (self.entry, self.partner) if e is not None)

    @property
    def strength(self) -> int:
        if self.entry is None:
            return Strength.HISTORY  # what the directory itself shows: a file is not there
        return max(strength(e) for e in (self.entry, self.partner) if e is not None)

    @property
    def group(self) -> str:
        """The class `a` accepts in one go: the action offered and the evidence for it."""
        if self.entry is None:
            return f"repair:{(self.repair or {}).get('kind')}"
        if self.partner is not None:
            return f"pair:{pair_code(self.entry)}"
        entry = self.entry
        return f"{offered(entry).value}:{entry.evidence_class or entry.rule or '-'}"

    def group_words(self) -> str:
        """The class as a reviewer reads it: `a dated session log → withdraw`."""
        if self.entry is None:
            kind = str((self.repair or {}).get("kind"))
            return REPAIR_WORDS.get(kind, kind)
        if self.partner is not None:
            return "two memories that disagree or repeat each other"
        entry = self.entry
        return f"{evidence_words(entry.evidence_class or entry.rule)} → {offered(entry).value}"


def pair_code(entry: PlanEntry) -> str:
    codes = {f.code for f in entry.findings}
    return next((c.value for c in _PAIRED if c in codes), "review")


def review_items(plan: Plan, kept: Mapping[str, str] = {}) -> list[Proposal]:
    """The questions to ask: every proposal not kept before (`kept`: key → sha of the
    content kept), pairs asked once, the repairs too; strongest proof first, then class
    by class in order of first appearance, then plan order."""
    asked = [e for e in plan.entries
             if e.action is not Action.KEEP and kept.get(e.file) != e.sha256]
    items = _paired(asked)
    items += [p for p in (Proposal(repair=r) for r in plan.reachability.get("repairs", []))
              if kept.get(p.key) != p.sha256]
    first: dict[tuple[int, str], int] = {}
    for n, item in enumerate(items):
        first.setdefault((item.strength, item.group), n)
    return [item for _, item in sorted(
        enumerate(items), key=lambda pair: (-pair[1].strength,
                                            first[(pair[1].strength, pair[1].group)],
                                            pair[0]))]


def _paired(entries: list[PlanEntry]) -> list[Proposal]:
    """Each entry as a proposal, a contradiction or near-duplicate held for review joined
    with the other memory it names when that one is asked about too."""
    by_file = {e.file: e for e in entries}
    used: set[str] = set()
    out: list[Proposal] = []
    for entry in entries:
        if entry.file in used:
            continue
        other = by_file.get(_other_file(entry) or "")
        if other is not None and other.file not in used and other.file != entry.file \
                and entry.action is Action.REVIEW and other.action is Action.REVIEW:
            used.update((entry.file, other.file))
            out.append(Proposal(entry=entry, partner=other))
            continue
        used.add(entry.file)
        out.append(Proposal(entry=entry))
    return out


def _other_file(entry: PlanEntry) -> str | None:
    for finding in entry.findings:
        if finding.code in _PAIRED and finding.evidence.get("other_file"):
            return str(finding.evidence["other_file"])
    return None
