"""Persistent flags and the `kept` rows of a pass, both kept in `pruning-log.md`.

A flag asks a person to look. Once the pass flags an entry (a secret, say) or someone runs
`prune-memory flag`, the entry is listed under `## Flagged` and every later pass flags it
again, even after the text that caused it is gone, until a person runs `unflag` with a
reason. Entries a pass proposed to change but left in place get a `kept` row, so the log
shows every candidate of the pass, not only what was applied.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from pathlib import Path

from prune_memory.engine.entries import check_name
from prune_memory.engine.results import Applied, ApplyResult, result
from prune_memory.engine.session import writing
from prune_memory.errors import BadInputError
from prune_memory.model import Action
from prune_memory.plan import PlanEntry
from prune_memory.store.files import read_log_text, sha_or_none, write_log_text
from prune_memory.store.pruninglog import (
    FLAGGED_HEADING,
    ChangeRow,
    add_change_row,
    add_change_rows,
    add_listed,
    flagged_items,
    read_log,
    remove_listed,
)

REASON_LIMIT = 160


def flag(root: Path, file: str, reason: str, *, now: datetime) -> ApplyResult:
    """List `file` under `## Flagged` and record the change."""
    return _change(root, file, reason, now, adding=True)


def unflag(root: Path, file: str, reason: str, *, now: datetime) -> ApplyResult:
    """Clear the flag of `file`; only a person does this, and says why."""
    return _change(root, file, reason, now, adding=False)


def _change(root: Path, file: str, reason: str, now: datetime, *, adding: bool) -> ApplyResult:
    name = check_name(file)
    if not reason.strip():
        raise BadInputError("a --reason is required: flag changes are logged")
    with writing(root) as notes:
        text = read_log_text(root)
        listed = name in flagged_items(text)
        if adding and sha_or_none(root / name) is None:
            raise BadInputError(f"{name}: no such entry in {root}")
        if listed == adding:
            raise BadInputError(f"{name} is {'already' if adding else 'not'} flagged")
        day = now.date().isoformat()
        text = add_listed(text, FLAGGED_HEADING, name, reason, f"flagged {day}") if adding \
            else remove_listed(text, FLAGGED_HEADING, name)
        change = "flagged" if adding else "unflagged"
        text = add_change_row(text, ChangeRow(day, change, f"`{name}`", "N/A", reason))
        write_log_text(root, text)
    done = Applied("flag" if adding else "unflag", name, "done",
                   f"{name} is {'now' if adding else 'no longer'} flagged")
    return result(root, read_log(root), [done], [], notes)


def record_pass_marks(root: Path, entries: Sequence[PlanEntry], left: Iterable[PlanEntry], *,
                      now: datetime, kept: Collection[str] = ()) -> None:
    """After a pass: list its new flags, and a row for each proposal left in place — a
    `flagged` row for a secret, `kept` for one a person chose to keep as it is, `skipped`
    for one left for a later pass; one write of the log."""
    with writing(root):
        _record(root, entries, left, now, set(kept))


def _record(root: Path, entries: Sequence[PlanEntry], left: Iterable[PlanEntry],
            now: datetime, kept: set[str]) -> None:
    text = read_log_text(root)
    day = now.date().isoformat()
    known = flagged_items(text)
    for entry in entries:
        if entry.action is Action.FLAG and entry.file not in known \
                and sha_or_none(root / entry.file) is not None:
            text = add_listed(text, FLAGGED_HEADING, entry.file, _short(entry),
                              f"flagged {day}")
    rows = [ChangeRow(day, *_row(entry, kept)) for entry in left]
    if rows:
        text = add_change_rows(text, rows)
    if text != read_log_text(root):
        write_log_text(root, text)


def _row(entry: PlanEntry, kept: set[str]) -> tuple[str, str, str, str]:
    """(change, entry, register id, reason) of one proposal the pass left in place."""
    held = f"; the evidence suggests {entry.suggested_action.value}" \
        if entry.suggested_action is not None else ""
    proposed = f"proposed {entry.action.value} ({entry.rule or 'no rule'}{held})"
    if entry.file in kept:
        return ("kept", f"`{entry.file}`", "N/A",
                f"kept as it is in review: {proposed}; not proposed again until it changes")
    if entry.action is Action.FLAG:
        return ("flagged", f"`{entry.file}`", "N/A",
                f"{_short(entry)}; left for a person")
    return ("skipped", f"`{entry.file}`", "N/A",
            f"skipped (left for a later pass): {proposed}")


def _short(entry: PlanEntry) -> str:
    """The flag's reason in one short line (plan reasons are already masked)."""
    reason = f"{entry.rule}: {' '.join(entry.reason.split())}" if entry.rule else entry.reason
    return reason if len(reason) <= REASON_LIMIT else reason[:REASON_LIMIT - 1] + "…"
