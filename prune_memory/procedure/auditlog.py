"""Step 8, the log: what a pass leaves behind — the summary of its audit in
`pruning-log.md` (DESIGN §5), and its record, which `restore --pass` undoes.

The withdrawals of a pass append their register rows to the audit section named by the
pass's snapshot manifest as they happen (each row is a step's commit point). This stage
fills in that section's summary bullets once the pass knows its figures; rows stay as
they are. A pass is marked open before its first write (`begin_pass`) and recorded after
its last (`record_pass`).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from prune_memory.engine import passrecord
from prune_memory.engine.results import Applied
from prune_memory.engine.session import writing
from prune_memory.errors import RefusedError
from prune_memory.model import INDEX_FILE, Fidelity
from prune_memory.plan import Plan
from prune_memory.procedure.rules import DRIFT
from prune_memory.store.files import read_log_text, write_log_text
from prune_memory.store.pruninglog import AUDIT_FIELDS, Audit, parse_log, set_audit_fields
from prune_memory.store.snapshot import Snapshot


@dataclass(frozen=True)
class AuditSummary:
    """The figures of one pass. `staleness` counts findings by code; failures list files."""

    entries_audited: int
    withdrawn: int
    updated: int
    protected: int
    staleness: Mapping[str, int] = field(default_factory=dict)
    fidelity_failures: Sequence[str] = ()


def audit_fields(summary: AuditSummary, manifest: Path) -> list[tuple[str, str]]:
    """The bullets in DESIGN order: audited, withdrawn n (p%), updated, manifest, … protected."""
    values = (
        str(summary.entries_audited),
        f"{summary.withdrawn} ({_percent(summary.withdrawn, summary.entries_audited)})",
        str(summary.updated), str(manifest), _counted(summary.staleness),
        _listed(summary.fidelity_failures), str(summary.protected),
    )
    return list(zip(AUDIT_FIELDS, values, strict=True))


def write_audit(root: Path, summary: AuditSummary, *, snapshot: Snapshot,
                now: dt.datetime) -> Audit:
    """Create or complete the audit section of this pass; returns it as parsed back."""
    with writing(root):
        text = set_audit_fields(read_log_text(root), manifest=str(snapshot.manifest),
                                date=now.date().isoformat(),
                                fields=audit_fields(summary, snapshot.manifest))
        write_log_text(root, text)
    audit = parse_log(text).audit_for(str(snapshot.manifest))
    assert audit is not None
    return audit


def _percent(part: int, whole: int) -> str:
    if whole <= 0:
        return "0%"
    value = f"{100 * part / whole:.1f}".rstrip("0").rstrip(".")
    return f"{value}%"


def _counted(counts: Mapping[str, int]) -> str:
    total = sum(counts.values())
    if not total:
        return "none"
    detail = ", ".join(f"{code} {n}" for code, n in sorted(counts.items()) if n)
    return f"{total} ({detail})"


def _listed(files: Sequence[str]) -> str:
    return f"{len(files)} ({', '.join(files)})" if files else "none"


def record_audit(root: Path, plan: Plan, applied: Sequence[Applied], *, snapshot: Snapshot,
                 now: dt.datetime) -> None:
    """One audit section: the pass's figures next to the register rows it appended."""
    drift = Counter(f.code.value for e in plan.entries for f in e.findings if f.code in DRIFT)
    summary = AuditSummary(
        entries_audited=len(plan.entries),
        withdrawn=sum(1 for a in applied if a.op == "withdraw" and a.status == "done"),
        updated=sum(1 for a in applied
                    if a.op == "update" and a.status == "done" and a.file != INDEX_FILE),
        protected=sum(1 for e in plan.entries if e.protected),
        staleness=dict(drift),
        fidelity_failures=[e.file for e in plan.entries if e.fidelity == Fidelity.FAILED.value],
    )
    write_audit(root, summary, snapshot=snapshot, now=now)


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
