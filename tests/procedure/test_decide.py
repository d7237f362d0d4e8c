from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from prune_memory.analysis.access import Access
from prune_memory.analysis.classify import Classification
from prune_memory.evidence.classes import EVIDENCE_CLASSES
from prune_memory.model import Action, Entry, EntryKind, Fidelity, Finding, FindingCode
from prune_memory.model import MemoryClass as K
from prune_memory.procedure.automation import MEASURED, automated
from prune_memory.procedure.decide import RULES, Decision, Evidence, decide, grade

C = FindingCode
NOW = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
ESTIMATE = Access(reads=None, measured=False, label="estimate: x")
EVERYTHING = frozenset(EVIDENCE_CLASSES)


def ev(*codes: FindingCode, cls: K = K.PROJECT, probed: Fidelity = Fidelity.UNVERIFIABLE,
       protected: bool = False, proposed: str | None = None,
       evidence: dict[str, object] | None = None, file: str = "a.md",
       memory_type: str | None = "project", body: str = "body") -> Evidence:
    entry = Entry(file=file, kind=EntryKind.TOPIC, name="a", description="", frontmatter={},
                  memory_type=memory_type, body=body, sha256="0" * 64, size=4, mtime=NOW)
    findings = tuple(Finding(c, f"{c.value} found", dict(evidence or {}),
                             proposed_text=proposed) for c in codes)
    return Evidence(entry=entry, classification=Classification(cls, "test"), findings=findings,
                    probed=probed, protected=protected, access=ESTIMATE, proposed_text=proposed)


def outcome(evidence: Evidence, trusted: frozenset[str] = frozenset()) -> tuple[Action, str | None]:
    decision = decide(evidence, trusted)
    return decision.action, decision.rule


def suggestion(evidence: Evidence) -> tuple[Action, Action | None, str | None, str | None]:
    decision = decide(evidence)
    return decision.action, decision.suggested, decision.rule, decision.evidence_class


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


@pytest.mark.parametrize(("evidence", "cls"), [
    (ev(C.EPHEMERAL, evidence={"kind": "session-log"}), "session-log"),
    (ev(C.NOISE, evidence={"score": 0.85}), "noise"),
    (ev(cls=K.EPHEMERAL), "session-chatter"),
])
def test_session_shapes_suggest_withdrawal_and_wait_for_a_person(evidence: Evidence,
                                                                 cls: str) -> None:
    """A dated log, a traceback or "currently chasing" is a shape, not proof: suggested."""
    assert suggestion(evidence) == (Action.REVIEW, Action.WITHDRAW, "1-ephemeral", cls)


def test_a_never_persist_line_suggests_an_update_unless_the_memory_is_a_rule() -> None:
    line = ev(C.EPHEMERAL, evidence={"kind": "never-persist"})
    assert suggestion(line) == (Action.REVIEW, Action.UPDATE, "1-never-persist", "never-persist")
    rule = ev(C.EPHEMERAL, evidence={"kind": "never-persist"}, memory_type="feedback")
    assert outcome(rule) == (Action.KEEP, None)


def test_a_proven_correction_is_an_update_held_until_its_class_is_measured() -> None:
    decision = decide(ev(C.COUNT_DRIFT, probed=Fidelity.FAILED, proposed="15 files"))
    assert (decision.action, decision.suggested) == (Action.REVIEW, Action.UPDATE)
    assert decision.proposed_text == "15 files" and decision.evidence_class == "count-drift"


def test_a_measured_class_acts_without_review() -> None:
    assert "line-count-drift" in MEASURED
    decision = decide(ev(C.COUNT_DRIFT, proposed="`a.py` (40 lines)",
                         evidence={"kind": "line-count"}))
    assert (decision.action, decision.rule) == (Action.UPDATE, "4-stale-known-correction")
    assert decision.suggested is None


def test_an_update_without_text_is_never_automatic() -> None:
    decision = decide(ev(C.COUNT_DRIFT, evidence={"kind": "line-count"}), EVERYTHING)
    assert (decision.action, decision.suggested, decision.rule) == (
        Action.REVIEW, Action.UPDATE, "4-stale-claim")


def test_one_stale_line_in_a_memory_about_something_else_is_not_a_withdrawal() -> None:
    decision = decide(ev(C.PATH_DRIFT, probed=Fidelity.FAILED, evidence={"central": False}))
    assert (decision.suggested, decision.rule) == (Action.UPDATE, "4-stale-claim")


def test_a_deleted_subject_suggests_withdrawal() -> None:
    gone = ev(C.PATH_DRIFT, probed=Fidelity.FAILED, evidence={"central": True})
    assert suggestion(gone) == (Action.REVIEW, Action.WITHDRAW, "4-stale-subject-gone",
                                "subject-deleted")
    lone = ev(C.PATH_DRIFT, evidence={"central": True, "ambiguous": True})
    assert decide(lone).rule == "4-stale-claim"  # a lone name may mean something else


