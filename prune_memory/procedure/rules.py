"""The decision tree's rules (step 4), in the procedure's order, protected check first.

Each rule reads one entry's evidence and either decides or passes. A decision names its
rule id, its evidence class and how strong that evidence is; `decide.py` runs the rules
and applies the automation gate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prune_memory.analysis.access import Access
from prune_memory.analysis.classify import Classification
from prune_memory.analysis.sessions import standing_rule
from prune_memory.evidence.classes import Strength, drift_class
from prune_memory.model import Action, Entry, Fidelity, Finding, FindingCode, MemoryClass

C = FindingCode
DRIFT = frozenset({C.PATH_DRIFT, C.COUNT_DRIFT, C.STATE_DRIFT, C.VERSION_DRIFT, C.NAME_DRIFT})
# Drifts that, in what a memory is about, leave it nothing to be about: withdrawn, not
# updated (a folder deleted, a tool dropped, a name taken out of the code, an issue closed).
SUBJECT_GONE = frozenset({"path-deleted", "state-drift", "tool-dropped", "identifier-removed"})


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
        if not self.findings:
            return ()  # most entries: every rule asks, nothing to sift
        return tuple(f for f in self.findings if f.code in codes)

    def kind(self, code: FindingCode, kind: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.of(code) if f.evidence.get("kind") == kind)


@dataclass(frozen=True)
class Decision:
    action: Action
    rule: str | None
    reason: str
    proposed_text: str | None = None
    related: tuple[str, ...] = ()
    evidence_class: str | None = None
    suggested: Action | None = None  # what the evidence points to, when held for review
    strength: int = 0  # orders the review queue: stronger evidence first


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
            "Protected; a secret is flagged for a human", ev.of(C.SECRET)),
            evidence_class="secret", strength=Strength.SAFETY)
    return Decision(Action.KEEP, "0-protected", "Protected in the pruning log")


def secret(ev: Evidence) -> Decision | None:
    found = ev.of(C.SECRET)
    return Decision(Action.FLAG, "secret", _because(
        "Holds a secret: flagged for a human to rotate and remove", found),
        evidence_class="secret", strength=Strength.SAFETY) if found else None


def poison(ev: Evidence) -> Decision | None:
    found = ev.of(C.POISON)
    return Decision(Action.REVIEW, "poison", _because(
        "Untrusted or instruction-like content stored as fact", found),
        evidence_class="poison", strength=Strength.SAFETY) if found else None


def overridden_decision(ev: Evidence) -> Decision | None:
    found = ev.of(C.DECISION_REVERSAL)
    if not found or ev.inoculated_by or any(f.evidence.get("inoculated") for f in found):
        return None
    return Decision(Action.INOCULATE, "5i-overridden-decision", _because(
        "A decision later overridden; keep it and add a SUPERSEDED record pointing at it",
        found), related=_related(found), evidence_class="decision-reversal",
        strength=Strength.HISTORY)


def session_log(ev: Evidence) -> Decision | None:
    found = ev.kind(C.EPHEMERAL, "session-log")
    return Decision(Action.WITHDRAW, "1-ephemeral", _because(
        "A log of one session rather than a lasting fact", found),
        evidence_class="session-log", strength=Strength.SHAPE) if found else None


# A to-do names work still to do: a plan, which history may show done (an update), not junk.
PLAN_LINES = frozenset({"todo-lines"})


def _only_plans(finding: Finding) -> bool:
    reasons = finding.evidence.get("reasons")
    return isinstance(reasons, list) and bool(reasons) and set(reasons) <= PLAN_LINES


def noise(ev: Evidence) -> Decision | None:
    """What the noise score calls junk or a bare status line ("Step 3 done")."""
    found = tuple(f for f in ev.of(C.NOISE, C.EPHEMERAL) if "score" in f.evidence
                  and not _only_plans(f))
    return Decision(Action.WITHDRAW, "1-ephemeral", _because(
        "Diagnostic output or chatter, not knowledge", found),
        evidence_class="noise", strength=Strength.SHAPE) if found else None


def session_chatter(ev: Evidence) -> Decision | None:
    """Work-in-progress chatter in a memory that states no lasting rule."""
    if ev.classification.cls is not MemoryClass.EPHEMERAL:
        return None
    return Decision(Action.WITHDRAW, "1-ephemeral",
                    f"Session-specific content that should never have persisted "
                    f"({ev.classification.signal}); it states no lasting rule",
                    evidence_class="session-chatter", strength=Strength.WORDING)


def stale_claims(ev: Evidence) -> Decision | None:
    """Claims git shows are no longer true: correct them, or withdraw a memory whose own
    subject is gone. One stale line in a longer memory is never a withdrawal."""
    failures = ev.of(*DRIFT)
    if not failures:
        return None
    classes = sorted({drift_class(f) for f in failures})
    cls = classes[0] if len(classes) == 1 else "+".join(classes)
    if ev.proposed_text is not None and all(f.proposed_text for f in failures):
        return Decision(Action.UPDATE, "4-stale-known-correction", _because(
            "Stale, and the repo shows the current value", failures),
            proposed_text=ev.proposed_text, evidence_class=cls, strength=Strength.HISTORY)
    central = [f for f in failures if f.evidence.get("central") and not f.evidence.get("ambiguous")]
    if central and all(drift_class(f) in SUBJECT_GONE for f in central):
        return Decision(Action.WITHDRAW, "4-stale-subject-gone", _because(
            "What it is about no longer exists in the repo", tuple(central)),
            evidence_class="subject-closed" if drift_class(central[0]) == "state-drift"
            else "subject-deleted",
            strength=Strength.HISTORY)
    return Decision(Action.UPDATE, "4-stale-claim", _because(
        "Some of its lines no longer hold; correct them by hand", failures),
        evidence_class=cls, strength=Strength.HISTORY)


def duplicate(ev: Evidence) -> Decision | None:
    found = ev.of(C.DUPLICATE, C.CLAUDE_MD_DUPLICATE)
    if not found:
        return None
    kinds = sorted({_duplicate_class(f) for f in found})
    if all(f.evidence.get("survivor") == ev.entry.file for f in found):
        return Decision(Action.KEEP, "3-duplicate", _because(
            "The most complete copy of a duplicate: kept", found), related=_related(found))
    said = ("Already in the project's instructions" if all(
        f.code is C.CLAUDE_MD_DUPLICATE for f in found) else "A duplicate of a more complete copy")
    return Decision(Action.WITHDRAW, "3-duplicate", _because(said, found),
                    related=_related(found), evidence_class=kinds[0],
                    strength=Strength.HISTORY)


# A repeat of instructions acts alone only when all of the memory is in one section of a
# file the agent follows, in the same order; a repeated rule with its own story, or a
# repeat of a file the agent only may read, is an overlap a person weighs.
CONTAINED_IN_ORDER = 0.9


def _duplicate_class(finding: Finding) -> str:
    if finding.code is C.CLAUDE_MD_DUPLICATE:
        ev = finding.evidence
        whole = ev.get("whole", True) and ev.get("authoritative", True)
        in_order = ev.get("in_order", 1.0)
        return "claude-md-duplicate" if whole and isinstance(in_order, float | int) \
            and in_order >= CONTAINED_IN_ORDER else "claude-md-overlap"
    return str(finding.evidence.get("kind") or "exact-duplicate")


def abandoned_strategy(ev: Evidence) -> Decision | None:
    found = ev.of(C.SUPERSEDED_CANDIDATE)
    return Decision(Action.WITHDRAW_INOCULATE, "5i-abandoned-strategy", _because(
        "An abandoned approach whose trigger persists: withdraw and inoculate", found),
        evidence_class="abandoned-strategy", strength=Strength.WORDING) if found else None


# The kinds of finished work, the strongest proof first.
FINISHED = ("redirect-stub", "plan-carried-out", "plan-overtaken", "marked-done",
            "completed-work")


def finished_work(ev: Evidence) -> Decision | None:
    """A plan git shows was carried out, or a memory that marks its own work finished."""
    done = next((found for kind in FINISHED if (found := ev.kind(C.LOW_UTILITY, kind))), ())
    # A lesson outlives the work it came from; a project's record that mentions a pattern
    # ("the pattern for new pages") is still a record of that work.
    if not done or (ev.classification.cls is MemoryClass.PATTERN
                    and ev.entry.memory_type != "project"):
        return None
    kind = str(done[0].evidence["kind"])
    if kind == "redirect-stub":
        return Decision(Action.WITHDRAW, "6-completed-work", _because(
            "Superseded: it only points at the memory that holds its content", done),
            related=_related(done), evidence_class=kind, strength=Strength.SHAPE)
    if kind == "marked-done" and ev.probed is Fidelity.HIGH:
        # its own status says done, and every file and name it gives is in the repo now
        return Decision(Action.WITHDRAW, "6-completed-work", _because(
            "Marked finished, and the work it names is in the repo", done),
            evidence_class="done-and-built", strength=Strength.HISTORY)
    return Decision(Action.WITHDRAW, "6-completed-work", _because(
        "About work that is finished", done), evidence_class=kind,
        strength=Strength.SHAPE if kind in ("completed-work", "marked-done")
        else Strength.HISTORY)


def plan_built(ev: Evidence) -> Decision | None:
    """A plan whose additions git shows made since: it says "planned" of what exists."""
    built = ev.kind(C.LOW_UTILITY, "plan-built")
    return Decision(Action.UPDATE, "6-plan-built", _because(
        "Built since it was planned: say what exists now, or withdraw it",
        built), evidence_class="plan-built", strength=Strength.HISTORY) if built else None


def contradiction(ev: Evidence) -> Decision | None:
    found = ev.of(C.CONTRADICTION)
    return Decision(Action.REVIEW, "contradiction", _because(
        "May contradict another memory: read both side by side", found),
        related=_related(found), evidence_class="contradiction",
        strength=Strength.CONFLICT) if found else None


def near_duplicate(ev: Evidence) -> Decision | None:
    found = ev.of(C.NEAR_DUPLICATE)
    return Decision(Action.REVIEW, "near-duplicate", _because(
        "Nearly the same as another memory: merge or keep both", found),
        related=_related(found), evidence_class="near-duplicate",
        strength=Strength.SHAPE) if found else None


def never_persist(ev: Evidence) -> Decision | None:
    """A line matching a never-persist rule: that line, not the memory, is the problem."""
    found = tuple(f for f in ev.findings if f.evidence.get("kind") == "never-persist")
    if not found or standing_rule(ev.entry) is not None:
        return None  # a lasting rule may say "next session" or "didn't work": that is its point
    return Decision(Action.UPDATE, "1-never-persist", _because(
        "A line matches a never-persist rule; drop or rewrite that line", found),
        evidence_class="never-persist", strength=Strength.WORDING)


def lost_reason(ev: Evidence) -> Decision | None:
    """A short decision that dropped the reason its own commit gave (compression loss)."""
    found = ev.kind(C.LOW_UTILITY, "compression-loss")
    return Decision(Action.UPDATE, "3-compression-loss", _because(
        "The decision lost its reason; add it back from the commit", found),
        evidence_class="compression-loss", strength=Strength.HISTORY) if found else None


def low_importance(ev: Evidence) -> Decision | None:
    """Whoever wrote it marked it unimportant: a person decides whether it earns its place."""
    found = ev.kind(C.LOW_UTILITY, "low-importance")
    return Decision(Action.WITHDRAW, "7-low-importance", _because(
        "Marked low importance by whoever wrote it", found),
        evidence_class="low-importance", strength=Strength.WORDING) if found else None


def public_reference(ev: Evidence) -> Decision | None:
    found = ev.kind(C.LOW_UTILITY, "public-reference")
    return Decision(Action.REVIEW, "7-public-reference", _because(
        "A pointer to public documentation: withdraw if nothing project-specific is lost",
        found), evidence_class="public-reference", strength=Strength.WORDING) if found else None


RULES: tuple[Rule, ...] = (
    protected, secret, poison, overridden_decision, session_log, noise, stale_claims,
    duplicate, abandoned_strategy, finished_work, plan_built, session_chatter, contradiction,
    near_duplicate, lost_reason, never_persist, low_importance, public_reference,
)
