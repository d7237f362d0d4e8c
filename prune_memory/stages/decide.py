"""Step 4's decision tree, in the procedure's order, protected check first.

Each rule looks at one entry's evidence and either decides or passes. The first rule
that decides wins, and its id goes into the plan so every action can be traced back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from prune_memory.model import Action, Entry, Fidelity, Finding, FindingCode, MemoryClass
from prune_memory.stages.access import Access
from prune_memory.stages.classify import Classification

C = FindingCode
DRIFT = frozenset({C.PATH_DRIFT, C.COUNT_DRIFT, C.STATE_DRIFT, C.VERSION_DRIFT, C.NAME_DRIFT})
STALENESS_OR_FIDELITY = DRIFT | {C.UNVERIFIABLE, C.STALE, C.LOW_UTILITY, C.CONTRADICTION}


@dataclass(frozen=True)
class Evidence:
    """Everything the earlier stages learned about one entry."""

    entry: Entry
    classification: Classification
    findings: tuple[Finding, ...]
    probed: Fidelity  # the staleness probes' verdict
    protected: bool
    access: Access
    proposed_text: str | None = None  # the body with every known correction applied
    inoculated_by: str | None = None  # a SUPERSEDED file that already covers this entry

    def has(self, *codes: FindingCode) -> bool:
        return any(f.code in codes for f in self.findings)

    def of(self, *codes: FindingCode) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.code in codes)


@dataclass(frozen=True)
class Decision:
    action: Action
    rule: str | None
    reason: str
    proposed_text: str | None = None
    related: tuple[str, ...] = ()


Rule = Callable[[Evidence], Decision | None]


def _because(sentence: str, findings: tuple[Finding, ...]) -> str:
    detail = "; ".join(f.message for f in findings)
    return f"{sentence}: {detail}" if detail else sentence


def _related(findings: tuple[Finding, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r for f in findings for r in f.related))


def protected(ev: Evidence) -> Decision | None:
    if not ev.protected:
        return None
    if ev.has(C.SECRET):  # flagging changes nothing on disk, so protection still holds
        return Decision(Action.FLAG, "0-protected", _because(
            "Protected; a secret is flagged for a human", ev.of(C.SECRET)))
    return Decision(Action.KEEP, "0-protected", "Protected in the pruning log")


def secret(ev: Evidence) -> Decision | None:
    found = ev.of(C.SECRET)
    return Decision(Action.FLAG, "secret", _because(
        "Holds a secret: flagged for a human to rotate and remove", found)) if found else None


def poison(ev: Evidence) -> Decision | None:
    found = ev.of(C.POISON)
    return Decision(Action.REVIEW, "poison", _because(
        "Untrusted or instruction-like content stored as fact", found)) if found else None


def overridden_decision(ev: Evidence) -> Decision | None:
    found = ev.of(C.DECISION_REVERSAL)
    if not found or ev.inoculated_by or any(f.evidence.get("inoculated") for f in found):
        return None
    return Decision(Action.INOCULATE, "5i-overridden-decision", _because(
        "A decision later overridden; keep it and add a SUPERSEDED record pointing at it",
        found), related=_related(found))


def _never_persist(finding: Finding) -> bool:
    return finding.evidence.get("kind") == "never-persist"


def ephemeral(ev: Evidence) -> Decision | None:
    # Step 6's never-persist patterns join the withdrawal list here, whatever their code.
    found = tuple(f for f in ev.findings
                  if f.code in (C.EPHEMERAL, C.NOISE) or _never_persist(f))
    if not found and ev.classification.cls is not MemoryClass.EPHEMERAL:
        return None
    return Decision(Action.WITHDRAW, "1-ephemeral", _because(
        f"Session-specific content that should never have persisted "
        f"({ev.classification.signal})" if not found else
        "Session-specific content that should never have persisted", found))


def failed_fidelity(ev: Evidence) -> Decision | None:
    if ev.probed is not Fidelity.FAILED:
        return None
    failures = ev.of(*DRIFT)
    if ev.proposed_text is not None:
        return Decision(Action.UPDATE, "4-stale-known-correction", _because(
            "Stale, and the repo shows the current value", failures),
            proposed_text=ev.proposed_text)
    if failures and all(_deleted_path(f) for f in failures):
        return Decision(Action.WITHDRAW, "4-stale-subject-gone", _because(
            "What it describes no longer exists in the repo", failures))
    return Decision(Action.WITHDRAW, "2-failed-fidelity", _because(
        "The repo contradicts it and shows no replacement", failures))


def _deleted_path(finding: Finding) -> bool:
    return finding.code is C.PATH_DRIFT and "current_path" not in finding.evidence


def duplicate(ev: Evidence) -> Decision | None:
    found = ev.of(C.DUPLICATE, C.CLAUDE_MD_DUPLICATE)
    if not found:
        return None
    if all(f.evidence.get("survivor") == ev.entry.file for f in found):
        return Decision(Action.KEEP, "3-duplicate", _because(
            "The most complete copy of a duplicate: kept", found), related=_related(found))
    return Decision(Action.WITHDRAW, "3-duplicate", _because(
        "A duplicate of a more complete copy", found), related=_related(found))


def stale_known_correction(ev: Evidence) -> Decision | None:
    if ev.proposed_text is None:
        return None
    return Decision(Action.UPDATE, "4-stale-known-correction", _because(
        "Stale, and the repo shows the current value", ev.of(*DRIFT)),
        proposed_text=ev.proposed_text)


def abandoned_strategy(ev: Evidence) -> Decision | None:
    found = ev.of(C.SUPERSEDED_CANDIDATE)
    return Decision(Action.WITHDRAW_INOCULATE, "5i-abandoned-strategy", _because(
        "An abandoned approach whose trigger persists: withdraw and inoculate", found)
    ) if found else None


def contradiction(ev: Evidence) -> Decision | None:
    found = ev.of(C.CONTRADICTION)
    return Decision(Action.REVIEW, "contradiction", _because(
        "May contradict another memory: read both side by side", found),
        related=_related(found)) if found else None


def near_duplicate(ev: Evidence) -> Decision | None:
    found = ev.of(C.NEAR_DUPLICATE)
    return Decision(Action.REVIEW, "near-duplicate", _because(
        "Nearly the same as another memory: merge or keep both", found),
        related=_related(found)) if found else None


def low_fidelity(ev: Evidence) -> Decision | None:
    # Age or an access estimate never decides alone: an unverifiable claim must back it.
    if grade(ev) is not Fidelity.LOW:
        return None
    return Decision(Action.WITHDRAW, "5-low-fidelity", _because(
        "Low fidelity: unverifiable and not earning its place", ev.of(*STALENESS_OR_FIDELITY)))


def completed_work(ev: Evidence) -> Decision | None:
    found = tuple(f for f in ev.of(C.LOW_UTILITY) if f.evidence.get("kind") == "completed-work")
    if not found or ev.classification.cls is MemoryClass.PATTERN:
        return None
    return Decision(Action.WITHDRAW, "6-completed-work", _because(
        "About completed work with no reusable pattern", found))


def public_reference(ev: Evidence) -> Decision | None:
    found = tuple(f for f in ev.of(C.LOW_UTILITY) if f.evidence.get("kind") == "public-reference")
    return Decision(Action.REVIEW, "7-public-reference", _because(
        "A pointer to public documentation: withdraw if nothing project-specific is lost",
        found)) if found else None


RULES: tuple[Rule, ...] = (
    protected, secret, poison, overridden_decision, ephemeral, failed_fidelity, duplicate,
    stale_known_correction, abandoned_strategy, contradiction, near_duplicate, low_fidelity,
    completed_work, public_reference,
)


def decide(ev: Evidence) -> Decision:
    """The first rule that decides, upgraded to withdraw+inoculate when step 5 asks for it."""
    for rule in RULES:
        decision = rule(ev)
        if decision is not None:
            return _inoculate_if_needed(ev, decision)
    return Decision(Action.KEEP, None, "")


def _inoculate_if_needed(ev: Evidence, decision: Decision) -> Decision:
    if decision.action is not Action.WITHDRAW or not ev.has(C.SUPERSEDED_CANDIDATE):
        return decision
    return replace(decision, action=Action.WITHDRAW_INOCULATE,
                   reason=decision.reason + "; its trigger persists, so it is inoculated too")


def grade(ev: Evidence) -> Fidelity:
    """The entry's fidelity: probes first, then what the fidelity checks found."""
    if ev.probed in (Fidelity.FAILED, Fidelity.HIGH):
        return ev.probed
    if ev.has(C.UNVERIFIABLE) and ev.has(C.STALE, C.LOW_UTILITY):
        return Fidelity.LOW
    if ev.classification.cls in (MemoryClass.FEEDBACK, MemoryClass.DECISION, MemoryClass.PATTERN):
        return Fidelity.MEDIUM
    return ev.probed