def test_duplicate_loser_and_survivor() -> None:
    loser = ev(C.DUPLICATE, evidence={"survivor": "b.md"})
    survivor = ev(C.DUPLICATE, evidence={"survivor": "a.md"})
    # measured right on the labelled real folders: an exact copy is withdrawn alone
    assert suggestion(loser) == (Action.WITHDRAW, None, "3-duplicate", "exact-duplicate")
    assert outcome(survivor) == (Action.KEEP, "3-duplicate")
    assert decide(ev(C.CLAUDE_MD_DUPLICATE)).evidence_class == "claude-md-duplicate"


def test_inoculation_rules() -> None:
    assert decide(ev(C.SUPERSEDED_CANDIDATE)).suggested is Action.WITHDRAW_INOCULATE
    assert decide(ev(C.DECISION_REVERSAL, cls=K.DECISION)).suggested is Action.INOCULATE
    # a withdrawal whose trigger persists is upgraded
    upgraded = ev(C.EPHEMERAL, C.SUPERSEDED_CANDIDATE, evidence={"kind": "session-log"})
    assert outcome(upgraded, EVERYTHING) == (Action.WITHDRAW_INOCULATE, "1-ephemeral")


def test_already_inoculated_decision_is_not_inoculated_again() -> None:
    assert outcome(ev(C.DECISION_REVERSAL, evidence={"inoculated": True})) == (Action.KEEP, None)


def test_reviews_are_never_auto_resolved() -> None:
    assert outcome(ev(C.CONTRADICTION), EVERYTHING) == (Action.REVIEW, "contradiction")
    assert outcome(ev(C.NEAR_DUPLICATE), EVERYTHING) == (Action.REVIEW, "near-duplicate")
    assert outcome(ev(C.LOW_UTILITY, evidence={"kind": "public-reference"})) == (
        Action.REVIEW, "7-public-reference")


def test_finished_work() -> None:
    done = {"kind": "completed-work"}
    assert suggestion(ev(C.LOW_UTILITY, evidence=done)) == (
        Action.REVIEW, Action.WITHDRAW, "6-completed-work", "completed-work")
    # a lesson (its type, or its wording with no type) outlives the work it came from ...
    assert outcome(ev(C.LOW_UTILITY, evidence=done, cls=K.PATTERN,
                      memory_type="pattern")) == (Action.KEEP, None)
    assert outcome(ev(C.LOW_UTILITY, evidence=done, cls=K.PATTERN,
                      memory_type=None)) == (Action.KEEP, None)
    # ... but a project record that mentions a pattern is still a record of finished work
    assert suggestion(ev(C.LOW_UTILITY, evidence=done, cls=K.PATTERN)) == (
        Action.REVIEW, Action.WITHDRAW, "6-completed-work", "completed-work")
    carried = {"kind": "plan-carried-out"}  # proves, but measured on too few folders yet
    assert suggestion(ev(C.LOW_UTILITY, evidence=carried)) == (
        Action.REVIEW, Action.WITHDRAW, "6-completed-work", "plan-carried-out")
    overtaken = {"kind": "plan-overtaken"}
    assert decide(ev(C.LOW_UTILITY, evidence=overtaken)).evidence_class == "plan-overtaken"
    built = {"kind": "plan-built"}  # an update a person writes: never applied alone
    assert suggestion(ev(C.LOW_UTILITY, evidence=built)) == (
        Action.REVIEW, Action.UPDATE, "6-plan-built", "plan-built")


def test_age_and_absence_never_decide() -> None:
    assert outcome(ev(C.STALE)) == (Action.KEEP, None)
    assert outcome(ev(C.UNVERIFIABLE)) == (Action.KEEP, None)
    assert outcome(ev(C.UNVERIFIABLE, C.STALE)) == (Action.KEEP, None)


def test_trusted_classes_act_and_say_so() -> None:
    loser = ev(C.DUPLICATE, evidence={"survivor": "b.md"})
    decision = decide(loser, frozenset({"exact-duplicate"}))
    assert (decision.action, decision.suggested) == (Action.WITHDRAW, None)
    assert "you trust" in decision.reason


def test_only_proof_may_act_alone_however_well_a_shape_measured() -> None:
    assert automated("line-count-drift")
    assert not automated("line-count-drift", strength=2)
    assert not automated("session-log")


def test_review_order_puts_safety_then_conflicts_first() -> None:
    strengths = {rule: decide(e).strength for rule, e in (
        ("secret", ev(C.SECRET)), ("contradiction", ev(C.CONTRADICTION)),
        ("stale", ev(C.PATH_DRIFT)), ("chatter", ev(cls=K.EPHEMERAL)))}
    assert strengths["secret"] > strengths["contradiction"] > strengths["stale"] \
        > strengths["chatter"]


