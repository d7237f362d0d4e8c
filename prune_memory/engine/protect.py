"""The protected list: entries no command may withdraw, inoculate or update until unprotected."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from prune_memory.engine.entries import check_name
from prune_memory.engine.results import Applied, ApplyResult, result
from prune_memory.engine.session import writing
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.store.files import read_log_text, sha_or_none, write_log_text
from prune_memory.store.pruninglog import (
    ChangeRow,
    ProtectedItem,
    add_change_row,
    add_protected,
    parse_log,
    protected_in,
    read_log,
    remove_protected,
)


def writable(root: Path, file: str,
             protected: tuple[ProtectedItem, ...] | None = None) -> str:
    """Check the protected list first (read from the log unless given), then the name; a
    protected entry is refused outright."""
    name = file.removeprefix("./")
    listed = protected_in(read_log_text(root)) if protected is None else protected
    item = next((p for p in listed if p.file == name), None)
    if item is not None:
        raise RefusedError(f"{name} is protected ({item.reason or 'no reason given'}); "
                           "run `prune-memory unprotect` with a reason first")
    return check_name(name)


def protect(root: Path, file: str, reason: str, *, now: datetime) -> ApplyResult:
    """Add `file` to `## Protected` and record the change; one atomic write of the log."""
    name = check_name(file)
    _need_reason(reason)
    with writing(root) as notes:
        if sha_or_none(root / name) is None:
            raise BadInputError(f"{name}: no such entry in {root}")
        text = read_log_text(root)
        if parse_log(text).is_protected(name):  # idempotent, like `protect` run twice
            done = Applied("protect", name, "unchanged", f"{name} was already protected")
            return result(root, read_log(root), [done], [], notes)
        day = now.date().isoformat()
        text = add_protected(text, name, reason, day)
        text = add_change_row(text, ChangeRow(day, "protected", f"`{name}`", "N/A", reason))
        write_log_text(root, text)
    done = Applied("protect", name, "done", f"{name} is now protected")
    return result(root, read_log(root), [done], [], notes)


def unprotect(root: Path, file: str, reason: str, *, now: datetime) -> ApplyResult:
    """Take `file` off the protected list, logging why."""
    name = file.removeprefix("./")
    _need_reason(reason)
    with writing(root) as notes:
        text = read_log_text(root)
        if not parse_log(text).is_protected(name):
            done = Applied("unprotect", name, "unchanged", f"{name} was not protected")
            return result(root, read_log(root), [done], [], notes)
        day = now.date().isoformat()
        text = remove_protected(text, name)
        text = add_change_row(text, ChangeRow(day, "unprotected", f"`{name}`", "N/A", reason))
        write_log_text(root, text)
    done = Applied("unprotect", name, "done", f"{name} is no longer protected")
    return result(root, read_log(root), [done], [], notes)


def _need_reason(reason: str) -> None:
    if not reason.strip():
        raise BadInputError("a --reason is required: protection changes are logged")
