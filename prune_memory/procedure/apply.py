"""Step 7 of the pass: carry out what the review accepted, and say what is left pending.

Every write goes through the engine (`engine/`, one module per operation), which holds
the lock, journals each step and refuses an entry whose bytes changed since the plan was made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prune_memory.engine.inoculate import inoculate
from prune_memory.engine.preview import (
    INOCULATE,
    PROTECT,
    UPDATE,
    WITHDRAW,
    WITHDRAW_INOCULATE,
    Change,
)
from prune_memory.engine.protect import protect
from prune_memory.engine.repairs import apply_repairs
from prune_memory.engine.results import Applied, ApplyResult, Skipped, WithdrawRequest
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw_many
from prune_memory.errors import PruneMemoryError
from prune_memory.model import JSON, Action
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.review import WITHDRAWING_CHOICES, Choice, Verdict
from prune_memory.store.snapshot import Snapshot


@dataclass
class Outcome:
    """What the apply step did, item by item."""

    applied: list[Applied] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def add(self, result: ApplyResult) -> None:
        self.applied.extend(result.applied)
        self.skipped.extend(result.skipped)
        self.warnings.extend(w for w in result.warnings if w not in self.warnings)

    def refuse(self, file: str, err: PruneMemoryError) -> None:
        self.skipped.append(Skipped(file, str(err), int(err.exit_code)))

    def count(self, *ops: str) -> int:
        return sum(1 for a in self.applied if a.op in ops and a.status == "done")


def apply_verdicts(root: Path, plan: Plan, verdicts: Sequence[Verdict], repairs: Sequence[JSON],
                   *, snapshot: Snapshot, now: datetime) -> Outcome:
    """Carry out each accepted verdict and repair; a refused item is skipped, not fatal.
    The order (plain withdrawals, then the rest, then repairs) is the one
    `engine.preview.preview` follows, so what the review showed is what is written."""
    outcome = Outcome()
    withdrawals = [_request(plan, v) for v in verdicts if v.choice is Choice.WITHDRAW]
    if withdrawals:
        outcome.add(withdraw_many(root, withdrawals, snapshot=snapshot, now=now))
    for verdict in verdicts:
        if verdict.choice is not Choice.WITHDRAW:
            _one(root, plan, verdict, outcome, snapshot, now)
    if repairs:
        outcome.add(apply_repairs(root, repairs, snapshot=snapshot, now=now))
    return outcome


def _one(root: Path, plan: Plan, verdict: Verdict, outcome: Outcome, snapshot: Snapshot,
         now: datetime) -> None:
    entry = _entry(plan, verdict.file)
    try:
        if verdict.choice in (Choice.WITHDRAW_INOCULATE, Choice.INOCULATE):
            ino = to_engine(verdict, entry)
            withdraw = _request(plan, verdict) if verdict.choice in WITHDRAWING_CHOICES else None
            outcome.add(inoculate(root, entry.file, ino, snapshot=snapshot, now=now,
                                        withdraw=withdraw, expected_sha256=entry.sha256))
        elif verdict.choice is Choice.UPDATE and verdict.text is not None:
            outcome.add(update_entry(
                root, entry.file, verdict.text, reason=verdict.reason or entry.reason,
                snapshot=snapshot, now=now, expected_sha256=entry.sha256,
                rule=entry.rule or "manual", memory_class=entry.cls.value))
        elif verdict.choice is Choice.PROTECT:
            outcome.add(protect(root, entry.file, verdict.reason, now=now))
    except PruneMemoryError as err:
        outcome.refuse(entry.file, err)


_KINDS = {Choice.WITHDRAW: WITHDRAW, Choice.WITHDRAW_INOCULATE: WITHDRAW_INOCULATE,
          Choice.INOCULATE: INOCULATE, Choice.UPDATE: UPDATE, Choice.PROTECT: PROTECT}


def as_changes(plan: Plan, verdicts: Sequence[Verdict]) -> list[Change]:
    """The verdicts as the engine previews them (`preview`), each with what
    `apply_verdicts` would pass the engine for it."""
    changes: list[Change] = []
    for verdict in verdicts:
        kind = _KINDS.get(verdict.choice)
        entry = plan.entry(verdict.file)
        if kind is None or entry is None:
            continue
        changes.append(Change(kind, entry.file, entry.sha256, text=verdict.text,
                              rule=entry.rule or "manual",
                              inoculation=verdict.inoculation or entry.inoculation))
    return changes


def to_engine(verdict: Verdict, entry: PlanEntry) -> Inoculation:
    draft = verdict.inoculation or entry.inoculation
    if draft is None:
        raise ValueError(f"{entry.file}: no SUPERSEDED fields to write")
    return draft


def _request(plan: Plan, verdict: Verdict) -> WithdrawRequest:
    entry = _entry(plan, verdict.file)
    return WithdrawRequest(file=entry.file, reason=verdict.reason or entry.reason,
                           rule=entry.rule or "manual", expected_sha256=entry.sha256,
                           memory_class=entry.cls.value)


def _entry(plan: Plan, file: str) -> PlanEntry:
    entry = plan.entry(file)
    if entry is None:
        raise ValueError(f"{file} is not in the plan")
    return entry


def pending(plan: Plan, verdicts: Sequence[Verdict]) -> list[PlanEntry]:
    """Proposals nobody accepted yet: shown in the summary, proposed again next time."""
    done = {v.file for v in verdicts if v.writes}
    return [e for e in plan.entries if e.action is not Action.KEEP and e.file not in done]
