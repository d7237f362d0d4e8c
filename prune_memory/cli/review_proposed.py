"""What `y` takes for a question: the plan's action, or for one held for review what its
evidence suggests — or, when there is nothing to take, why.

A secret in a fact written into MEMORY.md is redacted (only the secret goes, to the private
vault); a topic file that holds one is withdrawn (its original goes to the vault too).
"""

from __future__ import annotations

from prune_memory.cli.review import Review
from prune_memory.engine.entries import is_index_line
from prune_memory.model import Action, FindingCode
from prune_memory.plan import PlanEntry
from prune_memory.procedure.review import Choice, Proposal, Verdict, offered
from prune_memory.secrets.mask import mask_text


def secret_in(entry: PlanEntry) -> bool:
    return any(f.code is FindingCode.SECRET for f in entry.findings)


def default_verdicts(item: Proposal, review: Review) -> list[Verdict] | str:
    """What `y` writes for this question, or why nothing is proposed."""
    if item.repair is not None:
        return [Verdict(item.key, Choice.REPAIR)]
    entry = item.entry
    assert entry is not None
    if item.partner is not None:
        return _pair_default(entry, item.partner)
    action = offered(entry)
    if entry.action is Action.FLAG:
        return redaction(entry, review) if is_index_line(entry.file) \
            else withdraw_verdicts(entry)
    if action is Action.WITHDRAW:
        return withdraw_verdicts(entry)
    if action in (Action.WITHDRAW_INOCULATE, Action.INOCULATE):
        return _drafted_note(entry, review, action)
    if action is Action.UPDATE:
        if entry.proposed_text is None:
            return ("the evidence shows what is wrong but proves no new text: e writes it, "
                    "n keeps it")
        return [Verdict(entry.file, Choice.UPDATE, text=entry.proposed_text,
                        reason=entry.reason)]
    return "nothing is proposed to change here: n keeps it; w, e or s change it"


def withdraw_verdicts(entry: PlanEntry, reason: str = "") -> list[Verdict]:
    return [Verdict(entry.file, Choice.WITHDRAW, reason=reason or entry.reason)]


def _pair_default(first: PlanEntry, second: PlanEntry) -> list[Verdict] | str:
    keep = next((f.evidence.get("suggested_keep") for f in first.findings
                 if f.evidence.get("suggested_keep")), None)
    if keep not in (first.file, second.file):
        return "nothing is suggested for this pair: 1 or 2 withdraws one, n keeps both"
    gone, stays = (second, first) if keep == first.file else (first, second)
    return [*withdraw_verdicts(gone, f"{stays.file} says nearly the same; withdrawn in "
                                     "review"), Verdict(stays.file, Choice.KEEP)]


def _drafted_note(entry: PlanEntry, review: Review, action: Action) -> list[Verdict] | str:
    if entry.inoculation is None:
        return "no note was drafted for it: s writes one"
    if action is Action.INOCULATE and is_index_line(entry.file):
        return "a fact in MEMORY.md is inoculated with its withdrawal: s writes both"
    problem = review.check(entry.inoculation)
    if problem is not None:
        return f"the drafted note would not be written ({problem}): s writes one by hand"
    choice = Choice.INOCULATE if action is Action.INOCULATE else Choice.WITHDRAW_INOCULATE
    return [Verdict(entry.file, choice, inoculation=entry.inoculation, reason=entry.reason)]


def redaction(entry: PlanEntry, review: Review) -> list[Verdict] | str:
    """The memory with only the secret taken out (the original goes to the vault)."""
    text = review.bodies.get(entry.file, "")
    masked = mask_text(text)
    if masked == text:
        return "no secret is recognised in its text any more: n keeps it, w withdraws it"
    return [Verdict(entry.file, Choice.UPDATE, text=masked,
                    reason="the secret redacted in review; the original is in the private "
                           "vault — rotate it")]
