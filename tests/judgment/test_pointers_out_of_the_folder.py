"""An index line that points out of the memory folder: looked up where it points and in the
repo, never opened, and dropped only when a person says so."""

from __future__ import annotations

from pathlib import Path

from prune_memory.engine.repairs import repaired
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.proposals import review_items
from prune_memory.procedure.review import auto_decide
from tests.evidence.probes.gitbuild import GitRepo
from tests.judgment.conftest import NOW, Planner


def _outside(plan_reach: dict[str, object]) -> list[tuple[int, str]]:
    dangling = plan_reach["dangling"]
    assert isinstance(dangling, list)
    return [(d["line"], d["why"]) for d in dangling if d.get("outside")]


def test_a_pointer_to_a_plan_no_one_has_is_a_dangling_line_a_person_drops(
        planner: Planner, repo: GitRepo) -> None:
    repo.write({"README.md": "x\n"}).commit("start")
    plan = planner({"MEMORY.md": "# M\n- [Launch plan](../../../plans/launch-plan.md) — the "
                                 "steps we agreed\n- [Notes](../../docs/notes.md) — notes\n"})
    found = _outside(plan.reachability)
    assert [line for line, _ in found] == [2, 3]
    assert "the repo never had plans/launch-plan.md" in found[0][1]
    repairs = [r for r in plan.reachability["repairs"] if r["kind"] == "drop-outside"]
    assert [r["line"] for r in repairs] == [2, 3]
    # offered in the review, never applied by --yes
    assert {item.repair["line"] for item in review_items(plan) if item.repair} == {2, 3}
    assert auto_decide(plan).repairs == []
    raw = (Path(plan.memory_dir) / "MEMORY.md").read_bytes()
    assert b"launch-plan" not in repaired(raw, repairs[0]) and b"notes" in repaired(raw, repairs[0])
    assert [(o["line"]) for o in plan.reachability["outside"]] == [2, 3]


def test_a_pointer_the_repo_answers_is_not_dangling(planner: Planner, repo: GitRepo) -> None:
    """`../../docs/guide.md` from a folder copied out of the repo still means docs/guide.md;
    from a copy of the index kept in the repo (`.claude/memory/`), `../notes/a.md` means
    `.claude/notes/a.md`."""
    repo.write({"docs/guide.md": "g\n", ".claude/memory/MEMORY.md": "# M\n",
                ".claude/notes/a.md": "a\n", "src/app.py": "x = 1\n"}).commit("start")
    plan = planner({"MEMORY.md": "# M\n- [Guide](../../docs/guide.md) — how\n"
                                 "- [A](../notes/a.md) — a\n- [Src](../../src/) — code\n"})
    assert _outside(plan.reachability) == []
    assert len(plan.reachability["outside"]) == 3


def test_a_pointer_to_a_file_the_repo_deleted_names_the_commit(planner: Planner,
                                                                repo: GitRepo) -> None:
    repo.write({"docs/old.md": "o\n", "README.md": "x\n"}).commit("start")
    repo.rm("docs/old.md")
    sha = repo.commit("drop the old notes")[:7]
    plan = planner({"MEMORY.md": "# M\n- [Old](../../docs/old.md) — old notes\n"})
    [(_, why)] = _outside(plan.reachability)
    assert f"deleted docs/old.md in {sha}" in why


def test_a_renamed_target_is_left_to_a_person_to_follow(planner: Planner,
                                                         repo: GitRepo) -> None:
    repo.write({"docs/old.md": "o\n"}).commit("start")
    repo.mv("docs/old.md", "docs/new.md").commit("rename")
    plan = planner({"MEMORY.md": "# M\n- [Old](../../docs/old.md) — old notes\n"})
    assert _outside(plan.reachability) == []


def test_a_target_that_is_there_is_found_without_being_opened(
        tmp_path: Path, planner: Planner, repo: GitRepo) -> None:
    repo.write({"README.md": "x\n"}).commit("start")
    there = tmp_path / "plans" / "kept.md"
    there.parent.mkdir()
    there.write_text("a plan\n")
    there.chmod(0)  # unreadable: only its existence is looked up
    try:
        plan = planner({"MEMORY.md": "# M\n- [Kept](../plans/kept.md) — a plan\n"})
    finally:
        there.chmod(0o644)
    assert _outside(plan.reachability) == []


def test_without_a_repo_an_outside_link_is_only_reported(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text("# M\n- [Plan](../../../plans/x.md) — a plan\n")
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    assert _outside(plan.reachability) == []
    assert [o["line"] for o in plan.reachability["outside"]] == [2]


def test_an_outside_link_no_file_system_can_name_is_dangling_not_an_error(
        planner: Planner, repo: GitRepo) -> None:
    repo.write({"README.md": "x\n"}).commit("start")
    long = "a" * 5000
    plan = planner({"MEMORY.md": "# M\n- [Nul](../bad%00name.md) — n\n"
                                 f"- [Long](../{long}.md) — l\n"})
    assert plan.errors == ()
    assert [line for line, _ in _outside(plan.reachability)] == [2, 3]


def test_a_pointer_that_misses_a_file_the_repo_has_is_offered_a_new_path(
        planner: Planner, repo: GitRepo) -> None:
    """The repo keeps this folder at `.claude/memory/` (its topic files are there), where
    `../drafts/rules.md` means `.claude/drafts/rules.md`, which it never had; it has
    `drafts/rules.md`, two folders up from there. A person points the link at it."""
    topic = "---\nname: style\ndescription: house style\ntype: feedback\n---\nShort lines.\n"
    repo.write({".claude/memory/MEMORY.md": "# M\n", ".claude/memory/style.md": topic,
                "drafts/rules.md": "# Rules\n"}).commit("start")
    plan = planner({"MEMORY.md": "# M\n- [Rules](../drafts/rules.md) — the four rules\n"
                                 "- [Style](style.md) — house style\n", "style.md": topic})
    [(line, why)] = _outside(plan.reachability)
    assert line == 2 and "the repo has drafts/rules.md" in why
    [repair] = [r for r in plan.reachability["repairs"] if r["kind"] == "relink-outside"]
    assert (repair["from"], repair["to"]) == ("../drafts/rules.md", "../../drafts/rules.md")
    assert {item.repair["line"] for item in review_items(plan) if item.repair} == {2}
    assert auto_decide(plan).repairs == []
    raw = (Path(plan.memory_dir) / "MEMORY.md").read_bytes()
    assert b"](../../drafts/rules.md)" in repaired(raw, repair)


def test_a_repo_folder_that_is_no_copy_of_this_index_is_no_place_to_read_a_link_from(
        planner: Planner, repo: GitRepo) -> None:
    """A MEMORY.md of the repo's own, beside none of this folder's files: the link is read
    as before (the file is in the repo by its path without the `../`)."""
    topic = "---\nname: style\ndescription: house style\ntype: feedback\n---\nShort lines.\n"
    repo.write({"docs/MEMORY.md": "# Docs\n", "drafts/rules.md": "# Rules\n"}).commit("start")
    plan = planner({"MEMORY.md": "# M\n- [Rules](../drafts/rules.md) — the four rules\n"
                                 "- [Style](style.md) — house style\n", "style.md": topic})
    assert _outside(plan.reachability) == []
