"""Step 6 of the pass: a person reviews each proposed action. This is the review's state.

The terminal screens live in the CLI; here is only what a decision is, the walk through
the questions (`proposals.py` says which and in what order), and how a stopped review is
resumed, so the logic can be tested without a terminal and `--yes` can share it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from prune_memory.model import JSON, Action
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.proposals import Proposal, offered, review_items, strength

__all__ = ["AUTO_APPLIED", "Choice", "Proposal", "ReviewSession", "Verdict", "auto_verdicts",
           "offered", "proposed_verdict", "review_items", "strength", "tally"]

# What `--yes` applies: the plan's own actions, which the automation gate leaves only to
# classes measured right on real folders (an update among them only with its text).
AUTO_APPLIED = (Action.WITHDRAW, Action.WITHDRAW_INOCULATE, Action.INOCULATE, Action.UPDATE)


class Choice(StrEnum):
    WITHDRAW = "withdraw"
    WITHDRAW_INOCULATE = "withdraw+inoculate"
    INOCULATE = "inoculate"
    UPDATE = "update"
    KEEP = "keep"
    PROTECT = "protect"
    REPAIR = "repair"  # an index repair accepted
    SKIP = "skip"


WITHDRAWING_CHOICES = (Choice.WITHDRAW, Choice.WITHDRAW_INOCULATE)


@dataclass(frozen=True)
class Verdict:
    """What the reviewer decided for one entry; `text`, `inoculation`, `reason` as needed.
    `sha256` is the entry's hash when it was decided: a decision is about that content."""

    file: str
    choice: Choice
    text: str | None = None
    inoculation: Inoculation | None = None
    reason: str = ""
    sha256: str = ""

    @property
    def writes(self) -> bool:
        return self.choice not in (Choice.KEEP, Choice.SKIP)

    def to_json(self) -> JSON:
        return {"file": self.file, "choice": self.choice.value, "text": self.text,
                "inoculation": self.inoculation.to_json() if self.inoculation else None,
                "reason": self.reason, "sha256": self.sha256}

    @classmethod
    def from_json(cls, data: JSON) -> Verdict:
        draft = data.get("inoculation")
        return cls(file=str(data["file"]), choice=Choice(data["choice"]), text=data.get("text"),
                   inoculation=Inoculation.from_json(draft) if draft else None,
                   reason=str(data.get("reason") or ""), sha256=str(data.get("sha256") or ""))


