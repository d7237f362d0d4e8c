from __future__ import annotations

import datetime as dt

import pytest

from prune_memory.model import Action, Entry, EntryKind, Fidelity, Finding, FindingCode
from prune_memory.model import MemoryClass as K
from prune_memory.stages.access import Access
from prune_memory.stages.classify import Classification
from prune_memory.stages.decide import RULES, Evidence, decide, grade

C = FindingCode
NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
ESTIMATE = Access(reads=None, measured=False, label="estimate: x")


def ev(*codes: FindingCode, cls: K = K.PROJECT, probed: Fidelity = Fidelity.UNVERIFIABLE,
       protected: bool = False, proposed: str | None = None,
       evidence: dict[str, object] | None = None, file: str = "a.md") -> Evidence:
    entry = Entry(file=file, kind=EntryKind.TOPIC, name="a", description="", frontmatter={},
                  memory_type="project", body="body", sha256="0" * 64, size=4, mtime=NOW)
    findings = tuple(Finding(c, f"{c.value} found", dict(evidence or {})) for c in codes)
    return Evidence(entry=entry, classification=Classification(cls, "test"), findings=findings,
                    probed=probed, protected=protected, access=ESTIMATE, proposed_text=proposed)


def outcome(evidence: Evidence) -> tuple[Action, str | None]:
    decision = decide(evidence)
    return decision.action, decision.rule


def test_clean_entry_is_kept_without_a_rule() -> None:
    assert outcome(ev()) == (Action.KEEP, None)


def test_protected_is_checked_before_everything() -> None:
    assert outcome(ev(C.EPHEMERAL, C.PATH_DRIFT, protected=True,
                      probed=Fidelity.FAILED)) == (Action.KEEP, "0-protected")


def test_protected_secret_is_still_flagged_never_withdrawn() -> None:
    assert outcome(ev(C.SECRET, protected=True)) == (Action.FLAG, "0-protected")


def test_secret_outranks_withdrawal_rules() -> None:
    assert outcome(ev(C.SECRET, C.EPHEMERAL, C.DUPLICATE)) == (Action.FLAG, "secret")


def test_poison_is_reviewed() -> None:
    assert outcome(ev(C.POISON, C.EPHEMERAL)) == (Action.REVIEW, "poison")


@pytest.mark.parametrize("evidence", [ev(C.EPHEMERAL), ev(C.NOISE), ev(cls=K.EPHEMERAL),
                                      ev(C.UNVERIFIABLE, evidence={"kind": "never-persist"})])
def test_ephemeral_and_never_persist_are_withdrawn(evidence: Evidence) -> None:
    assert outcome(evidence) == (Action.WITHDRAW, "1-ephemeral")


def test_failed_fidelity_with_a_known_correction_is_an_update() -> None:
    decision = decide(ev(C.COUNT_DRIFT, probed=Fidelity.FAILED, proposed="15 files"))
    assert (decision.action, decision.rule) == (Action.UPDATE, "4-stale-known-correction")
    assert decision.proposed_text == "15 files"


def test_failed_fidelity_without_a_correction_is_withdrawn() -> None:
    assert outcome(ev(C.STATE_DRIFT, probed=Fidelity.FAILED)) == (
        Action.WITHDRAW, "2-failed-fidelity")


def test_deleted_subject_is_withdrawn_as_gone() -> None:
    assert outcome(ev(C.PATH_DRIFT, probed=Fidelity.FAILED,
                      evidence={"deleted_in": "abc"})) == (Action.WITHDRAW, "4-stale-subject-gone")


def test_duplicate_loser_and_survivor() -> None:
    loser = ev(C.DUPLICATE, evidence={"survivor": "b.md"})
    survivor = ev(C.DUPLICATE, evidence={"survivor": "a.md"})
    assert outcome(loser) == (Action.WITHDRAW, "3-duplicate")
    assert outcome(survivor) == (Action.KEEP, "3-duplicate")
    assert outcome(ev(C.CLAUDE_MD_DUPLICATE)) == (Action.WITHDRAW, "3-duplicate")


def test_inoculation_rules() -> None:
    assert outcome(ev(C.SUPERSEDED_CANDIDATE)) == (
        Action.WITHDRAW_INOCULATE, "5i-abandoned-strategy")
    assert outcome(ev(C.DECISION_REVERSAL, cls=K.DECISION)) == (
        Action.INOCULATE, "5i-overridden-decision")
    # a withdrawal whose trigger persists is upgraded
    assert outcome(ev(C.EPHEMERAL, C.SUPERSEDED_CANDIDATE)) == (
        Action.WITHDRAW_INOCULATE, "1-ephemeral")


def test_already_inoculated_decision_is_not_inoculated_again() -> None:
    assert outcome(ev(C.DECISION_REVERSAL, evidence={"inoculated": True})) == (Action.KEEP, None)


def test_reviews_are_never_auto_resolved() -> None:
    assert outcome(ev(C.CONTRADICTION)) == (Action.REVIEW, "contradiction")
    assert outcome(ev(C.NEAR_DUPLICATE)) == (Action.REVIEW, "near-duplicate")
    assert outcome(ev(C.LOW_UTILITY, evidence={"kind": "public-reference"})) == (
        Action.REVIEW, "7-public-reference")


def test_completed_work_is_withdrawn_unless_it_is_a_pattern() -> None:
    done = {"kind": "completed-work"}
    assert outcome(ev(C.LOW_UTILITY, evidence=done)) == (Action.WITHDRAW, "6-completed-work")
    assert outcome(ev(C.LOW_UTILITY, evidence=done, cls=K.PATTERN)) == (Action.KEEP, None)


def test_age_alone_never_withdraws() -> None:
    assert outcome(ev(C.STALE)) == (Action.KEEP, None)
    assert outcome(ev(C.UNVERIFIABLE)) == (Action.KEEP, None)
    assert outcome(ev(C.UNVERIFIABLE, C.STALE)) == (Action.WITHDRAW, "5-low-fidelity")


def test_grades() -> None:
    assert grade(ev(probed=Fidelity.FAILED)) is Fidelity.FAILED
    assert grade(ev(probed=Fidelity.HIGH)) is Fidelity.HIGH
    assert grade(ev(cls=K.FEEDBACK)) is Fidelity.MEDIUM
    assert grade(ev(C.UNVERIFIABLE, C.STALE)) is Fidelity.LOW
    assert grade(ev()) is Fidelity.UNVERIFIABLE


def test_every_rule_id_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "references" / "architecture.md").read_text()
    ids = {"0-protected", "secret", "poison", "5i-overridden-decision", "1-ephemeral",
           "2-failed-fidelity", "4-stale-subject-gone", "3-duplicate", "4-stale-known-correction",
           "5i-abandoned-strategy", "contradiction", "near-duplicate", "5-low-fidelity",
           "6-completed-work", "7-public-reference"}
    assert all(f"`{rule_id}`" in doc for rule_id in ids)
    assert len(RULES) == 14
