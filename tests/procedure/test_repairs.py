"""Index repairs: each fault mended once, and never a pointer the index already has."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from prune_memory.engine.undo import undo_passes
from prune_memory.evidence.gitrepo import RepoFacts
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.reachability import scan
from prune_memory.procedure.repairs import asked, propose_repairs
from prune_memory.procedure.run_pass import finish_pass
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


def _repairs(root: Path) -> list[tuple[str, str]]:
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    return [(r["kind"], r.get("to") or r.get("file") or r["target"])
            for r in plan.reachability["repairs"]]


def test_a_file_a_fixed_link_will_reach_is_not_indexed_again(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n- [Auth](Auth.md) — login\n",
                                       "auth.md": topic("auth", "Login uses sessions.")})
    assert _repairs(root) == [("fix-link", "auth.md")]


def test_a_link_to_a_nested_file_is_left_alone(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n- [N](notes/n.md) — nested\n",
                                       "notes/n.md": topic("n", "A note.")})
    assert _repairs(root) == []


def test_a_missing_index_is_written_and_the_pass_undoes_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {"a.md": topic("a", "Body.")})
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    report = finish_pass(root, plan, [], plan.reachability["repairs"],
                         snapshot=take_snapshot(root, NOW, tmp_path / "s"), now=NOW)
    assert [a.status for a in report.applied] == ["done"]
    assert "[A](a.md)" in (root / "MEMORY.md").read_text()
    undo_passes(root, "last", now=NOW)
    assert not (root / "MEMORY.md").exists()
    assert sorted(p.name for p in root.iterdir()) == ["a.md"]



def test_only_files_shaped_as_memories_are_indexed_automatically(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "# M\n", "a.md": topic("a", "A memory."),
        "README.md": "# What this folder is\nNotes for people browsing the repo.\n",
        "changelog.md": topic("changelog", "What changed."), "notes.md": "loose notes\n"})
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    assert [r["file"] for r in plan.reachability["repairs"]] == ["a.md"]
    held = {r["file"]: r["why"] for r in plan.reachability["held_repairs"]}
    assert sorted(held) == ["README.md", "changelog.md", "notes.md"]
    assert "documents the folder" in held["README.md"] and "frontmatter" in held["notes.md"]
    assert [o["file"] for o in plan.reachability["orphaned"]] == [
        "README.md", "a.md", "changelog.md", "notes.md"]  # still reported, for a person

def test_the_index_is_read_once_for_all_orphans(tmp_path: Path) -> None:
    """Re-reading MEMORY.md for each orphan made 8,000 unindexed files take 42 s."""
    from unittest import mock

    from prune_memory.store import index_edit

    files = {f"note_{n}.md": topic(f"note {n}", f"Fact number {n}.") for n in range(40)}
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n- [Kept](kept.md) — one\n",
                                       "kept.md": topic("kept", "Indexed."), **files})
    with mock.patch.object(index_edit.IndexText, "parse", wraps=index_edit.IndexText.parse) as seen:
        repairs = _repairs(root)
    assert sorted(name for kind, name in repairs if kind == "index-orphan") == sorted(files)
    assert seen.call_count == 1


def test_a_pointer_to_a_file_the_repo_has_by_that_name_is_left_to_a_person(
        tmp_path: Path) -> None:
    # `design.md` is not in the folder, but the project tracks `DESIGN.md`: the line may
    # mean that document (written by hand, case lost), so `--yes` does not drop it, and the
    # review names the file it may mean. A pointer to a name the repo lacks still goes.
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "# M\n- [Design](design.md) — every visual token\n"
                     "- [Old](old-notes.md) — gone\n- [A](a.md) — a\n",
        "a.md": topic("a", "Body.")})
    memdir = load_memory_dir(root)
    repo = RepoFacts(root=tmp_path, available=True, has_commits=True,
                     tracked=frozenset({"DESIGN.md", "src/app.py"}))
    repairs = propose_repairs(memdir, scan(memdir, [], repo=repo), [])
    by_target = {r["target"]: r for r in repairs}
    assert by_target["design.md"]["namesakes"] == ["DESIGN.md"]
    assert "DESIGN.md" in by_target["design.md"]["why"]
    assert asked(by_target["design.md"]) and not asked(by_target["old-notes.md"])
