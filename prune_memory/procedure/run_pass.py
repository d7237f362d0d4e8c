"""The pass, owned here: plan → review → snapshot → apply → log → scan.

`run_pass` is the whole of `run`. The CLI hands it the review as a callback that turns the
plan's proposals into verdicts: the interactive prompt, or `--yes`'s
`procedure.review.auto_decide`. `step_pass` is the same pass around the one change a
command makes (`withdraw`, `inoculate --withdraw`, `reaccession`, `sweep --apply`): its
own snapshot, audit and record, so `restore --pass` undoes it.

Every pass runs in one write session (the lock; then any step a crash interrupted is
settled, and a pass left open is recorded), and every write goes through the engine, which
journals each step and refuses an entry whose bytes changed since the plan was made.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from prune_memory.analysis.instruction_files import claude_md_sources, read_instructions
from prune_memory.engine import passrecord
from prune_memory.engine.flag import record_pass_marks
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
from prune_memory.engine.session import writing
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw_many
from prune_memory.errors import PruneMemoryError, RefusedError
from prune_memory.model import JSON, Action
from prune_memory.plan import Plan, PlanEntry
from prune_memory.procedure.auditlog import (
    AuditSummary,
    begin_pass,
    record_audit,
    record_pass,
    write_audit,
)
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import Progress, build_plan
from prune_memory.procedure.reachability import Reachability, scan
from prune_memory.procedure.resynthesis import Resynthesis, resynthesize
from prune_memory.procedure.review import WITHDRAWING_CHOICES, Choice, Decided, Verdict
from prune_memory.procedure.review_state import drop_session, kept_entries, remember_keeps
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import Snapshot, take_snapshot

RUN = "run"  # what names a pass `run` makes, in its record and its open marker

# The plan, the keeps of earlier reviews (file → sha256) and the instructions Claude Code
# loads (label, text) → what to apply.
Reviewer = Callable[[Plan, Mapping[str, str], Sequence[tuple[str, str]]], Decided]
Notes = Callable[[list[str]], None]


@dataclass(frozen=True)
class PassReport:
    snapshot: Snapshot
    audited: int
    applied: tuple[Applied, ...]
    skipped: tuple[Skipped, ...]
    warnings: tuple[str, ...]
    pending: tuple[PlanEntry, ...]
    before: JSON
    after: Reachability
    resynthesis: Resynthesis
    pass_id: str = ""  # what `restore --pass` takes to undo this pass (its stamp)
    undo_problem: str = ""  # why the pass could not be recorded for a whole undo
    notes: tuple[str, ...] = ()  # the plan's notes (an unreadable repo, rebuild advice)
    refused: tuple[Skipped, ...] = ()  # what the review would not apply (`--yes`'s notes)

    def count(self, *ops: str) -> int:
        return _done(self.applied, *ops)


def _no_progress() -> AbstractContextManager[Progress]:
    return nullcontext(lambda stage: None)


def run_pass(root: Path, options: PassOptions, review: Reviewer, *,
             snapshot_dir: Path | None = None, ask_kept: bool = False,
             planning: Callable[[], AbstractContextManager[Progress]] = _no_progress,
             notes: Notes = lambda lines: None) -> tuple[Plan, PassReport]:
    """The whole pass under one writer's lock, so interrupted steps of an earlier pass are
    settled first. The instruction files are read once, for the plan and the review.
    `planning` wraps the read-only stages (a progress display); `notes` hears what the
    write session settled before anything else happens."""
    with _session(root) as said:
        notes(said)
        instructions = read_instructions(options.repo, options.home, skip=root)
        with planning() as progress:
            plan = build_plan(root, options, progress, instructions=instructions)
        kept = {} if ask_kept else kept_entries(root)
        decided = review(plan, kept, claude_md_sources(instructions))
        snapshot = begin_pass(root, take_snapshot(root, options.now, snapshot_dir),
                              options.now, RUN)
        report = finish_pass(root, plan, decided.verdicts, decided.repairs,
                             snapshot=snapshot, now=options.now,
                             kept=[v.file for v in decided.keeps],
                             refused=decided.refused)
        if decided.by_person:
            drop_session(root)
            remember_keeps(root, decided.keeps, options.now, report.pass_id)
    return plan, report


def finish_pass(root: Path, plan: Plan, verdicts: Sequence[Verdict], repairs: Sequence[JSON],
                *, snapshot: Snapshot, now: dt.datetime, kept: Collection[str] = (),
                refused: Sequence[Skipped] = ()) -> PassReport:
    """Apply, audit, record, rescan and re-synthesise; returns everything the summary
    shows. `kept`: the entries a person chose to keep as they are (logged apart from the
    ones left for a later pass)."""
    outcome = apply_verdicts(root, plan, verdicts, repairs, snapshot=snapshot, now=now)
    record_audit(root, plan, outcome.applied, snapshot=snapshot, now=now)
    left = pending(plan, verdicts)
    record_pass_marks(root, plan.entries, left, now=now, kept=kept)
    try:  # after every write of the pass, so a whole undo takes all of them back
        pass_id, problem = record_pass(root, snapshot, now, outcome.applied, RUN), ""
    except RefusedError as err:
        pass_id, problem = "", str(err)
    after_dir = load_memory_dir(root)
    register = [(r.register_id, r.tombstone) for r in read_log(root).rows]
    return PassReport(
        snapshot=snapshot, audited=len(plan.entries), applied=tuple(outcome.applied),
        skipped=tuple(outcome.skipped), warnings=tuple(outcome.warnings),
        pending=tuple(left), before=plan.reachability, after=scan(after_dir, register),
        resynthesis=resynthesize(plan, after_dir, outcome.applied), pass_id=pass_id,
        undo_problem=problem, notes=plan.notes, refused=tuple(refused))


def step_pass(root: Path, now: dt.datetime, command: str,
              step: Callable[[Snapshot], ApplyResult], *, snapshot_dir: Path | None = None,
              audited: int | None = 1, opens: bool = True,
              notes: Notes = lambda lines: None) -> tuple[ApplyResult, str]:
    """One command's change as its own pass: a fresh snapshot, the change, its audit
    (`audited` entries looked at; None: no audit) and its record; returns the result and the
    pass's id. `opens=False`: a change that is no pass (a SUPERSEDED note alone) gets the
    snapshot only."""
    with _session(root) as said:
        notes(said)
        snapshot = take_snapshot(root, now, snapshot_dir)
        if not opens:
            return step(snapshot), ""
        begin_pass(root, snapshot, now, command)
        result = step(snapshot)
        if audited is not None:
            summary = AuditSummary(entries_audited=audited,
                                   withdrawn=_done(result.applied, "withdraw"),
                                   updated=_done(result.applied, "update"),
                                   protected=len(read_log(root).protected))
            write_audit(root, summary, snapshot=snapshot, now=now)
        return result, record_pass(root, snapshot, now, result.applied, command)


@contextmanager
def _session(root: Path) -> Iterator[list[str]]:
    """The write session of a pass: the lock, the interrupted steps settled, and each pass
    an earlier process left open recorded, before this one takes its snapshot."""
    with writing(root) as said:
        yield [*said, *passrecord.settle(root)]


def _done(applied: Sequence[Applied], *ops: str) -> int:
    return sum(1 for a in applied if a.op in ops and a.status == "done")


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
        return _done(self.applied, *ops)

    def result(self) -> ApplyResult:
        return ApplyResult(tuple(self.applied), tuple(self.skipped), tuple(self.warnings))


def apply_verdicts(root: Path, plan: Plan, verdicts: Sequence[Verdict], repairs: Sequence[JSON],
                   *, snapshot: Snapshot, now: dt.datetime) -> Outcome:
    """Carry out each accepted verdict and repair; a refused item is skipped, not fatal.
    The order (plain withdrawals, then the rest, then repairs) is the one
    `engine.change_preview.preview` follows, so what the review showed is what is written."""
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
         now: dt.datetime) -> None:
    entry = _entry(plan, verdict.file)
    try:
        if verdict.choice in (Choice.WITHDRAW_INOCULATE, Choice.INOCULATE):
            ino = verdict.inoculation or entry.inoculation
            if ino is None:
                raise ValueError(f"{entry.file}: no SUPERSEDED fields to write")
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
    """The verdicts as the engine previews them (`change_preview`), each with what
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
