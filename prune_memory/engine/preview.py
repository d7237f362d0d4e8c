"""`plan --diff`: what applying the plan's proposals would write, as unified diffs.

Like `ruff --diff`: updates show the file's new text (description and `modified:` included),
each withdrawal is a `#` line naming the file, and MEMORY.md shows every line the proposals
change. Nothing is written; secrets are masked in every line shown. `held_diff` shows the
same for the suggestions the automation gate held back for review.
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from pathlib import Path

from prune_memory.engine.build import read_current
from prune_memory.engine.build_line import is_index_line
from prune_memory.engine.build_update import NewText, rewritten
from prune_memory.engine.edits import indexedit, indexlines
from prune_memory.errors import PruneMemoryError
from prune_memory.model import INDEX_FILE, Action
from prune_memory.plan import Plan, PlanEntry
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import read_or_none
from prune_memory.store.index_facts import index_line_number

WITHDRAWING = (Action.WITHDRAW, Action.WITHDRAW_INOCULATE)


def plan_diff(root: Path, plan: Plan) -> str:
    """Every change the plan proposes, as one unified diff (empty: nothing would change)."""
    before = read_or_none(root / INDEX_FILE) or b""
    planned = indexedit.IndexText.parse(before).lines  # the plan's line numbers count these
    index = before
    chunks: list[str] = []
    for entry in plan.entries:
        if entry.action is Action.UPDATE and is_index_line(entry.file):
            index = _line_update(entry, planned, index)
        elif entry.action is Action.UPDATE and entry.proposed_text is not None:
            index = _update(root, plan, entry, index, chunks)
        elif entry.action in WITHDRAWING:
            index = _withdrawal(entry, planned, index, chunks)
    chunks.append(_diff(before, index, INDEX_FILE, INDEX_FILE))
    return "".join(chunks)


def held_diff(root: Path, plan: Plan) -> str:
    """What accepting every suggestion held for review would write, as `plan_diff` shows it."""
    held = tuple(replace(e, action=e.suggested_action) for e in plan.entries
                 if e.action is Action.REVIEW and e.suggested_action is not None)
    return plan_diff(root, replace(plan, entries=held)) if held else ""


def _line_update(entry: PlanEntry, planned: list[str], index: bytes) -> bytes:
    """An inline fact's new line in place of the old (the line is the whole memory)."""
    number = index_line_number(entry.file)
    if number is None or number > len(planned) or entry.proposed_text is None:
        return index
    new = entry.proposed_text.rstrip("\r\n")
    return indexlines.remove_line(index, planned[number - 1], number - 1, new)


def _update(root: Path, plan: Plan, entry: PlanEntry, index: bytes, chunks: list[str]) -> bytes:
    if entry.proposed_text is None:
        return index
    try:
        current = read_current(root, entry.file, entry.sha256)
    except PruneMemoryError:
        return index  # gone or changed since the plan: nothing to show
    data, changes = rewritten(current, NewText(entry.proposed_text), index, plan.now)
    chunks.append(_diff(current.raw, data, entry.file, entry.file))
    for old, new in changes:
        index = indexlines.remove_line(index, old, 0, new)
    return index


def _withdrawal(entry: PlanEntry, planned: list[str], index: bytes,
                chunks: list[str]) -> bytes:
    number = index_line_number(entry.file)
    if number is not None:
        return indexlines.remove_line(index, planned[number - 1], number - 1) \
            if number <= len(planned) else index
    chunks.append(f"# {entry.action.value} {entry.file} ({entry.rule}): it moves into a "
                  f"tombstone in deaccessioned/; `restore` brings it back\n")
    return indexedit.remove_entry(index, entry.file)[0]


def _diff(old: bytes, new: bytes, before: str, after: str) -> str:
    if old == new:
        return ""
    lines = difflib.unified_diff(
        mask_text(old.decode("utf-8", "replace")).splitlines(keepends=True),
        mask_text(new.decode("utf-8", "replace")).splitlines(keepends=True),
        f"a/{before}", f"b/{after}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
