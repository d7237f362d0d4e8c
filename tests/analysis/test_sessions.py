"""A record of one session against a lesson that outlives it (shapes from real folders)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from prune_memory.analysis.sessions import session_log_finding
from prune_memory.model import Entry, EntryKind

NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)


def entry(body: str, *, file: str = "x.md", name: str = "x", description: str = "",
          memory_type: str | None = "project") -> Entry:
    return Entry(file=file, kind=EntryKind.TOPIC, name=name, description=description,
                 frontmatter={}, memory_type=memory_type, body=body, sha256="0",
                 size=len(body), mtime=NOW)


CHANGELOG = ("# Billing page (March 22, 2026)\n\n- Plan cards replaced by a carousel\n"
             "- Plan icon changed from a bolt to a crown\n- Prices enlarged on phones\n"
             "- Comparison table text increased\n- Dot indicators added\n")


def test_a_dated_title_over_a_list_of_changes_is_a_session_log() -> None:
    found = session_log_finding(entry(CHANGELOG))
    assert found is not None
    assert "a day named in its title ('March 22, 2026')" in found.message
    assert "a list of changes made then (5 told)" in found.message


def test_a_draft_kept_for_tomorrow_is_a_session_log() -> None:
    body = "## 背景\n\n两版草稿都不满意，明天再写一版。存档用于明日对比。\n"
    found = session_log_finding(entry(body, description="三版对照：明日自写版",
                                      memory_type="feedback"))
    assert found is not None  # its type alone is no rule
    assert "kept for a moment that has passed" in found.message


@pytest.mark.parametrize("body", [
    # root causes with their fixes are lessons: a dated bug log of them stays
    "## 2026-04-13 — Pi rebuild\n\n### Firmware missing\nRoot cause: no firmware package.\n"
    "Fix: install it and reboot.\n\n### Module not loading\nFix: load it before start.\n",
    # a rule with its reason is no log, whatever the date in its title
    "# Deploys (2026-05-01)\n\nAlways deploy after a merge.\n\n**Why:** drift bit us.\n",
])
def test_a_lesson_or_a_rule_is_not_a_log(body: str) -> None:
    assert session_log_finding(entry(body, file="bugs_2026_04_13.md")) is None


def test_a_date_alone_proves_nothing() -> None:
    assert session_log_finding(entry("# Release notes 2026-05-06\n\nWe ship on Fridays.\n")) \
        is None


def test_the_day_a_feature_shipped_dates_the_feature_not_a_session() -> None:
    """A reference for a shipped feature, with the bugs fixed while it was built."""
    body = ("## Exporter — Shipped in 2.1 (2026-04-07)\n\n**Key files:** `exporter.py`, "
            "`web/export.html`\n\n**Bugs fixed during development:**\n"
            "- Empty rows: fixed by reading the open batch too.\n"
            "- Click offset: fixed with scaled coordinates.\n"
            "- Seek: the route was broken without range headers; fixed.\n")
    assert session_log_finding(entry(body)) is None
    assert session_log_finding(entry(body.replace("Shipped in 2.1", "Session"))) is not None


def _index(tmp_path: Path, text: str) -> dict[str, tuple[object, ...]]:
    from prune_memory.analysis.sessions import index_session_logs
    from prune_memory.store.loader import load_memory_dir
    root = tmp_path / "memory"
    root.mkdir(parents=True)
    (root / "MEMORY.md").write_text(text, encoding="utf-8")
    return dict(index_session_logs(load_memory_dir(root)))


SESSIONS = """# Project memory

## Build
- `make all` builds every target

## Previous Session (2026-04-21, cycle 148)

### Feature cycle — incremental builds (75% complete)
- **Status**: green, 7 open issues
- **Actions taken**:
  - added the sources field to the task struct
- Do not push to main while CI is red

## Conventions
- Tags are signed
"""


def test_facts_under_a_dated_session_heading_are_that_sessions_log(tmp_path: Path) -> None:
    found = _index(tmp_path, SESSIONS)
    assert sorted(found) == ["MEMORY.md#L10", "MEMORY.md#L11", "MEMORY.md#L9"]  # L11 nested
    (log,) = found["MEMORY.md#L10"]
    assert log.evidence["kind"] == "session-log"  # type: ignore[attr-defined]
    assert "Previous Session (2026-04-21, cycle 148)" in log.message  # type: ignore[attr-defined]
    # the rule under it, the facts outside it, and an undated heading stay
    assert _index(tmp_path / "b", SESSIONS.replace(" (2026-04-21, cycle 148)", "")) == {}
