from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from prune_memory.procedure.due import check_due
from prune_memory.procedure.status import collect_status
from tests.conftest import topic, write_tree

NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
LOG = "# Pruning log\n\n### 2026-11-01 Audit\n- Entries audited: 1\n"


def project(root: Path, name: str, log: str | None, sessions: int,
            session_time: dt.datetime = dt.datetime(2026, 11, 20, tzinfo=dt.UTC)) -> Path:
    files: dict[str, str | bytes] = {"MEMORY.md": "- [A](a.md)\n- [Gone](gone.md)\n",
                                     "a.md": topic("a", "x"), "orphan.md": topic("o", "y")}
    if log is not None:
        files["pruning-log.md"] = log
    memory = write_tree(root / name / "memory", files)
    for n in range(sessions):
        transcript = root / name / f"session-{n}.jsonl"
        transcript.write_text("{}\n")
        os.utime(transcript, (session_time.timestamp(), session_time.timestamp()))
    return memory


def test_status_rows(tmp_path: Path) -> None:
    project(tmp_path, "-home-me-a", LOG, sessions=3)
    project(tmp_path, "-home-me-b", None, sessions=1)
    (tmp_path / "-no-memory").mkdir()
    rows = {r.name: r for r in collect_status(tmp_path)}
    assert set(rows) == {"-home-me-a", "-home-me-b"}
    a = rows["-home-me-a"]
    assert (a.entries, a.orphans, a.dangling, a.last_audit, a.sessions_since) == (
        2, 1, 1, "2026-11-01", 3)
    assert rows["-home-me-b"].last_audit is None


def test_due_by_sessions_days_or_never_audited(tmp_path: Path) -> None:
    busy = project(tmp_path, "busy", LOG, sessions=12)
    quiet = project(tmp_path, "quiet", LOG, sessions=2)
    never = project(tmp_path, "never", None, sessions=0)
    assert check_due(busy, NOW, sessions=10, days=30).due
    result = check_due(quiet, NOW, sessions=10, days=30)
    assert not result.due and result.sessions == 2 and result.days == 28
    assert check_due(quiet, NOW + dt.timedelta(days=5), sessions=10, days=30).due
    assert check_due(never, NOW, sessions=10, days=30).due


def test_transcripts_older_than_the_audit_do_not_count(tmp_path: Path) -> None:
    memory = project(tmp_path, "p", LOG, sessions=4,
                     session_time=dt.datetime(2026, 10, 1, tzinfo=dt.UTC))
    assert check_due(memory, NOW, sessions=1, days=365).sessions == 0
