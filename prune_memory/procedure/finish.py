"""The end of the pass: apply, write the audit, scan again, look for what broke."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from prune_memory.engine import passrecord
from prune_memory.engine.flag import record_pass_marks
from prune_memory.engine.results import Applied, Skipped
from prune_memory.errors import RefusedError
from prune_memory.model import JSON
from prune_memory.plan import Plan, PlanEntry
from prune_memory.procedure.apply import apply_verdicts, pending
from prune_memory.procedure.auditlog import record_audit
from prune_memory.procedure.reachability import Reachability, scan
from prune_memory.procedure.resynthesis import Resynthesis, resynthesize
from prune_memory.procedure.review import Verdict
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import Snapshot

RUN = "run"  # what names a pass `run` makes, in its record and its open marker


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

    def count(self, *ops: str) -> int:
        return sum(1 for a in self.applied if a.op in ops and a.status == "done")


def finish_pass(root: Path, plan: Plan, verdicts: Sequence[Verdict], repairs: Sequence[JSON],
                *, snapshot: Snapshot, now: dt.datetime,
                kept: Collection[str] = ()) -> PassReport:
    """Apply, audit, rescan and re-synthesise; returns everything the summary shows.
    `kept`: the entries a person chose to keep as they are (logged apart from the ones
    left for a later pass)."""
    outcome = apply_verdicts(root, plan, verdicts, repairs, snapshot=snapshot, now=now)
    record_audit(root, plan, outcome, snapshot=snapshot, now=now)
    record_pass_marks(root, plan.entries, pending(plan, verdicts), now=now, kept=kept)
    try:  # after every write of the pass, so a whole undo takes all of them back
        pass_id, problem = record_pass(root, snapshot, now, outcome.applied, RUN), ""
    except RefusedError as err:
        pass_id, problem = "", str(err)
    after_dir = load_memory_dir(root)
    register = [(r.register_id, r.tombstone) for r in read_log(root).rows]
    return PassReport(
        snapshot=snapshot, audited=len(plan.entries), applied=tuple(outcome.applied),
        skipped=tuple(outcome.skipped), warnings=tuple(outcome.warnings),
        pending=tuple(pending(plan, verdicts)), before=plan.reachability,
        after=scan(after_dir, register),
        resynthesis=resynthesize(plan, after_dir, outcome.applied), pass_id=pass_id,
        undo_problem=problem, notes=plan.notes)


def begin_pass(root: Path, snapshot: Snapshot, now: dt.datetime,
               command: str = "") -> Snapshot:
    """Mark the pass of `snapshot` open before its first write: if it stops before
    `record_pass`, `recover` records it all the same, named by `command` as `record_pass`
    would have named it (engine/passrecord.py)."""
    passrecord.begin(root, snapshot.manifest, snapshot.path.name, now.date().isoformat(),
                   command)
    return snapshot


def record_pass(root: Path, snapshot: Snapshot, now: dt.datetime,
                applied: Sequence[Applied], command: str = "") -> str:
    """Keep what this pass changed (under the state directory) so it can be undone whole;
    returns its id, which `restore --pass` takes (never the day: a day can hold several
    passes, and undoing them all took more than was asked)."""
    ids = tuple(a.register_id for a in applied if a.register_id and a.status == "done"
                and a.op != "restore")
    day = now.date().isoformat()
    try:
        record = passrecord.save(root, snapshot.manifest, snapshot.path.name, day, ids,
                                 known=_touched(applied), command=command)
    except OSError as err:  # everything is applied and logged; only the whole undo is missing
        raise RefusedError(f"could not record the pass for a whole undo ({err.strerror or err}"
                           f"{f': {err.filename}' if err.filename else ''}); every change is "
                           "applied and logged — restore its register ids one by one") from err
    passrecord.close(root, snapshot.path.name)
    return record.stamp


def _touched(applied: Sequence[Applied]) -> set[str]:
    """Every file name the pass's changes name: how a removed file whose name the snapshot
    masks is named again in the pass record."""
    return {name for a in applied
            for name in (a.file, a.tombstone, a.superseded, *a.linked) if name}
