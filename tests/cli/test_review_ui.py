"""The review without a terminal: order, pairs, repairs, the keys of `git add -p` and their
words, a whole class in one key, the SUPERSEDED note typed by hand, resume, keeps, the
editor, redaction, 60 columns."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console

from prune_memory.cli.proposal_text import describe
from prune_memory.cli.review_prompt import Review, handle, keys_for, run_review
from prune_memory.model import Action, Finding, FindingCode, MemoryClass
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.review import (
    Choice,
    Proposal,
    ReviewSession,
    Verdict,
    auto_decide,
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
REFUSALS = ("is not a key here", "does not apply", "Nothing to accept", "Type a key")


def entry(file: str, action: Action, *codes: FindingCode, text: str | None = None,
          fidelity: str = "medium", evidence: dict[str, object] | None = None) -> PlanEntry:
    return PlanEntry(file=file, name=file[:-3], memory_type="project", cls=MemoryClass.PROJECT,
                     signal="", protected=False, fidelity=fidelity, access={},
                     findings=tuple(Finding(c, f"{c.value} here", dict(evidence or {}))
                                    for c in codes),
                     action=action, rule="r", sha256=f"sha-{file}", proposed_text=text,
                     reason=f"why {file}")


def plan_of(*entries: PlanEntry, repairs: tuple[dict[str, object], ...] = ()) -> Plan:
    return Plan(memory_dir="m", repo=None, now=NOW, index={}, entries=entries,
                reachability={"repairs": list(repairs)})


def held(file: str, suggests: Action, evidence_class: str, strength: int = 2,
         **kwargs: object) -> PlanEntry:
    return replace(entry(file, Action.REVIEW, **kwargs),  # type: ignore[arg-type]
                   suggested_action=suggests, evidence_class=evidence_class, strength=strength)


DANGLING = {"kind": "drop-dangling", "line": 9, "target": "gone.md",
            "text": "- [Gone](gone.md) — x", "why": "index line 9 links gone.md, which does "
                                                    "not exist"}
PLAN = plan_of(
    entry("a_rest.md", Action.WITHDRAW),
    entry("b_stale.md", Action.UPDATE, FindingCode.PATH_DRIFT, text="new text"),
    entry("c_kept.md", Action.KEEP),
    entry("d_contra.md", Action.REVIEW, FindingCode.CONTRADICTION,
          evidence={"other_file": "d_other.md", "text": "resets nightly"}),
    entry("e_secret.md", Action.FLAG, FindingCode.SECRET),
    entry("f_poison.md", Action.REVIEW, FindingCode.POISON),
    entry("d_other.md", Action.REVIEW, FindingCode.CONTRADICTION,
          evidence={"other_file": "d_contra.md", "text": "does not reset nightly"}),
    repairs=(DANGLING,),
)


class Keys:
    """A review driven by a list of answers, its screen captured at a given width."""

    def __init__(self, answers: list[str], width: int = 60, plan: Plan = PLAN) -> None:
        self.out = io.StringIO()
        self.answers: Iterator[str] = iter(answers)
        console = Console(file=self.out, width=width, markup=False, color_system=None)
        self.review = Review(session=ReviewSession.of(plan), texts={
            "e_secret.md": f"token {TOKEN} for CI", "a_rest.md": "A rest note."},
            bodies={"e_secret.md": f"token {TOKEN} for CI"}, console=console,
            check=lambda ino: None)
        self.review.ask = self.ask  # type: ignore[method-assign]

    def ask(self, text: str) -> str:
        answer = next(self.answers)
        self.review.console.print(text + answer)  # as a terminal echoes it
        return answer

    @property
    def said(self) -> str:
        return self.out.getvalue()

    @property
    def flat(self) -> str:
        return " ".join(self.said.split())

    def choice(self, file: str) -> Choice:
        return self.review.session.verdicts[file].choice


def files(items: list[Proposal]) -> list[tuple[str, ...]]:
    return [item.files or (item.key,) for item in items]


def test_strongest_proof_first_a_pair_asked_once_and_repairs_with_history() -> None:
    assert files(review_items(PLAN)) == [
        ("e_secret.md",), ("f_poison.md",), ("d_contra.md", "d_other.md"), ("b_stale.md",),
        ("MEMORY.md drop-dangling line 9",), ("a_rest.md",)]


def test_within_one_strength_a_class_comes_together() -> None:
    plan = plan_of(held("s1.md", Action.WITHDRAW, "session-log"),
                   held("n1.md", Action.WITHDRAW, "noise"),
                   held("s2.md", Action.WITHDRAW, "session-log"),
                   replace(entry("h.md", Action.WITHDRAW), strength=3),
                   held("s3.md", Action.WITHDRAW, "session-log"))
    assert [i.key for i in review_items(plan)] == ["h.md", "s1.md", "s2.md", "s3.md", "n1.md"]


def test_y_takes_the_suggestion_n_keeps_and_the_prompt_says_how_many_are_left() -> None:
    plan = plan_of(held("s1.md", Action.WITHDRAW, "session-log"), entry("x.md", Action.REVIEW))
    keys = Keys(["y", "n"], width=200, plan=plan)
    run_review(keys.review)
    assert "[1/2, 1 left] Withdraw s1.md? [y,n,d,e,s,p,v,j,q,?]" in keys.flat
    assert "withdraw (what the evidence suggests; the plan leaves it to you)" in keys.flat
    assert "Evidence: a dated session log — shape (strength 2 of 5)" in keys.flat
    assert "[2/2, 0 left] x.md: keep it, withdraw it or edit it? [n,d,e,s,w,p,v,j,b,q,?]" \
        in keys.flat  # nothing suggested: no y
    assert keys.choice("s1.md") is Choice.WITHDRAW and keys.choice("x.md") is Choice.KEEP
    assert not auto_decide(plan).verdicts  # --yes leaves a held suggestion for a person


@pytest.mark.parametrize(("typed", "choice"), [
    ("keep", Choice.KEEP), ("k", Choice.KEEP), ("no", Choice.KEEP), ("YES", Choice.WITHDRAW),
    ("accept", Choice.WITHDRAW), ("skip", Choice.SKIP), ("later", Choice.SKIP)])
def test_whole_words_are_keys(typed: str, choice: Choice) -> None:
    keys = Keys([typed, "q"], plan=plan_of(held("s1.md", Action.WITHDRAW, "session-log")))
    run_review(keys.review)
    assert keys.choice("s1.md") is choice and not any(r in keys.said for r in REFUSALS)


def test_a_accepts_every_remaining_proposal_of_its_class() -> None:
    plan = plan_of(*(held(f"s{n}.md", Action.WITHDRAW, "session-log") for n in range(3)),
                   held("n1.md", Action.WITHDRAW, "noise"))
    keys = Keys(["j", "a", "n"], width=200, plan=plan)
    run_review(keys.review)
    assert "Accepted 2 of this class (a dated session log → withdraw)" in keys.flat
    assert [keys.choice(f) for f in ("s0.md", "s1.md", "s2.md", "n1.md")] == [
        Choice.SKIP, Choice.WITHDRAW, Choice.WITHDRAW, Choice.KEEP]


def test_a_pair_is_one_question_with_both_sides_and_1_or_2_withdraws_one() -> None:
    plan = plan_of(PLAN.entries[3], PLAN.entries[6])
    keys = Keys(["2"], width=200, plan=plan)
    keys.review.dates = {"d_contra.md": "2026-10-27 (modified)",
                         "d_other.md": "2026-07-09 (mtime)"}
    run_review(keys.review)
    assert "[1/1, 0 left] Which stays? (n keeps both) [n,1,2,d,e,v,j,q,?]" in keys.flat
    assert "1 d_contra.md — Project, written 2026-10-27 (modified)" in keys.flat
    assert "2 d_other.md — Project, written 2026-07-09 (mtime)" in keys.flat
    assert "resets nightly" in keys.flat and "does not reset nightly" in keys.flat
    assert keys.choice("d_other.md") is Choice.WITHDRAW
    assert keys.choice("d_contra.md") is Choice.KEEP


def test_s_asks_every_field_and_fills_in_none_of_them() -> None:
    body = "Retry every call forever: the API flakes."
    plan = plan_of(entry("retry.md", Action.REVIEW, FindingCode.POISON))
    keys = Keys(["s", ""], width=200, plan=plan)
    keys.review.bodies = {"retry.md": body}
    keys.review.session = ReviewSession.of(plan)
    handle("s", keys.review.session.items[0], keys.review)
    assert "No SUPERSEDED note written" in keys.said and body not in keys.said
    assert not keys.review.session.verdicts
    typed = ["retry forever", "three outages", "hid real failures", "a flaky API", "", "y"]
    keys = Keys(typed, plan=plan)
    handle("superseded", keys.review.session.items[0], keys.review)
    verdict = keys.review.session.verdicts["retry.md"]
    assert verdict.choice is Choice.WITHDRAW_INOCULATE and verdict.inoculation == Inoculation(
        "retry forever", "three outages", "hid real failures", "a flaky API")


def test_every_key_the_prompt_lists_works(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    editor = tmp_path / "ed.sh"
    editor.write_text("#!/bin/sh\nprintf 'Something else now.\\n' > \"$1\"\n")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    follow_up = ["1", "p", "e", "r", "d", "", "y", "why"]  # answers a key may ask for
    for n, item in enumerate(ReviewSession.of(PLAN).items):
        probe = Keys([])
        probe.review.session.position = n
        for key in keys_for(item, probe.review):
            keys = Keys(list(follow_up))
            keys.review.session.position = n
            handle(key, item, keys.review)
            assert not any(r in keys.said for r in REFUSALS), (item.key, key, keys.said)


def test_a_repair_is_asked_kept_and_not_asked_again(tmp_path: Path) -> None:
    plan = plan_of(repairs=(DANGLING, {**DANGLING, "line": 11, "text": "- [G](g.md) — y"}))
    keys = Keys(["n", "y"], width=200, plan=plan)
    run_review(keys.review)
    assert "Drop index line 9 (it links gone.md)? [y,n,a,d,j,q,?]" in keys.flat
    session = keys.review.session
    assert session.repairs() == [plan.reachability["repairs"][1]]
    remember_keeps(tmp_path, session.kept(), NOW)
    kept = kept_entries(tmp_path)
    assert [i.key for i in review_items(plan, kept)] == ["MEMORY.md drop-dangling line 11"]
    assert auto_decide(plan, kept, []).repairs == [plan.reachability["repairs"][1]]


def test_a_suggested_update_without_text_offers_the_editor_not_y() -> None:
    plan = plan_of(held("t.md", Action.UPDATE, "tool-replaced", strength=3))
    keys = Keys(["y", "n"], width=200, plan=plan)
    run_review(keys.review)
    assert "Update t.md? [n,d,e,s,w,p,v,j,q,?]" in keys.flat
    assert "y does not apply to this question" in keys.flat
    assert keys.choice("t.md") is Choice.KEEP


def test_a_keep_is_not_asked_again_until_the_content_changes(tmp_path: Path) -> None:
    remember_keeps(tmp_path, [Verdict("a_rest.md", Choice.KEEP, sha256="sha-a_rest.md")], NOW)
    kept = kept_entries(tmp_path)
    assert "a_rest.md" not in [i.key for i in review_items(PLAN, kept)]
    assert "a_rest.md" not in [v.file for v in auto_decide(PLAN, kept).verdicts]
    changed = {"a_rest.md": "sha-of-older-content"}
    assert "a_rest.md" in [i.key for i in review_items(PLAN, changed)]


def test_a_saved_review_resumes_at_the_first_undecided_question(tmp_path: Path) -> None:
    session = ReviewSession.of(PLAN)
    session.decide(Verdict("e_secret.md", Choice.WITHDRAW))
    session.decide(Verdict("f_poison.md", Choice.UPDATE, text="edited"))
    session.decide(Verdict("d_contra.md", Choice.KEEP), Verdict("d_other.md", Choice.WITHDRAW))
    save_session(tmp_path, session.decided(), NOW)
    saved = load_session(tmp_path)
    assert saved is not None
    resumed = ReviewSession.resume(PLAN, saved.verdicts)
    assert resumed.position == 3 and resumed.current is not None
    assert resumed.current.key == "b_stale.md"
    assert resumed.verdicts["f_poison.md"].text == "edited"
    assert resumed.verdicts["d_other.md"].choice is Choice.WITHDRAW
    stale = [Verdict("e_secret.md", Choice.WITHDRAW, sha256="older")]
    assert ReviewSession.resume(PLAN, stale).position == 0  # its memory changed since


def test_the_confirmation_counts_each_kind_of_change() -> None:
    verdicts = [Verdict("a", Choice.WITHDRAW), Verdict("b", Choice.WITHDRAW_INOCULATE),
                Verdict("c", Choice.UPDATE), Verdict("d", Choice.KEEP)]
    assert describe(verdicts, 2) == "2 withdrawals, 1 update, 1 inoculation and 2 index repairs"
    assert describe([Verdict("a", Choice.UPDATE)], 0) == "1 update"


def test_prompt_help_unknown_answers_and_view_at_60_columns() -> None:
    keys = Keys(["?", "x", "frobnicate", "", "v", "n", "q"])
    run_review(keys.review)
    said = keys.said
    assert "[1/6, 5 left] e_secret.md holds a secret: withdraw it? [y,n,d,e,s,r,p,v,j,q,?]" \
        in keys.flat
    assert "Keys here" in said and "fidelity:" in said and "register:" in said
    assert "'x' is not a key here" in said and "'frobnicate' is not a key here" in said
    assert "Type a key, then Enter" in said
    assert TOKEN not in said and "[github-token ghp_… (40 chars)]" in said  # view, masked
    assert all(len(line) <= 60 for line in said.splitlines())
    assert said.count("e_secret.md — Project") == 1  # only the prompt comes again
    assert keys.choice("e_secret.md") is Choice.KEEP and keys.review.session.quit


def test_r_redacts_a_fact_in_the_index_and_leaves_its_other_words() -> None:
    fact = replace(entry("MEMORY.md#L4", Action.FLAG, FindingCode.SECRET), strength=5)
    keys = Keys(["y"], plan=plan_of(fact))
    keys.review.bodies = {"MEMORY.md#L4": f"- CI posts with {TOKEN}; builds take 4 minutes"}
    run_review(keys.review)
    assert "MEMORY.md#L4 holds a secret: redact the secret in it?" in keys.flat
    verdict = keys.review.session.verdicts["MEMORY.md#L4"]
    assert verdict.choice is Choice.UPDATE and TOKEN not in (verdict.text or "")
    assert verdict.text == "- CI posts with [github-token ghp_… (40 chars)]; builds take 4 " \
                           "minutes"


def test_a_failing_editor_is_a_message_and_the_proposal_stays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", "false")
    monkeypatch.delenv("VISUAL", raising=False)
    keys = Keys([])
    item = Proposal(entry=PLAN.entries[0])
    handle("e", item, keys.review)
    assert "exited with code 1; nothing changed" in keys.said
    assert keys.review.session.position == 0 and not keys.review.session.verdicts
    monkeypatch.setenv("EDITOR", "/nonexistent/editor")
    handle("edit", item, keys.review)
    assert "could not start the editor" in keys.said


def test_an_edit_becomes_an_update_of_the_text_typed(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    editor = tmp_path / "ed.sh"
    editor.write_text("#!/bin/sh\nprintf 'The CI token lives in the vault.\\n' > \"$1\"\n")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    keys = Keys([])
    handle("e", keys.review.session.items[0], keys.review)
    verdict = keys.review.session.verdicts["e_secret.md"]
    assert verdict.choice is Choice.UPDATE and verdict.text == \
        "The CI token lives in the vault.\n"
    assert TOKEN not in keys.said


OUTSIDE_REPAIRS = [
    ({"kind": "drop-outside", "line": 4, "target": "../../../plans/x.md",
      "text": "- [Plan](../../../plans/x.md) — p",
      "why": "index line 4 links ../../../plans/x.md: the repo never had plans/x.md"},
     "Drop index line 4 (it links ../../../plans/x.md)? [y,n,d,j,q,?]",
     "a pointer out of the folder to a file found nowhere"),
    ({"kind": "relink-outside", "line": 2, "from": "../drafts/rules.md",
      "to": "../../drafts/rules.md", "text": "- [Rules](../drafts/rules.md) — r",
      "why": "index line 2 links ../drafts/rules.md: the repo has drafts/rules.md"},
     "Point index line 2 at ../../drafts/rules.md? [y,n,d,j,q,?]",
     "a pointer out of the folder that misses the repo file it names"),
]


@pytest.mark.parametrize(("repair", "question", "words"), OUTSIDE_REPAIRS)
def test_a_pointer_out_of_the_folder_is_asked_and_done_when_accepted(
        repair: dict[str, object], question: str, words: str) -> None:
    """Dropped when its file is found nowhere, pointed at the file when the repo has it:
    either way a person says so."""
    keys = Keys(["y"], width=200, plan=plan_of(repairs=(repair,)))
    run_review(keys.review)
    assert question in keys.flat and words in keys.flat
    assert keys.review.session.repairs() == [repair]
