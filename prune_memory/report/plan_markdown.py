"""The plan as markdown, for pasting into a review or a pull request."""

from __future__ import annotations

from prune_memory.model import Action
from prune_memory.plan import Plan, PlanEntry


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _finding_lines(entry: PlanEntry) -> list[str]:
    return [f"  - `{f.code.value}`: {_cell(f.message)}" for f in entry.findings]


def render_markdown(plan: Plan) -> str:
    idx = plan.index
    out = [f"# Pruning plan for `{plan.memory_dir}`", "",
           f"- Date: {plan.now.date().isoformat()}",
           f"- Repo: `{plan.repo}`" if plan.repo else "- Repo: none (claims unverifiable)",
           f"- Index: {idx['lines']} lines, {idx['chars']} chars, usage {idx['usage']:.0%} "
           f"({idx['binding_cap']} bind)",
           "- Proposed: " + ", ".join(f"{k} {v}" for k, v in plan.summary().items() if v), ""]
    out += ["| Entry | Class | Fidelity | Action | Rule |", "|---|---|---|---|---|"]
    out += [f"| `{e.file}` | {e.cls.value} | {e.fidelity} | **{e.action.value}** | "
            f"{e.rule or ''} |" for e in plan.entries]
    out += ["", "## Evidence", ""]
    for e in plan.entries:
        if e.action is Action.KEEP and not e.findings:
            continue
        out.append(f"- `{e.file}` → **{e.action.value}** ({e.rule}): {_cell(e.reason)}")
        out.extend(_finding_lines(e))
    repairs = plan.reachability.get("repairs", [])
    if repairs:
        out += ["", "## Reachability repairs", ""]
        out += [f"- {r['kind']}: {_cell(r['why'])}" for r in repairs]
    coherence = plan.reachability.get("coherence", [])
    if coherence:
        out += ["", "## Coherence (for review, never applied)", ""]
        out += [f"- {c['kind']}: {_cell(c['why'])}" for c in coherence]
    for err in plan.errors:
        out.append(f"- error: `{err['file']}`: {_cell(err['message'])}")
    return "\n".join(out) + "\n"
