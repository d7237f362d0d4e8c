"""Which evidence classes may act without a person: only those measured right on real data.

Every decision names the class of evidence behind it (`Decision.evidence_class`). A class
in `MEASURED` proposed an action on the labelled real-world corpus (`make calibrate`,
`references/judgment.md`) and an expert accepted at least `PRECISION_FLOOR` of those
proposals, over at least `MIN_PROPOSALS` of them. Any other class still shows its
suggestion, but the plan's action is `review`: `run --yes` never applies it, and a person
decides. Re-measure before adding a class here; age or an access estimate is never one.
"""

from __future__ import annotations

from dataclasses import dataclass

from prune_memory.model import Action

PRECISION_FLOOR = 0.95
MIN_PROPOSALS = 5
ACTING = frozenset({Action.WITHDRAW, Action.WITHDRAW_INOCULATE, Action.INOCULATE,
                    Action.UPDATE})


@dataclass(frozen=True)
class Measured:
    """A class's record on the corpus when it was admitted: right of proposed."""

    right: int
    proposed: int

    @property
    def precision(self) -> float:
        return self.right / self.proposed if self.proposed else 0.0


# Evidence class → its record when admitted, on the 39 labelled real folders of
# `../shared/corpus` and `bench/corpus` (`make calibrate`; references/judgment.md has the
# current run and the folders each class came from).
MEASURED: dict[str, Measured] = {
    "line-count-drift": Measured(right=5, proposed=5),
    # a path moved nearly unchanged (git's similarity >= 90%) to one place, in a memory
    # whose other claims hold: corrected in place
    "path-renamed": Measured(right=22, proposed=23),
    # the same text as another memory once case, punctuation and spacing are set aside:
    # the less complete copy goes (a topic file outlives an index line)
    "exact-duplicate": Measured(right=7, proposed=7),
    # Right every time, but proposed too rarely yet to act alone (MIN_PROPOSALS).
    "plan-carried-out": Measured(right=4, proposed=4),
    "done-and-built": Measured(right=2, proposed=2),
}
# Only evidence that proves (git history, the files as they are) may act alone; shapes and
# wording — a dated session log, a phrase — suggest, however well they measured.
MIN_STRENGTH = 3


def automated(evidence_class: str | None, strength: int = MIN_STRENGTH) -> bool:
    """True when the class is measured precise enough, and proves enough, to act alone."""
    record = MEASURED.get(evidence_class or "")
    return (record is not None and record.proposed >= MIN_PROPOSALS
            and record.precision >= PRECISION_FLOOR and strength >= MIN_STRENGTH)


@dataclass(frozen=True)
class Held:
    """What the gate did: the action to plan and, when held back, the suggestion kept."""

    action: Action
    suggested: Action | None


def hold(action: Action, evidence_class: str | None, strength: int = MIN_STRENGTH) -> Held:
    """The planned action: an acting decision of an unmeasured class becomes a review that
    keeps the suggestion; everything else passes unchanged."""
    if action in ACTING and not automated(evidence_class, strength):
        return Held(Action.REVIEW, action)
    return Held(action, None)
