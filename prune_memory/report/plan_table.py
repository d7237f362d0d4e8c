"""The plan as rich tables for the terminal."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from prune_memory.model import Action
from prune_memory.plan import Plan

ACTION_STYLE = {
    Action.KEEP: "green", Action.UPDATE: "cyan", Action.WITHDRAW: "red",
    Action.WITHDRAW_INOCULATE: "magenta", Action.INOCULATE: "magenta",
    Action.FLAG: "bold yellow", Action.REVIEW: "yellow",
}


def render_table(plan: Plan) -> RenderableType:
    table = Table(title=f"Plan for {plan.memory_dir}")
    for col in ("entry", "class", "fidelity", "action", "rule", "evidence"):
        table.add_column(col, overflow="fold")
    for e in plan.entries:
        evidence = "; ".join(f.message for f in e.findings) or "-"
        table.add_row(e.file, e.cls.value, e.fidelity,
                      Text(e.action.value, style=ACTION_STYLE[e.action]), e.rule or "-",
                      evidence)
    counts = ", ".join(f"{k} {v}" for k, v in plan.summary().items() if v)
    idx = plan.index
    parts: list[RenderableType] = [
        table, Text(f"Proposed: {counts}"),
        Text(f"Index: {idx['lines']} lines, {idx['chars']} chars, usage {idx['usage']:.0%} "
             f"({idx['binding_cap']} bind)")]
    parts += [Text(f"Repair: {r['why']}") for r in plan.reachability.get("repairs", [])]
    parts += [Text(f"Coherence (review): {c['why']}")
              for c in plan.reachability.get("coherence", [])]
    parts += [Text(f"Note: {n}") for n in plan.notes]
    return Group(*parts)
