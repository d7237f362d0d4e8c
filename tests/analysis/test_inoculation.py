from __future__ import annotations

import datetime as dt

from prune_memory.analysis.inoculation import draft_inoculation, find_abandoned_strategy
from prune_memory.model import Entry, EntryKind, FindingCode

NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
BODY = ("In April 2026 results were cached in Redis to make sign-in faster. "
        "The cache was abandoned in May: revoked grants kept working. "
        "Sign-in is still slow, which makes a cache tempting again.")


def entry(body: str, memory_type: str = "project", description: str = "") -> Entry:
    return Entry(file="x.md", kind=EntryKind.TOPIC, name="x", description=description,
                 frontmatter={}, memory_type=memory_type, body=body, sha256="0",
                 size=len(body), mtime=NOW)


def test_abandoned_strategy_with_a_persisting_trigger() -> None:
    said = "The Redis sign-in cache was abandoned; do not bring it back"
    finding = find_abandoned_strategy(entry(BODY, description=said))
    assert finding is not None and finding.code is FindingCode.SUPERSEDED_CANDIDATE
    assert finding.evidence == {"abandoned": "abandoned", "trigger": "still"}


def test_reverted_detail_in_a_memory_about_current_code_is_not_abandonment() -> None:
    """"Reverted" and "still" deep in a description of how the code works now say nothing
    about the memory's own subject being given up."""
    body = ("The camera rig builds both cameras in code at startup.\n\n"
            "An attempt to move them into the scene was reverted last month; the offset is "
            "still (0, 32, -24).")
    assert find_abandoned_strategy(entry(body, description="How the match camera works")) \
        is None


def test_trigger_gone_means_no_inoculation() -> None:
    assert find_abandoned_strategy(entry("We tried a cache; it was abandoned.")) is None


def test_superseded_records_do_not_reinoculate() -> None:
    assert find_abandoned_strategy(entry(BODY, "superseded")) is None


def test_draft_fields_come_from_the_memory() -> None:
    draft = draft_inoculation(entry(BODY), NOW)
    assert draft.pattern.startswith("In April 2026 results were cached")
    assert draft.period == "April 2026 to May 2026"
    assert draft.abandonment_reason == "revoked grants kept working."
    assert "still slow" in draft.do_not_rederive
