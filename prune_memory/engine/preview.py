"""`plan --diff`: what applying the plan's proposals would write, as unified diffs.

Like `ruff --diff`: updates show the file's new text (description, `modified:` and
`[corrected …]` marks included), each withdrawal is a `#` line naming the file and its
tombstone, links unlinked in kept memories and MEMORY.md show every line that changes,
the index repairs included. Nothing is written; secrets are masked in every line shown.
`held_diff` shows the same for the suggestions the automation gate held back for review.
It is `change_preview` over the plan's proposals, the same preview the review shows.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from prune_memory.engine.change_preview import Change, preview
from prune_memory.model import Action
from prune_memory.plan import Plan, PlanEntry

_KINDS = {Action.WITHDRAW: "withdraw", Action.WITHDRAW_INOCULATE: "withdraw+inoculate",
          Action.INOCULATE: "inoculate", Action.UPDATE: "update"}


def plan_diff(root: Path, plan: Plan, *, repairs: bool = True) -> str:
    """Every change the plan proposes, as one unified diff (empty: nothing would change)."""
    changes = [change for entry in plan.entries if (change := as_change(entry)) is not None]
    fixes = plan.reachability.get("repairs", []) if repairs else []
    return preview(root, plan.now, changes, fixes).diff


def held_diff(root: Path, plan: Plan) -> str:
    """What accepting every suggestion held for review would write, as `plan_diff` shows it."""
    held = tuple(replace(e, action=e.suggested_action) for e in plan.entries
                 if e.action is Action.REVIEW and e.suggested_action is not None)
    return plan_diff(root, replace(plan, entries=held), repairs=False) if held else ""


def as_change(entry: PlanEntry, action: Action | None = None) -> Change | None:
    """The plan entry's proposal (or `action` instead) as a change to preview; None for a
    proposal that writes nothing (keep, flag, review, an update with no text)."""
    kind = _KINDS.get(action or entry.action)
    if kind is None or (kind == "update" and entry.proposed_text is None) or (
            kind in ("inoculate", "withdraw+inoculate") and entry.inoculation is None):
        return None
    return Change(kind, entry.file, entry.sha256, text=entry.proposed_text,
                  rule=entry.rule or "", inoculation=entry.inoculation)
