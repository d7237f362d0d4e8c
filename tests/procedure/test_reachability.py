from __future__ import annotations

from pathlib import Path

from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree


def _scan(tmp_path: Path, files: dict[str, str | bytes],
          register: list[tuple[str, str]] | None = None) -> dict[str, object]:
    write_tree(tmp_path, files)
    return scan(load_memory_dir(tmp_path), register or []).to_json()


def test_clean_directory(tmp_path: Path) -> None:
    result = scan(load_memory_dir(write_tree(tmp_path, {
        "MEMORY.md": "- [A](a.md) — a\n", "a.md": topic("a", "see [[a]]"),
        "pruning-log.md": "# Pruning log\n", "retention-policy.md": "# policy\n"})))
    assert result.clean


def test_dangling_and_orphaned_both_directions(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"MEMORY.md": "- [A](a.md)\n- [Gone](gone.md)\n",
                              "a.md": topic("a", "x"), "lonely.md": topic("lonely", "y")})
    assert [d["target"] for d in result["dangling"]] == ["gone.md"]  # type: ignore[index]
    assert [o["file"] for o in result["orphaned"]] == ["lonely.md"]  # type: ignore[index]
    assert result["orphan_share"]["files_pct"] == 50.0  # type: ignore[index]


def test_a_link_to_a_file_that_is_there_but_not_a_topic_is_not_dangling(tmp_path: Path) -> None:
    # Files in a subfolder, or not named *.md, are not topics the pass reads, but the
    # pointer works: dropping it as dangling would remove a good line from the index.
    result = _scan(tmp_path, {"MEMORY.md": "- [N](notes/n.md) — nested\n- [U](U.MD) — upper\n"
                                           "- [S](schema.sql) — schema\n- [X](notes/x.md)\n",
                              "notes/n.md": topic("n", "x"), "U.MD": topic("u", "y"),
                              "schema.sql": "create table t (id int);\n"})
    assert [d["target"] for d in result["dangling"]] == ["notes/x.md"]  # type: ignore[index]


def test_a_memory_linking_a_missing_sibling_is_reported(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "MEMORY.md": "- [A](a.md) — a\n- [N](notes/n.md) — n\n",
        "a.md": topic("a", "See [B](b.md), [N](n.md), [setup](docs/setup.md) and [x](notes.md)."),
        "notes/n.md": topic("n", "nested"), "notes.md": "plain notes\n"})
    assert [(i["file"], i["target"]) for i in result["body_dangling"]] == [  # type: ignore[union-attr]
        ("a.md", "b.md"), ("a.md", "n.md")]  # docs/setup.md is a repo path, notes.md is there


def test_wiki_links_are_matched_as_people_write_them(tmp_path: Path) -> None:
    # Hyphens for underscores, another case, the type prefix left out: the reader (and
    # Claude) still finds the memory. Only a name no memory answers to is missing.
    result = _scan(tmp_path, {
        "MEMORY.md": "- [G](feedback_gates_pattern.md)\n- [I](project_incident_drift.md)\n",
        "feedback_gates_pattern.md": topic("feedback-gates-pattern", "gates"),
        "project_incident_drift.md": topic("incident-drift-2026", "See [[gates-pattern]], "
                                           "[[Feedback-Gates-Pattern]], [[gates_pattern]] "
                                           "and [[release-baseline]].")})
    assert [w["name"] for w in result["wiki_missing"]] == [  # type: ignore[union-attr]
        "release-baseline"]


def test_degraded_reference_names_a_file_inexactly(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"MEMORY.md": "- [A](Project-Auth)\n- see b.md for more\n"
                                           "- [C](c.md) and c.md again\n",
                              "project_auth.md": topic("auth", "x"), "b.md": topic("b", "y"),
                              "c.md": topic("c", "z")})
    degraded = result["degraded"]
    assert [(d["target"], d["likely"]) for d in degraded] == [  # type: ignore[union-attr]
        ("Project-Auth", "project_auth.md"), ("b.md", "b.md")]
    assert result["dangling"] == []


def test_missing_wiki_links(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"MEMORY.md": "- [A](a.md)\n",
                              "a.md": topic("a", "links [[nowhere]] and [[a]]")})
    assert result["wiki_missing"] == [{"file": "a.md", "line": 1, "name": "nowhere"}]


def test_tombstones_are_never_orphans_but_register_drift_is_found(tmp_path: Path) -> None:
    result = _scan(tmp_path, {
        "MEMORY.md": "- [A](a.md)\n", "a.md": topic("a", "x"),
        "deaccessioned/old.md": "x", "deaccessioned/stray.md": "y"},
        register=[("2026-11-01-01", "deaccessioned/old.md"),
                  ("2026-11-01-02", "deaccessioned/lost.md")])
    assert result["orphaned"] == []
    assert result["unregistered_tombstones"] == ["stray.md"]
    assert result["missing_tombstones"] == [
        {"register_id": "2026-11-01-02", "tombstone": "deaccessioned/lost.md"}]


def test_entries_past_the_cap_are_unloaded(tmp_path: Path) -> None:
    lines = "".join(f"- fact {i}\n" for i in range(200))
    result = _scan(tmp_path, {"MEMORY.md": lines + "- [Late](late.md)\n",
                              "late.md": topic("late", "x")})
    assert result["unloaded"] == [{"file": "late.md", "lines": [201]}]
    assert result["orphaned"] == []


def test_orphans_are_not_indexed_past_the_load_cap(tmp_path: Path) -> None:
    """Re-indexing orphans into a nearly full index would push loaded pointers past line
    200, where no session sees them: those lines are held back for a person."""
    from prune_memory.procedure.repairs import propose_repairs, within_load_cap

    pointers = "".join(f"- [m{n}](m{n}.md) — note {n}\n" for n in range(196))
    files = {f"m{n}.md": topic(f"m{n}", f"Note {n}.") for n in range(196)}
    files.update({f"orphan{n}.md": topic(f"orphan{n}", "Not indexed.") for n in range(3)})
    memdir = load_memory_dir(write_tree(tmp_path, {"MEMORY.md": pointers, **files}))
    repairs = propose_repairs(memdir, scan(memdir), [])
    assert [r["file"] for r in repairs] == ["orphan0.md", "orphan1.md", "orphan2.md"]
    fits, held = within_load_cap(memdir, repairs)
    # 196 pointers + a blank line and the heading + two orphans = 200 lines, all loaded
    assert [r["file"] for r in fits] == ["orphan0.md", "orphan1.md"]
    assert [r["file"] for r in held] == ["orphan2.md"]
    assert "load cap" in held[0]["why"]


def test_a_wiki_link_to_a_heading_of_its_own_file_is_not_missing(tmp_path: Path) -> None:
    result = _scan(tmp_path, {"MEMORY.md": "- [A](a.md)\n- [B](b.md)\n",
                              "a.md": topic("a", "# Setup\n\nSee [[Setup]] and [[#setup]], "
                                                 "[[b#Usage]], and [[nowhere#x]].\n"),
                              "b.md": topic("b", "# Usage\n")})
    assert [w["name"] for w in result["wiki_missing"]] == ["nowhere"]  # type: ignore[union-attr]