@dataclass
class ReviewSession:
    """Walks the questions; `back` revisits one, `stop` ends early (decisions kept)."""

    items: list[Proposal]
    position: int = 0
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # by entry file or repair key
    quit: bool = False

    @classmethod
    def of(cls, plan: Plan, kept: Mapping[str, str] = {}) -> ReviewSession:
        return cls(review_items(plan, kept))

    @classmethod
    def resume(cls, plan: Plan, saved: Sequence[Verdict],
               kept: Mapping[str, str] = {}) -> ReviewSession:
        """The review as it was left: decisions about content that has not changed since
        are taken up again; the first undecided question comes next."""
        session = cls.of(plan, kept)
        current = {p.key: p.sha256 for p in session.items}
        current.update({p.partner.file: p.partner.sha256 for p in session.items if p.partner})
        session.verdicts = {v.file: v for v in saved if current.get(v.file) == v.sha256}
        session.position = next((n for n, p in enumerate(session.items)
                                 if not session.answered(p)), len(session.items))
        return session

    @property
    def current(self) -> Proposal | None:
        if self.quit or self.position >= len(self.items):
            return None
        return self.items[self.position]

    @property
    def finished(self) -> bool:
        return all(self.answered(p) for p in self.items)

    @property
    def left(self) -> int:
        """Questions after the one on screen."""
        return max(len(self.items) - self.position - 1, 0)

    def answered(self, item: Proposal) -> bool:
        return item.key in self.verdicts

    def decide(self, *verdicts: Verdict) -> None:
        """The answer to the question on screen (one verdict per entry it is about)."""
        self.settle(self.items[self.position], *verdicts)
        self.position += 1

    def settle(self, item: Proposal, *verdicts: Verdict) -> None:
        """Answer `item`, wherever it is in the queue (`a` answers a whole class)."""
        shas = {item.key: item.sha256, **({item.partner.file: item.partner.sha256}
                                          if item.partner else {})}
        for verdict in verdicts:
            self.verdicts[verdict.file] = replace(verdict, sha256=shas.get(verdict.file, ""))

    def advance(self) -> None:
        """On to the next question not answered yet (or the end)."""
        self.position = next((n for n in range(self.position, len(self.items))
                              if not self.answered(self.items[n])), len(self.items))

    def same_class(self) -> list[Proposal]:
        """This question and every later undecided one of its class."""
        here = self.items[self.position]
        return [p for p in self.items[self.position:]
                if p.group == here.group and not self.answered(p)]

    def back(self) -> None:
        self.position = max(self.position - 1, 0)

    def stop(self) -> None:
        self.quit = True

    def decided(self) -> list[Verdict]:
        """Verdicts in review order (a revisited question keeps its last verdict)."""
        return [self.verdicts[f] for p in self.items
                for f in (p.key, *(p.files[1:] if p.partner else ())) if f in self.verdicts]

    def to_apply(self) -> list[Verdict]:
        """The changes to memories (index repairs go apart: `repairs`)."""
        return [v for v in self.decided() if v.writes and v.choice is not Choice.REPAIR]

    def repairs(self) -> list[JSON]:
        return [p.repair for p in self.items if p.repair is not None
                and self.verdicts.get(p.key, Verdict(p.key, Choice.SKIP)).choice
                is Choice.REPAIR]

    def kept(self) -> list[Verdict]:
        return [v for v in self.decided() if v.choice is Choice.KEEP]

    def skipped(self) -> list[str]:
        """The entries left undecided (asked again next pass)."""
        return [f for p in self.items if p.entry is not None for f in p.files
                if self.verdicts.get(f, Verdict(f, Choice.SKIP)).choice is Choice.SKIP]


def tally(verdicts: Sequence[Verdict]) -> Counter[str]:
    """How many of each kind of change: withdrawal, update, inoculation, protection."""
    counts: Counter[str] = Counter()
    for verdict in verdicts:
        if verdict.choice in WITHDRAWING_CHOICES:
            counts["withdrawal"] += 1
        if verdict.choice in (Choice.WITHDRAW_INOCULATE, Choice.INOCULATE):
            counts["inoculation"] += 1
        if verdict.choice is Choice.UPDATE:
            counts["update"] += 1
        if verdict.choice is Choice.PROTECT:
            counts["protection"] += 1
    return counts


def proposed_verdict(entry: PlanEntry) -> Verdict:
    """Accepting the plan's proposal as it stands: for an entry held for review, what its
    evidence suggests (a person is choosing it)."""
    action = offered(entry)
    choice = {Action.WITHDRAW: Choice.WITHDRAW, Action.WITHDRAW_INOCULATE:
              Choice.WITHDRAW_INOCULATE, Action.INOCULATE: Choice.INOCULATE,
              Action.UPDATE: Choice.UPDATE}.get(action, Choice.SKIP)
    if choice is Choice.UPDATE and entry.proposed_text is None:
        choice = Choice.SKIP  # the evidence says what is wrong; only a person can rewrite it
    return Verdict(entry.file, choice, text=entry.proposed_text,
                   inoculation=entry.inoculation, reason=entry.reason, sha256=entry.sha256)


def auto_verdicts(plan: Plan,
                  kept: Mapping[str, str] = {}) -> tuple[list[Verdict], list[PlanEntry]]:
    """`--yes`: accept every action the plan takes itself (a withdrawal, an inoculation, an
    update with its text) not kept before; the rest waits. In plan order (not the
    review's), so register ids follow the plan."""
    asked = [e for e in plan.entries
             if e.action is not Action.KEEP and kept.get(e.file) != e.sha256]
    acting = [e for e in asked if e.action in AUTO_APPLIED
              and (e.action is not Action.UPDATE or e.proposed_text is not None)]
    accepted = [proposed_verdict(e) for e in acting]
    pending = [e for e in asked if e not in acting]
    return accepted, pending
