"""The end of the pass: apply, write the audit, scan again, look for what broke."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from prune_memory.model import JSON, MemoryDir
from prune_memory.plan import Plan, PlanEntry
from prune_memory.stages.apply_result import Applied, Skipped
from prune_memory.stages.flagmarks import record_pass_marks
from prune_memory.stages.reachability import Reachability, scan
from prune_memory.stages.resynthesis import Resynthesis, resynthesize, unlink_text
from prune_memory.stages.review import WITHDRAWING_CHOICES, Verdict
from prune_memory.stages.runpass import apply_verdicts, pending, record_audit
from prune_memory.stages.snapshot import Snapshot
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log


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
    notes: tuple[str, ...] = ()  # the plan's notes (an unreadable repo, rebuild advice)

    def count(self, *ops: str) -> int:
        return sum(1 for a in self.applied if a.op in ops and a.status == "done")


def link_repairs(plan: Plan, memdir: MemoryDir, verdicts: Sequence[Verdict]) -> list[JSON]:
    """`[[name]]` links that the accepted withdrawals would leave pointing nowhere."""
    leaving = {v.file for v in verdicts if v.choice in WITHDRAWING_CHOICES}
    names = {e.name for e in plan.entries if e.file in leaving}
    when = plan.now.date().isoformat()
    out: list[JSON] = []
    for entry in memdir.topics:
        if entry.file in leaving:
            continue
        hit = sorted({lk.target for lk in entry.links if lk.target in names})
        if not hit:
            continue
        body = entry.body
        for name in hit:
            body = unlink_text(body, name, None).replace("(withdrawn)", f"(withdrawn {when})")
        out.append({"kind": "unlink-withdrawn", "file": entry.file, "sha256": entry.sha256,
                    "proposed_text": body, "names": hit,
                    "why": f"links {', '.join(f'[[{n}]]' for n in hit)}, withdrawn in this pass"})
    return out


def finish_pass(root: Path, plan: Plan, verdicts: Sequence[Verdict], repairs: Sequence[JSON],
                *, snapshot: Snapshot, now: dt.datetime) -> PassReport:
    """Apply, audit, rescan and re-synthesise; returns everything the summary shows."""
    outcome = apply_verdicts(root, plan, verdicts, repairs, snapshot=snapshot, now=now)
    record_audit(root, plan, outcome, snapshot=snapshot, now=now)
    record_pass_marks(root, plan.entries, pending(plan, verdicts), now=now)
    after_dir = load_memory_dir(root)
    register = [(r.register_id, r.tombstone) for r in read_log(root).rows]
    return PassReport(
        snapshot=snapshot, audited=len(plan.entries), applied=tuple(outcome.applied),
        skipped=tuple(outcome.skipped), warnings=tuple(outcome.warnings),
        pending=tuple(pending(plan, verdicts)), before=plan.reachability,
        after=scan(after_dir, register),
        resynthesis=resynthesize(plan, after_dir, outcome.applied), notes=plan.notes)


def save_decisions(root: Path, plan: Plan, verdicts: Sequence[Verdict]) -> Path:
    """Keep the review's decisions under the state directory, applied or not."""
    stamp = plan.now.strftime("%Y%m%dT%H%M%SZ")
    path = state_subdir("reviews", dir_key(root)) / f"review-{stamp}.json"
    data = {"memory_dir": str(root), "plan_now": plan.to_json()["now"],
            "decisions": [{"file": v.file, "choice": v.choice.value, "reason": v.reason,
                           "text": v.text,
                           "inoculation": v.inoculation.to_json() if v.inoculation else None}
                          for v in verdicts]}
    atomic.atomic_write(path, json.dumps(data, indent=2).encode("utf-8"))
    path.chmod(0o600)
    return path
