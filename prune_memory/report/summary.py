"""The summary printed at the end of `run`."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from prune_memory.model import Action
from prune_memory.stages.passrun import PassReport


def _reach_counts(data: dict[str, object]) -> str:
    keys = ("dangling", "outside", "orphaned", "degraded", "wiki_missing", "unloaded")
    return ", ".join(f"{k} {len(data.get(k, []))}" for k in keys)  # type: ignore[arg-type]


def summary_view(report: PassReport) -> RenderableType:
    withdrawn = report.count("withdraw")
    share = f"{100 * withdrawn / report.audited:.0f}%" if report.audited else "0%"
    inoculated = sum(1 for a in report.applied if a.superseded and a.status == "done")
    flagged = [e for e in report.pending if e.action is Action.FLAG]
    review = [e for e in report.pending if e.action is Action.REVIEW]
    updates = [e for e in report.pending if e.action is Action.UPDATE]
    table = Table(title="Pass summary", show_header=False)
    table.add_column("what")
    table.add_column("count", overflow="fold")
    for what, value in (
        ("entries audited", str(report.audited)),
        ("withdrawn", f"{withdrawn} ({share})"),
        ("updated", str(report.count("update") - _index_updates(report))),
        ("inoculated (SUPERSEDED written)", str(inoculated)),
        ("flagged for a human", ", ".join(e.file for e in flagged) or "0"),
        ("left for review", ", ".join(e.file for e in review) or "0"),
        ("updates pending", ", ".join(e.file for e in updates) or "0"),
        ("reachability before", _reach_counts(report.before)),
        ("reachability after", _reach_counts(report.after.to_json())),
        ("snapshot manifest", str(report.snapshot.manifest)),
    ):
        table.add_row(what, value)
    parts: list[RenderableType] = [table]
    resyn = report.resynthesis
    parts += [Text(f"Shrunk: {s['file']} ({s['before']} → {s['after']} bytes)"
                   + ("; fold what is left into the index (review)" if "fold" in s else ""))
              for s in resyn.shrunk]
    parts += [Text(f"Coherence (review): {c['why']}") for c in resyn.coherence]
    parts += [Text(f"Cold from disuse (keep): {c['file']} — {c['label']}")
              for c in resyn.cold_disuse]
    parts += [Text(f"Cold from irrelevance (look again next pass): {c['file']} — {c['label']}")
              for c in resyn.cold_irrelevance]
    parts += [Text(f"Broken link: {b['file']}: {b['why']}") for b in resyn.broken_links]
    parts += [Text(f"Warning: {w}", style="yellow") for w in report.warnings]
    parts += [Text(f"Note: {n}") for n in report.notes]
    return Group(*parts)


def _index_updates(report: PassReport) -> int:
    return sum(1 for a in report.applied
               if a.op == "update" and a.file == "MEMORY.md" and a.status == "done")
