"""The plan as rich tables for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from prune_memory.model import Action, FindingCode
from prune_memory.plan import Plan, PlanEntry
from prune_memory.report.rows import SHOWN, first, more

ACTION_STYLE = {
    Action.KEEP: "green", Action.UPDATE: "cyan", Action.WITHDRAW: "red",
    Action.WITHDRAW_INOCULATE: "magenta", Action.INOCULATE: "magenta",
    Action.FLAG: "bold yellow", Action.REVIEW: "yellow",
}


def render_table(plan: Plan) -> RenderableType:
    table = Table(title=f"Plan for {plan.memory_dir}")
    for col in ("entry", "class", "fidelity", "action", "rule", "evidence"):
        table.add_column(col, overflow="fold")
    shown, hidden = first(_ordered(plan.entries))
    for e in shown:
        table.add_row(e.file, e.cls.value, e.fidelity,
                      Text(e.action.value, style=ACTION_STYLE[e.action]), _rule(e),
                      _evidence(e))
    counts = ", ".join(f"{k} {v}" for k, v in plan.summary().items() if v)
    idx = plan.index
    parts: list[RenderableType] = [
        table, *_more(hidden, "entries (proposals first)"), Text(f"Proposed: {counts}"),
        Text(f"Index: {idx['lines']} lines, {idx['chars']} chars, usage {idx['usage']:.0%} "
             f"({idx['binding_cap']} bind)")]
    parts += _lines("Repair", [r["why"] for r in plan.reachability.get("repairs", [])])
    parts += _lines("Coherence (review)",
                    [c["why"] for c in plan.reachability.get("coherence", [])])
    parts += [Text(f"Note: {n}") for n in plan.notes]
    return Group(*parts)


# On a kept entry these only say what could not be checked and how long it sat: the row
# says how much was checked instead (the JSON keeps every finding).
_QUIET_WHEN_KEPT = frozenset({FindingCode.UNVERIFIABLE, FindingCode.STALE})


def _evidence(entry: PlanEntry) -> str:
    if entry.action is not Action.KEEP:
        return "; ".join(f.message for f in entry.findings) or "-"
    said = [f.message for f in entry.findings if f.code not in _QUIET_WHEN_KEPT]
    checked = str(entry.access.get("checked") or "")
    return "; ".join([*said, *([checked] if checked else [])]) or "-"


def _rule(entry: PlanEntry) -> str:
    suggested = entry.suggested_action
    if entry.rule and suggested is not None and suggested is not entry.action:
        return f"{entry.rule} (suggests {suggested.value})"
    return entry.rule or "-"


def _ordered(entries: Sequence[PlanEntry]) -> Sequence[PlanEntry]:
    """In plan order; when the table is drawn in part, the proposals come before the keeps."""
    if len(entries) <= SHOWN:
        return entries
    return [*(e for e in entries if e.action is not Action.KEEP),
            *(e for e in entries if e.action is Action.KEEP)]


def _lines(label: str, texts: list[str]) -> list[Text]:
    shown, hidden = first(texts)
    return [*(Text(f"{label}: {t}") for t in shown), *_more(hidden, f"{label.lower()} lines")]


def _more(hidden: int, what: str) -> list[Text]:
    line = more(hidden, what)
    return [line] if line else []
