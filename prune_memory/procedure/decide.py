"""Step 4's decision tree, in the procedure's order, protected check first.

Each rule looks at one entry's evidence and either decides or passes; the first rule that
decides wins. A decision names its rule id and its evidence class. Then the automation gate
(`automation.hold`) turns every acting decision whose class is not measured right on real
memory folders into a `review` that keeps the suggestion: the evidence is shown, a person acts.

What never decides: age, an access estimate, a claim that cannot be checked (absence proves
nothing), or a phrase that merely sounds like a session ("next session") in a lasting rule.
"""

from __future__ import annotations

from dataclasses import replace

from prune_memory.evidence.classes import drift_class
from prune_memory.model import Action, EntryKind, Fidelity, FindingCode, MemoryClass
from prune_memory.procedure.automation import hold
from prune_memory.procedure.rules import RULES, Decision, Evidence

__all__ = ["RULES", "Decision", "Evidence", "decide", "gate", "grade"]

C = FindingCode


def decide(ev: Evidence, trusted: frozenset[str] = frozenset()) -> Decision:
    """The first rule that decides, upgraded to withdraw+inoculate when step 5 asks for it,
    then held for review unless its evidence class is measured to be right (or the user
    trusts that class in the config)."""
    for rule in RULES:
        decision = rule(ev)
        if decision is not None:
            # A fact with lines indented under it is edited by hand: never applied for you;
            # so is a correction that would leave something else wrong in the memory.
            fact_block = ev.entry.kind is EntryKind.INDEX_LINE and len(ev.entry.index_lines) > 1
            doubted = decision.action is Action.UPDATE and _more_is_wrong(ev, decision)
            by_hand = fact_block or doubted
            return gate(_inoculate_if_needed(ev, decision), trusted, by_hand=by_hand)
    return Decision(Action.KEEP, None, "")


def gate(decision: Decision, trusted: frozenset[str] = frozenset(), *,
         by_hand: bool = False) -> Decision:
    """An acting decision of an unmeasured class, or an update with no text, waits for a
    person; the suggestion is kept so the review can offer it."""
    cls = decision.evidence_class
    if by_hand or (decision.action is Action.UPDATE and decision.proposed_text is None):
        cls, trusted = None, frozenset()  # nothing the engine can apply: a person edits it
    if cls and set(cls.split("+")) <= trusted:
        return replace(decision, reason=decision.reason + " (a class you trust in the config)")
    held = hold(decision.action, cls, int(decision.strength))
    if held.suggested is None:
        return decision
    return replace(decision, action=held.action, suggested=held.suggested)


# Findings that a memory's other claims may not hold: a claim that drifted with no known
# fix, a claim another memory or the instructions deny, a copy, a memory its own index line
# calls superseded. Idleness, unchecked claims and utility estimates cast no such doubt.
_DRIFT = frozenset({C.PATH_DRIFT, C.COUNT_DRIFT, C.STATE_DRIFT, C.VERSION_DRIFT,
                    C.NAME_DRIFT})
_DOUBT = frozenset({C.CONTRADICTION, C.DUPLICATE, C.NEAR_DUPLICATE, C.CLAUDE_MD_DUPLICATE,
                    C.EPHEMERAL, C.POISON, C.SECRET, C.DECISION_REVERSAL,
                    C.SUPERSEDED_CANDIDATE})
_DOUBTING_UTILITY = frozenset({"hook-superseded", "redirect-stub"})


def _more_is_wrong(ev: Evidence, decision: Decision) -> bool:
    """The update would fix some claims while others may not hold, so the fix is offered
    to a person rather than applied alone (issue 24: "a memory whose other claims hold")."""
    corrected = set((decision.evidence_class or "").split("+"))
    for f in ev.findings:
        if f.code in _DRIFT and not (f.proposed_text and drift_class(f) in corrected):
            return True
        if f.code in _DOUBT or (f.code is C.LOW_UTILITY
                                and f.evidence.get("kind") in _DOUBTING_UTILITY):
            return True
    return False


def _inoculate_if_needed(ev: Evidence, decision: Decision) -> Decision:
    if decision.action is not Action.WITHDRAW or not ev.has(C.SUPERSEDED_CANDIDATE):
        return decision
    return replace(decision, action=Action.WITHDRAW_INOCULATE,
                   reason=decision.reason + "; its trigger persists, so it is inoculated too")


def grade(ev: Evidence) -> Fidelity:
    """The entry's fidelity: the probes' verdict, medium for rules the repo cannot check."""
    if ev.probed in (Fidelity.FAILED, Fidelity.HIGH):
        return ev.probed
    if ev.classification.cls in (MemoryClass.FEEDBACK, MemoryClass.DECISION, MemoryClass.PATTERN):
        return Fidelity.MEDIUM
    return ev.probed
