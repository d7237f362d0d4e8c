"""`sweep --apply`: make the sweep's replacements, each as a real, reversible change.

Each topic file that mentions OLD is updated (body, description and its index lines
together, with a register id; `restore` reverts it). An index line that belongs to no
updated file — a fact written in MEMORY.md, a heading — is rewritten on its own as a
logged index change. The whole sweep is one pass: its snapshot, audit and pass record
let `restore --pass` undo it.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from prune_memory.analysis.renames import SweepReport
from prune_memory.engine.repairs import apply_repairs
from prune_memory.engine.update import carry, carry_outside_links, update_entry
from prune_memory.errors import PruneMemoryError
from prune_memory.model import JSON, MemoryDir
from prune_memory.procedure.run_pass import Outcome
from prune_memory.store.index import index_line_number
from prune_memory.store.snapshot import Snapshot

RULE = "sweep-rename"


def apply_sweep(root: Path, memdir: MemoryDir, report: SweepReport, *, snapshot: Snapshot,
                now: datetime) -> Outcome:
    """Carry out every replacement of `report`; a protected or changed file is skipped."""
    outcome = Outcome()
    names = ", ".join(f"{r.old} → {r.new}" for r in report.renames)
    updated: set[str] = set()
    for file in report.files:
        entry = memdir.entry(file)
        if entry is None or index_line_number(file) is not None:
            continue
        pairs = _pairs(report, file)
        described = carry(entry.description, pairs)
        try:  # from the memory's own text: the report's copies are masked for display
            outcome.add(update_entry(
                root, file, carry(entry.body, pairs), reason=f"renamed {names}",
                snapshot=snapshot, now=now, expected_sha256=entry.sha256, rule=RULE,
                description=described if described != entry.description else None,
                pairs=pairs))
            updated.add(file)
        except PruneMemoryError as err:
            outcome.refuse(file, err)
    outcome.add(apply_repairs(root, _line_repairs(memdir, report, updated, names),
                              snapshot=snapshot, now=now))
    return outcome


def _pairs(report: SweepReport, file: str) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys((h.found, h.replacement) for h in report.hits if h.file == file))


def _line_repairs(memdir: MemoryDir, report: SweepReport, updated: set[str],
                  names: str) -> list[JSON]:
    """Index lines that mention OLD and link no file updated above (those carry over)."""
    if memdir.index is None:
        return []
    by_number = {line.number: line for line in memdir.index.lines}
    repairs: dict[int, JSON] = {}
    for hit in report.hits:
        number = index_line_number(hit.file)
        line = by_number.get(number) if number is not None else None
        if line is None or any(link.target in updated for link in line.links):
            continue
        to = carry_outside_links(line.text, list(_pairs(report, hit.file)))
        repairs[line.number] = {"kind": "rename-line", "line": line.number, "text": line.text,
                                "to": to, "rule": RULE, "why": f"renamed {names} in an index line"}
    return [repairs[n] for n in sorted(repairs)]
