"""Step 6 of the pass: a person reviews each proposed action. This is the review's state.

The prompt lives in the CLI (`cli/review_prompt.py`); here is what a decision is, the walk
through the questions (`proposals.py` says which and in what order), how a stopped review is
resumed, what accepting a proposal writes (`accepted`), and the `--yes` policy
(`auto_decide`), so the logic is tested without a terminal and both reviews share it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from prune_memory.analysis.inoculation_check import inoculation_problem
from prune_memory.engine.entries import is_index_line
from prune_memory.engine.results import Skipped
from prune_memory.errors import ExitCode
from prune_memory.model import JSON, Action, FindingCode
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.proposals import Proposal, offered, review_items, strength
from prune_memory.procedure.repairs import asked
from prune_memory.secrets.mask import mask_text

__all__ = ["AUTO_APPLIED", "Choice", "Decided", "Proposal", "ReviewSession", "Verdict",
           "accepted", "auto_decide", "offered", "proposed_verdict", "review_items",
           "strength", "tally"]

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


@dataclass(frozen=True)
class Decided:
    """What a review hands the pass: the verdicts and index repairs to apply, the keeps, and
    what `--yes` refused. `by_person`: a person answered, so their saved review is done with
    and their keeps are remembered."""

    verdicts: list[Verdict]
    repairs: list[JSON]
    keeps: list[Verdict] = field(default_factory=list)
    refused: list[Skipped] = field(default_factory=list)
    by_person: bool = False


def auto_decide(plan: Plan, kept: Mapping[str, str] = {},
                claude_md: Sequence[tuple[str, str]] = ()) -> Decided:
    """`--yes`: accept every action the plan takes itself (a withdrawal, an inoculation, an
    update with its text) not kept before, but no SUPERSEDED note that fails its check;
    every index repair but the ones a person kept as they are or must decide (`asked`).
    In plan order (not the review's), so register ids follow the plan."""
    verdicts, refused = [], []
    for entry in plan.entries:
        if entry.action not in AUTO_APPLIED or kept.get(entry.file) == entry.sha256 \
                or (entry.action is Action.UPDATE and entry.proposed_text is None):
            continue
        verdict = proposed_verdict(entry)
        problem = inoculation_problem(verdict.inoculation, claude_md) \
            if verdict.inoculation is not None and verdict.choice is not Choice.WITHDRAW \
            else None
        if problem is None:
            verdicts.append(verdict)
        else:
            refused.append(Skipped(verdict.file, f"not inoculated: {problem}",
                                   int(ExitCode.FINDINGS)))
    repairs = [r for r in plan.reachability.get("repairs", []) if not asked(r)
               and kept.get((p := Proposal(repair=r)).key) != p.sha256]
    return Decided(verdicts, repairs, refused=refused)


NoteCheck = Callable[[Inoculation], str | None]  # why a SUPERSEDED note may not be written


def accepted(item: Proposal, check: NoteCheck,
             bodies: Mapping[str, str]) -> list[Verdict] | str:
    """What accepting a question writes (the review's `y`): the plan's action, or for one
    held for review what its evidence suggests — or why there is nothing to accept.
    A secret in a fact written into MEMORY.md is redacted (only the secret goes, to the
    private vault); a topic file that holds one is withdrawn (its original goes there too).
    `bodies`: what an update of each entry rewrites."""
    if item.repair is not None:
        return [Verdict(item.key, Choice.REPAIR)]
    entry = item.entry
    assert entry is not None
    if item.partner is not None:
        return _pair_default(entry, item.partner)
    action = offered(entry)
    if entry.action is Action.FLAG:
        return redaction(entry, bodies) if is_index_line(entry.file) \
            else withdraw_verdicts(entry)
    if action is Action.WITHDRAW:
        return withdraw_verdicts(entry)
    if action in (Action.WITHDRAW_INOCULATE, Action.INOCULATE):
        return _drafted_note(entry, check, action)
    if action is Action.UPDATE:
        if entry.proposed_text is None:
            return ("the evidence shows what is wrong but proves no new text: e writes it, "
                    "n keeps it")
        return [Verdict(entry.file, Choice.UPDATE, text=entry.proposed_text,
                        reason=entry.reason)]
    return "nothing is proposed to change here: n keeps it; w, e or s change it"


def secret_in(entry: PlanEntry) -> bool:
    return any(f.code is FindingCode.SECRET for f in entry.findings)


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


def _drafted_note(entry: PlanEntry, check: NoteCheck, action: Action) -> list[Verdict] | str:
    if entry.inoculation is None:
        return "no note was drafted for it: s writes one"
    if action is Action.INOCULATE and is_index_line(entry.file):
        return "a fact in MEMORY.md is inoculated with its withdrawal: s writes both"
    problem = check(entry.inoculation)
    if problem is not None:
        return f"the drafted note would not be written ({problem}): s writes one by hand"
    choice = Choice.INOCULATE if action is Action.INOCULATE else Choice.WITHDRAW_INOCULATE
    return [Verdict(entry.file, choice, inoculation=entry.inoculation, reason=entry.reason)]


def redaction(entry: PlanEntry, bodies: Mapping[str, str]) -> list[Verdict] | str:
    """The memory with only the secret taken out (the original goes to the vault)."""
    text = bodies.get(entry.file, "")
    masked = mask_text(text)
    if masked == text:
        return "no secret is recognised in its text any more: n keeps it, w withdraws it"
    return [Verdict(entry.file, Choice.UPDATE, text=masked,
                    reason="the secret redacted in review; the original is in the private "
                           "vault — rotate it")]
