"""`due`: whether enough sessions or days have passed since the last audit to run a pass.

It reads only the pruning log and the count of session transcripts, so it stays quick
enough to run from a hook or a shell prompt.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from prune_memory.claude.transcripts import sessions_since
from prune_memory.model import JSON
from prune_memory.store.pruninglog import read_log


@dataclass(frozen=True)
class Due:
    last_audit: str | None
    sessions: int
    days: int | None
    due: bool
    why: str

    def to_json(self) -> JSON:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def last_audit(memory_dir: Path) -> dt.datetime | None:
    """The date of the newest audit section in the pruning log, as UTC midnight."""
    dates = [a.date for a in read_log(memory_dir).audits]
    return dt.datetime.fromisoformat(max(dates)).replace(tzinfo=dt.UTC) if dates else None


def check_due(memory_dir: Path, now: dt.datetime, *, sessions: int, days: int) -> Due:
    """Due when enough sessions or days have passed since the last audit (or none ever ran)."""
    audit = last_audit(memory_dir)
    count = sessions_since(memory_dir.parent, audit)
    if audit is None:
        return Due(None, count, None, True, "no audit recorded in the pruning log yet")
    age = (now - audit).days
    reasons = [f"{count} sessions since the last audit (threshold {sessions})"
               if count >= sessions else "",
               f"{age} days since the last audit (threshold {days})" if age >= days else ""]
    why = "; ".join(r for r in reasons if r) or (
        f"{count} sessions and {age} days since the last audit: not due")
    return Due(audit.date().isoformat(), count, age, any(reasons), why)