def test_grades() -> None:
    assert grade(ev(probed=Fidelity.FAILED)) is Fidelity.FAILED
    assert grade(ev(probed=Fidelity.HIGH)) is Fidelity.HIGH
    assert grade(ev(cls=K.FEEDBACK)) is Fidelity.MEDIUM
    assert grade(ev(C.UNVERIFIABLE, C.STALE)) is Fidelity.UNVERIFIABLE


def test_every_rule_id_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "references" / "architecture.md").read_text()
    ids = {"0-protected", "secret", "poison", "5i-overridden-decision", "1-ephemeral",
           "4-stale-subject-gone", "3-duplicate", "4-stale-known-correction", "4-stale-claim",
           "5i-abandoned-strategy", "contradiction", "near-duplicate", "1-never-persist",
           "6-completed-work", "6-plan-built", "7-public-reference", "3-compression-loss",
           "7-low-importance"}
    assert all(f"`{rule_id}`" in doc for rule_id in ids)
    assert len(RULES) == 18
    assert isinstance(decide(ev()), Decision)


@pytest.mark.parametrize(("code", "evidence", "cls"), [
    (C.VERSION_DRIFT, {"kind": "tool-dropped", "tool": "Git LFS", "central": True},
     "subject-deleted"),
    (C.NAME_DRIFT, {"kind": "identifier", "current": None, "central": True}, "subject-deleted"),
])
def test_what_a_memory_is_about_gone_suggests_withdrawal(code: FindingCode,
                                                         evidence: dict[str, object],
                                                         cls: str) -> None:
    assert suggestion(ev(code, evidence=evidence, probed=Fidelity.FAILED)) == (
        Action.REVIEW, Action.WITHDRAW, "4-stale-subject-gone", cls)


def test_a_name_gone_from_one_line_of_a_longer_memory_is_an_update() -> None:
    found = ev(C.NAME_DRIFT, evidence={"kind": "identifier", "current": None, "central": False},
               probed=Fidelity.FAILED)
    assert suggestion(found)[1:] == (Action.UPDATE, "4-stale-claim", "identifier-removed")


def test_a_stub_pointing_at_its_successor_is_the_one_to_withdraw() -> None:
    stub = ev(C.LOW_UTILITY, evidence={"kind": "redirect-stub", "says": "superseded by",
                                       "points_at": "[[b]]"})
    assert suggestion(stub)[1:] == (Action.WITHDRAW, "6-completed-work", "redirect-stub")


def test_marked_done_with_its_work_in_the_repo_is_proven_by_history() -> None:
    done = ev(C.LOW_UTILITY, evidence={"kind": "marked-done", "says": "COMPLETED"},
              probed=Fidelity.HIGH)
    decision = decide(done)
    assert (decision.suggested, decision.evidence_class) == (Action.WITHDRAW, "done-and-built")
    assert decide(ev(C.LOW_UTILITY, evidence={"kind": "marked-done", "says": "DONE"})
                  ).evidence_class == "marked-done"


def test_a_to_do_is_a_plan_not_noise() -> None:
    todo = ev(C.EPHEMERAL, evidence={"score": 0.8, "reasons": ["todo-lines"]})
    assert outcome(todo) == (Action.KEEP, None)
    trace = ev(C.NOISE, evidence={"score": 0.9, "reasons": ["stack-trace"]})
    assert suggestion(trace)[1:] == (Action.WITHDRAW, "1-ephemeral", "noise")


def test_a_measured_update_acts_alone_only_when_the_memory_has_nothing_else_wrong() -> None:
    """Issue 24: a renamed path is corrected alone "in a memory whose other claims hold"; a
    memory its own index line calls superseded, or one with a claim in doubt, waits for a
    person, the fix kept as the suggestion."""
    renamed = Finding(C.PATH_DRIFT, "`a.py` was renamed to `b.py`",
                      {"current_path": "b.py", "similarity": 100}, proposed_text="see `b.py`")
    clean = replace(ev(proposed="see `b.py`", probed=Fidelity.FAILED), findings=(renamed,))
    assert decide(clean).action is Action.UPDATE
    for doubt in (Finding(C.LOW_UTILITY, "its index line says SUPERSEDED",
                          {"kind": "hook-superseded"}),
                  Finding(C.CONTRADICTION, "another memory gives 16", {"kind": "value-conflict"})):
        decision = decide(replace(clean, findings=(renamed, doubt)))
        assert (decision.action, decision.suggested) == (Action.REVIEW, Action.UPDATE), doubt
        assert decision.proposed_text == "see `b.py`"
    # idleness, unchecked claims and a plan marked done say nothing against the other claims
    calm = replace(clean, findings=(renamed, Finding(C.STALE, "idle 90 days", {"score": 0.5}),
                                    Finding(C.UNVERIFIABLE, "1 claim unchecked", {}),
                                    Finding(C.LOW_UTILITY, "marked done", {"kind": "marked-done"})))
    assert decide(calm).action is Action.UPDATE
