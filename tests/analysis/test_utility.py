from __future__ import annotations

import datetime as dt

import pytest

from prune_memory.analysis.utility import check_utility
from prune_memory.model import Entry, EntryKind, FindingCode

NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)


def entry(body: str, memory_type: str | None = "project") -> Entry:
    return Entry(file="x.md", kind=EntryKind.TOPIC, name="x", description="", frontmatter={},
                 memory_type=memory_type, body=body, sha256="0", size=len(body), mtime=NOW)


@pytest.mark.parametrize("body", [
    "The upload outage is resolved; the postmortem was filed.",
    "PR #12 was merged and there are no follow-up actions left.",
])
def test_completed_work_without_a_lesson(body: str) -> None:
    (finding,) = check_utility(entry(body))
    assert finding.code is FindingCode.LOW_UTILITY
    assert finding.evidence["kind"] == "completed-work" and finding.evidence["says"]


@pytest.mark.parametrize("body", [
    "Until it is fixed, the suite skips the long test.",
    "The outage is resolved. Lesson: always check disk quotas first.",
    "The API lives in src/api/.",
])
def test_open_work_or_a_kept_lesson_is_not_flagged(body: str) -> None:
    assert check_utility(entry(body)) == ()


def test_public_docs_pointer() -> None:
    (finding,) = check_utility(entry("Dataclasses: https://docs.python.org/3/library/x.html",
                                     "reference"))
    assert finding.evidence == {"kind": "public-reference", "hosts": ["docs.python.org"]}


@pytest.mark.parametrize("body", [
    "Our dashboard: https://grafana.internal.example/d/x",
    "See https://docs.python.org/3/ for how we use `api/models.py` dataclasses",
])
def test_project_context_keeps_a_reference(body: str) -> None:
    assert check_utility(entry(body, "reference")) == ()


def test_superseded_records_are_never_low_utility() -> None:
    assert check_utility(entry("The fix went out. It is resolved.", "superseded")) == ()


@pytest.mark.parametrize(("name", "body", "says"), [
    ("Listen bus unification (COMPLETED)", "## What changed\n- one code path\n", "COMPLETED"),
    ("x", "> **✅ 已解决(2026-07-07)**: the list is a pure query now.\n", "✅ 已解决"),
    ("x", "Status: shipped in PR #40.\n\nThe sync runs nightly.\n", "Status: shipped"),
    # a dated note's labelled status, under its date line
    ("Search index rebuild", "**Date:** May 2, 2026\n**Status:** ✅ COMPLETE — merged\n\n"
     "## What was done\n- index rebuilt\n", "COMPLETE"),
])
def test_work_its_own_head_marks_finished(name: str, body: str, says: str) -> None:
    done = Entry(file="x.md", kind=EntryKind.TOPIC, name=name, description="",
                 frontmatter={}, memory_type="project", body=body, sha256="0",
                 size=len(body), mtime=NOW)
    (finding,) = check_utility(done)
    assert finding.evidence["kind"] == "marked-done"
    assert finding.evidence["says"].startswith(says)


@pytest.mark.parametrize(("memory_type", "body"), [
    ("project", "## Loop recorder — shipped in 3.0\n\nWhat it does: records each bus.\n"),
    ("feedback", "# Ticket status\n\nMove a ticket to DONE only after review.\n"),
    # a word of done further down, not labelled as the note's status, is no head
    ("project", "The lock design, as decided.\n\nTwo refactors landed: COMPLETED in 84de970.\n"),
])
def test_a_feature_that_shipped_or_a_rule_is_not_finished_work(memory_type: str,
                                                                body: str) -> None:
    assert check_utility(entry(body, memory_type)) == ()


def test_a_stub_that_only_points_elsewhere() -> None:
    (finding,) = check_utility(entry("# Auth\n\nSuperseded by [[auth-v2]] (2026-05).\n"))
    assert finding.evidence["kind"] == "redirect-stub"
    assert finding.evidence["points_at"] == "[[auth-v2]]"


def test_a_memory_with_content_that_names_its_successor_is_no_stub() -> None:
    body = ("Auth tokens live in the session store. " * 8
            + "Superseded by [[auth-v2]] for the new API only.\n")
    assert [f.evidence["kind"] for f in check_utility(entry(body))] != ["redirect-stub"]
