"""The review without a terminal: order, keys, resume, keeps, a failing editor, 60 columns."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console

from prune_memory.cli.review_flow import describe
from prune_memory.cli.review_ui import Review, handle, run_review
from prune_memory.model import Action, Finding, FindingCode, MemoryClass
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.review import (
    Choice,
    ReviewSession,
    Verdict,
    auto_verdicts,
    review_items,
)
from prune_memory.procedure.review_state import (
    kept_entries,
    load_session,
    remember_keeps,
    save_session,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TOKEN = "ghp_" + "Zq8Lm2Nx7Vb4Kc1Jd5Hf9Gs3Ta6Wy0Pe2Ru4Io"[:36]


def entry(file: str, action: Action, *codes: FindingCode, text: str | None = None,
          fidelity: str = "medium") -> PlanEntry:
    return PlanEntry(file=file, name=file[:-3], memory_type="project", cls=MemoryClass.PROJECT,
                     signal="", protected=False, fidelity=fidelity, access={},
                     findings=tuple(Finding(c, f"{c.value} here") for c in codes),
                     action=action, rule="r", sha256=f"sha-{file}", proposed_text=text,
                     reason=f"why {file}")


def plan_of(*entries: PlanEntry) -> Plan:
    return Plan(memory_dir="m", repo=None, now=NOW, index={}, entries=entries,
                reachability={})


PLAN = plan_of(
    entry("a_rest.md", Action.WITHDRAW),
    entry("b_stale.md", Action.UPDATE, FindingCode.PATH_DRIFT, text="new text"),
    entry("c_kept.md", Action.KEEP),
    entry("d_contra.md", Action.REVIEW, FindingCode.CONTRADICTION),
    entry("e_secret.md", Action.FLAG, FindingCode.SECRET),
    entry("f_poison.md", Action.REVIEW, FindingCode.POISON),
)


def test_secrets_and_poison_come_first_then_contradictions_then_stale_then_the_rest() -> None:
    assert [e.file for e in review_items(PLAN)] == [
        "e_secret.md", "f_poison.md", "d_contra.md", "b_stale.md", "a_rest.md"]


def test_the_plan_s_strength_orders_the_queue_strongest_first() -> None:
    """The plan's own strength decides (5 safety … 1 wording), plan order within one; a
    stale finding does not lift an entry whose evidence the plan rates as wording."""
    plan = plan_of(
        replace(entry("a_wording.md", Action.REVIEW, FindingCode.PATH_DRIFT), strength=1),
        replace(entry("b_shape.md", Action.REVIEW), strength=2),
        replace(entry("c_history.md", Action.WITHDRAW), strength=3),
        replace(entry("d_shape.md", Action.REVIEW), strength=2),
        replace(entry("e_safety.md", Action.FLAG, FindingCode.SECRET), strength=5),
        replace(entry("f_conflict.md", Action.REVIEW), strength=4))
    assert [e.file for e in review_items(plan)] == [
        "e_safety.md", "f_conflict.md", "c_history.md", "b_shape.md", "d_shape.md",
        "a_wording.md"]


HELD = replace(entry("session_2026-03-17.md", Action.REVIEW), suggested_action=Action.WITHDRAW,
               evidence_class="session-log", strength=2)


@pytest.mark.parametrize("key", ["a", "w"])
def test_a_held_proposal_asks_what_its_evidence_suggests_and_a_takes_it(key: str) -> None:
    keys = Keys([key], width=200)
    keys.review.session = ReviewSession.of(plan_of(HELD))
    run_review(keys.review)
    said = " ".join(keys.said.split())
    assert "[1/1] Withdraw session_2026-03-17.md? (suggested: the evidence is a dated " \
           "session log) [w,k,e,v,s,b,q,?]" in said
    assert "the evidence suggests withdraw, a person decides" in said
    assert "Evidence: a dated session log — shape (strength 2 of 5)" in said
    assert keys.review.session.verdicts[HELD.file].choice is Choice.WITHDRAW
    assert not auto_verdicts(plan_of(HELD))[0]  # --yes leaves it for a person


def test_a_suggested_update_without_text_offers_the_editor_first() -> None:
    held = replace(HELD, suggested_action=Action.UPDATE, evidence_class="tool-replaced",
                   strength=3)
    keys = Keys(["a", "k"], width=200)
    keys.review.session = ReviewSession.of(plan_of(held))
    run_review(keys.review)
    said = " ".join(keys.said.split())
    assert "Update session_2026-03-17.md? (suggested: the evidence is the tool it names gone " \
           "from the manifest) [e,w,k,v,s,b,q,?]" in said
    assert "asks a question rather than proposing a change" in said
    assert keys.review.session.verdicts[held.file].choice is Choice.KEEP


def test_a_keep_is_not_asked_again_until_the_content_changes(tmp_path: Path) -> None:
    remember_keeps(tmp_path, [Verdict("a_rest.md", Choice.KEEP, sha256="sha-a_rest.md")], NOW)
    kept = kept_entries(tmp_path)
    assert "a_rest.md" not in [e.file for e in review_items(PLAN, kept)]
    assert "a_rest.md" not in [v.file for v in auto_verdicts(PLAN, kept)[0]]
    changed = {"a_rest.md": "sha-of-older-content"}
    assert "a_rest.md" in [e.file for e in review_items(PLAN, changed)]


def test_a_saved_review_resumes_at_the_first_undecided_proposal(tmp_path: Path) -> None:
    session = ReviewSession.of(PLAN)
    session.decide(Verdict("e_secret.md", Choice.WITHDRAW))
    session.decide(Verdict("f_poison.md", Choice.UPDATE, text="edited"))
    save_session(tmp_path, session.decided(), NOW)
    saved = load_session(tmp_path)
    assert saved is not None
    resumed = ReviewSession.resume(PLAN, saved.verdicts)
    assert resumed.position == 2 and resumed.current is not None
    assert resumed.current.file == "d_contra.md"
    assert resumed.verdicts["f_poison.md"].text == "edited"
    # A memory that changed since is asked about again.
    stale = [Verdict("e_secret.md", Choice.WITHDRAW, sha256="older")]
    assert ReviewSession.resume(PLAN, stale).position == 0


def test_the_confirmation_counts_each_kind_of_change() -> None:
    verdicts = [Verdict("a", Choice.WITHDRAW), Verdict("b", Choice.WITHDRAW_INOCULATE),
                Verdict("c", Choice.UPDATE), Verdict("d", Choice.KEEP)]
    assert describe(verdicts, 2) == "2 withdrawals, 1 update, 1 inoculation and 2 index repairs"
    assert describe([Verdict("a", Choice.UPDATE)], 0) == "1 update"


class Keys:
    """A review driven by a list of answers, its screen captured at a given width."""

    def __init__(self, answers: list[str], width: int = 60) -> None:
        self.out = io.StringIO()
        self.answers: Iterator[str] = iter(answers)
        console = Console(file=self.out, width=width, markup=False, color_system=None)
        self.review = Review(session=ReviewSession.of(PLAN), texts={
            "e_secret.md": f"token {TOKEN} for CI"}, bodies={}, console=console,
            draft=lambda e: Inoculation("p", "e", "r", "d"), check=lambda ino: None)
        self.review.ask = self.ask  # type: ignore[method-assign]

    def ask(self, text: str) -> str:
        answer = next(self.answers)
        self.review.console.print(text + answer)  # as a terminal echoes it
        return answer

    @property
    def said(self) -> str:
        return self.out.getvalue()


def test_prompt_help_unknown_key_and_view_at_60_columns() -> None:
    keys = Keys(["?", "x", "", "v", "k", "q"])
    run_review(keys.review)
    said = keys.said
    assert "[1/5] e_secret.md holds a secret. Withdraw it? [w,k,e,v,s,b,q,?]" in \
        " ".join(said.split())
    assert "fidelity:" in said and "register:" in said and "inoculate:" in said
    assert "Unknown key 'x'" in said and "Type a key, then Enter" in said
    assert TOKEN not in said and "[github-token ghp_… (40 chars)]" in said
    assert all(len(line) <= 60 for line in said.splitlines())
    assert said.count("e_secret.md — Project") == 1  # only the prompt comes again
    assert keys.review.session.verdicts["e_secret.md"].choice is Choice.KEEP
    assert keys.review.session.quit


def test_a_failing_editor_is_a_message_and_the_proposal_stays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", "false")
    monkeypatch.delenv("VISUAL", raising=False)
    keys = Keys([])
    handle("e", PLAN.entries[0], keys.review)
    assert "exited with code 1; nothing changed" in keys.said
    assert keys.review.session.position == 0 and not keys.review.session.verdicts
    monkeypatch.setenv("EDITOR", "/nonexistent/editor")
    handle("e", PLAN.entries[0], keys.review)
    assert "could not start the editor" in keys.said


def test_an_edit_shows_its_diff_and_becomes_an_update(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    editor = tmp_path / "ed.sh"
    editor.write_text("#!/bin/sh\nprintf 'The CI token lives in the vault.\\n' > \"$1\"\n")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    keys = Keys([])
    keys.review.bodies = {"e_secret.md": f"The token {TOKEN} is for CI."}
    handle("e", keys.review.session.items[0], keys.review)
    assert "+The CI token lives in the vault." in keys.said and TOKEN not in keys.said
    verdict = keys.review.session.verdicts["e_secret.md"]
    assert verdict.choice is Choice.UPDATE and "vault" in (verdict.text or "")
