"""Step 6 of the pass: a person reviews each proposed action. This is the review's state.

The terminal screens live in the CLI; here is only what the keys mean, in which order the
proposals come, and how a stopped review is saved and resumed, so the logic can be tested
without a terminal and `--yes` can share it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from prune_memory.evidence.classes import Strength
from prune_memory.model import JSON, Action, FindingCode
from prune_memory.plan import Inoculation, Plan, PlanEntry

AUTO_APPLIED = (Action.WITHDRAW, Action.WITHDRAW_INOCULATE, Action.INOCULATE)
# Evidence that the memory is stale: git shows what it names changed (for a plan entry
# that carries no strength of its own).
_STALE = frozenset({FindingCode.PATH_DRIFT, FindingCode.COUNT_DRIFT, FindingCode.STATE_DRIFT,
                    FindingCode.VERSION_DRIFT, FindingCode.NAME_DRIFT,
                    FindingCode.DECISION_REVERSAL})


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


def review_items(plan: Plan, kept: Mapping[str, str] = {}) -> list[PlanEntry]:
    """The proposals to ask about, strongest evidence first (plan order within a strength).
    An entry kept before is not asked about again while its content is the same (`kept`:
    file → sha)."""
    return sorted(_asked(plan, kept), key=lambda entry: -strength(entry))


def _asked(plan: Plan, kept: Mapping[str, str]) -> list[PlanEntry]:
    return [e for e in plan.entries
            if e.action is not Action.KEEP and kept.get(e.file) != e.sha256]


@dataclass
class ReviewSession:
    """Walks the proposals; `back` revisits one, `stop` ends early (decisions kept)."""

    items: list[PlanEntry]
    position: int = 0
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    quit: bool = False

    @classmethod
    def of(cls, plan: Plan, kept: Mapping[str, str] = {}) -> ReviewSession:
        return cls(review_items(plan, kept))

    @classmethod
    def resume(cls, plan: Plan, saved: Sequence[Verdict],
               kept: Mapping[str, str] = {}) -> ReviewSession:
        """The review as it was left: decisions about content that has not changed since
        are taken up again; the first undecided proposal comes next."""
        session = cls.of(plan, kept)
        current = {e.file: e.sha256 for e in session.items}
        session.verdicts = {v.file: v for v in saved if current.get(v.file) == v.sha256}
        session.position = next((n for n, e in enumerate(session.items)
                                 if e.file not in session.verdicts), len(session.items))
        return session

    @property
    def current(self) -> PlanEntry | None:
        if self.quit or self.position >= len(self.items):
            return None
        return self.items[self.position]

    @property
    def finished(self) -> bool:
        return all(e.file in self.verdicts for e in self.items)

    def decide(self, verdict: Verdict) -> None:
        entry = self.items[self.position]
        self.verdicts[verdict.file] = replace(verdict, sha256=entry.sha256)
        self.position += 1

    def back(self) -> None:
        self.position = max(self.position - 1, 0)

    def stop(self) -> None:
        self.quit = True

    def decided(self) -> list[Verdict]:
        """Verdicts in review order (a revisited entry keeps its last verdict)."""
        return [self.verdicts[e.file] for e in self.items if e.file in self.verdicts]

    def to_apply(self) -> list[Verdict]:
        return [v for v in self.decided() if v.writes]

    def kept(self) -> list[Verdict]:
        return [v for v in self.decided() if v.choice is Choice.KEEP]


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


def offered(entry: PlanEntry) -> Action:
    """What the review offers for `entry`: the plan's action, or for an entry held for
    review, what its evidence suggests."""
    if entry.action is Action.REVIEW and entry.suggested_action is not None:
        return entry.suggested_action
    return entry.action


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
    """`--yes`: accept every withdrawal and inoculation not kept before; the rest waits.
    In plan order (not the review's), so register ids follow the plan."""
    asked = _asked(plan, kept)
    accepted = [proposed_verdict(e) for e in asked if e.action in AUTO_APPLIED]
    pending = [e for e in asked if e.action not in AUTO_APPLIED]
    return accepted, pending
