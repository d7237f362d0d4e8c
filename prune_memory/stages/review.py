"""Step 6 of the pass: a person reviews each proposed action. This is the review's state.

The terminal screens live in the CLI; here is only what the keys mean, so the logic can be
tested without a terminal and `--yes` can share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from prune_memory.model import Action
from prune_memory.plan import Inoculation, Plan, PlanEntry

AUTO_APPLIED = (Action.WITHDRAW, Action.WITHDRAW_INOCULATE, Action.INOCULATE)


class Choice(StrEnum):
    WITHDRAW = "withdraw"
    WITHDRAW_INOCULATE = "withdraw+inoculate"
    INOCULATE = "inoculate"
    UPDATE = "update"
    KEEP = "keep"
    PROTECT = "protect"
    SKIP = "skip"


WITHDRAWING_CHOICES = (Choice.WITHDRAW, Choice.WITHDRAW_INOCULATE)


@dataclass(frozen=True)
class Verdict:
    """What the reviewer decided for one entry; `text`, `inoculation`, `reason` as needed."""

    file: str
    choice: Choice
    text: str | None = None
    inoculation: Inoculation | None = None
    reason: str = ""

    @property
    def writes(self) -> bool:
        return self.choice not in (Choice.KEEP, Choice.SKIP)


@dataclass
class ReviewSession:
    """Walks the entries with a proposed action; `back` revisits, `quit` stops early."""

    items: list[PlanEntry]
    position: int = 0
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    quit: bool = False

    @classmethod
    def of(cls, plan: Plan) -> ReviewSession:
        return cls([e for e in plan.entries if e.action is not Action.KEEP])

    @property
    def current(self) -> PlanEntry | None:
        if self.quit or self.position >= len(self.items):
            return None
        return self.items[self.position]

    def decide(self, verdict: Verdict) -> None:
        self.verdicts[verdict.file] = verdict
        self.position += 1

    def back(self) -> None:
        self.position = max(self.position - 1, 0)

    def stop(self) -> None:
        self.quit = True

    def decided(self) -> list[Verdict]:
        """Verdicts in plan order (a revisited entry keeps its last verdict)."""
        return [self.verdicts[e.file] for e in self.items if e.file in self.verdicts]


def proposed_verdict(entry: PlanEntry) -> Verdict:
    """Accepting the plan's proposal as it stands: for an entry held for review, what its
    evidence suggests (a person is choosing it)."""
    action = entry.suggested_action if entry.action is Action.REVIEW and \
        entry.suggested_action is not None else entry.action
    choice = {Action.WITHDRAW: Choice.WITHDRAW, Action.WITHDRAW_INOCULATE:
              Choice.WITHDRAW_INOCULATE, Action.INOCULATE: Choice.INOCULATE,
              Action.UPDATE: Choice.UPDATE}.get(action, Choice.SKIP)
    if choice is Choice.UPDATE and entry.proposed_text is None:
        choice = Choice.SKIP  # the evidence says what is wrong; only a person can rewrite it
    return Verdict(entry.file, choice, text=entry.proposed_text,
                   inoculation=entry.inoculation, reason=entry.reason)


def auto_verdicts(plan: Plan) -> tuple[list[Verdict], list[PlanEntry]]:
    """`--yes`: accept every withdrawal and inoculation; the rest stays pending."""
    accepted = [proposed_verdict(e) for e in plan.entries if e.action in AUTO_APPLIED]
    pending = [e for e in plan.entries
               if e.action not in AUTO_APPLIED and e.action is not Action.KEEP]
    return accepted, pending
