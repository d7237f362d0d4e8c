"""Step 8: write the summary of one audit into `pruning-log.md` (DESIGN §5).

The withdrawals of a pass append their register rows to the audit section named by the
pass's snapshot manifest as they happen (each row is a step's commit point). This stage
fills in that section's summary bullets once the pass knows its figures; rows stay as
they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prune_memory.engine.session import writing
from prune_memory.model import INDEX_FILE, Fidelity
from prune_memory.plan import Plan
from prune_memory.procedure.apply import Outcome
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
                now: datetime) -> Audit:
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


def record_audit(root: Path, plan: Plan, outcome: Outcome, *, snapshot: Snapshot,
                 now: datetime) -> None:
    """One audit section: the pass's figures next to the register rows it appended."""
    drift = Counter(f.code.value for e in plan.entries for f in e.findings if f.code in DRIFT)
    summary = AuditSummary(
        entries_audited=len(plan.entries),
        withdrawn=outcome.count("withdraw"),
        updated=sum(1 for a in outcome.applied
                    if a.op == "update" and a.status == "done" and a.file != INDEX_FILE),
        protected=sum(1 for e in plan.entries if e.protected),
        staleness=dict(drift),
        fidelity_failures=[e.file for e in plan.entries if e.fidelity == Fidelity.FAILED.value],
    )
    write_audit(root, summary, snapshot=snapshot, now=now)
