"""An index hook that tells another story than its own topic file (shapes from real folders)."""

from __future__ import annotations

from pathlib import Path

from prune_memory.analysis.hooks_vs_topics import clash_entries, hook_clashes
from prune_memory.model import EntryKind, FindingCode
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree


def _memdir(tmp_path: Path, index: str, files: dict[str, str]) -> Path:
    return write_tree(tmp_path / "memory", {"MEMORY.md": index, **files})


def test_a_hook_calling_built_work_not_built_is_its_own_entry(tmp_path: Path) -> None:
    root = _memdir(tmp_path, "# Index\n\n- [Reflections](reflections.md) — plan, NOT built\n"
                             "- [Fog](fog.md) — distance fog\n", {
        "reflections.md": topic("reflections", "# Vehicle reflections — ALL 4 PHASES DONE\n"),
        "fog.md": topic("fog", "# Fog\n\nLinear fog in the sky shader.\n")})
    memdir = load_memory_dir(root)
    entries, found = clash_entries(memdir)
    (entry,) = entries
    assert entry.file == "MEMORY.md#L3" and entry.kind is EntryKind.INDEX_LINE
    (finding,) = found["MEMORY.md#L3"]
    assert finding.code is FindingCode.CONTRADICTION
    assert finding.evidence["memory_says"] == "NOT built"
    assert finding.evidence["topic"] == "reflections.md" and finding.related == ("reflections.md",)


def test_counts_and_commit_status_that_disagree(tmp_path: Path) -> None:
    root = _memdir(tmp_path, "- [Tests](tests.md) — 134 tests, all green\n"
                             "- [PDF agent](pdf.md) — composes PDFs. Not committed.\n", {
        "tests.md": topic("tests", "The suite has 275 tests and runs in CI.\n"),
        "pdf.md": topic("pdf", "COMMITTED as 6207181f on main.\n")})
    clashes = {c.line.number: c for c in hook_clashes(load_memory_dir(root))}
    assert (clashes[1].says, clashes[1].topic_says) == ("134 tests", "275 tests")
    assert clashes[2].says == "Not committed"


def test_a_hook_that_agrees_with_its_file_is_left_alone(tmp_path: Path) -> None:
    root = _memdir(tmp_path, "- [Tests](tests.md) — 275 tests, planned rewrite of the runner\n", {
        "tests.md": topic("tests", "275 tests. A rewrite of the runner is planned.\n")})
    assert hook_clashes(load_memory_dir(root)) == []


def test_a_hook_that_calls_its_memory_superseded_is_a_finding_on_the_memory(
        tmp_path: Path) -> None:
    root = _memdir(tmp_path, "- [Driving](driving.md) — plan 17; arcade driving — SUPERSEDED "
                             "by plan 18 (real physics)\n"
                             "- [Physics](physics.md) — plan 18; how superseded plans are "
                             "filed is in the README\n", {
        "driving.md": topic("driving", "# Plan 17\n\nDrive the car with WSAD.\n"),
        "physics.md": topic("physics", "# Plan 18\n\nRigid-body vehicles.\n")})
    entries, found = clash_entries(load_memory_dir(root))
    assert entries == ()  # the hook does not disagree with the file: it says the file is old
    (finding,) = found["driving.md"]
    assert finding.code is FindingCode.LOW_UTILITY
    assert finding.evidence["kind"] == "hook-superseded"
    assert "SUPERSEDED by plan 18" in finding.message and "MEMORY.md line 1" in finding.message
    assert "physics.md" not in found  # "superseded" about something else is no verdict


def test_a_hook_calling_a_part_pending_that_its_file_calls_done(tmp_path: Path) -> None:
    root = _memdir(tmp_path, "- [Physics plan](physics.md) — plan 7; iter 1 DONE, iters 2–4 "
                             "(steering, damage) pending\n"
                             "- [Search](search.md) — phase 1 done, phase 2 next\n"
                             "- [Export](export.md) — step 3 pending\n", {
        "physics.md": topic("physics", "# Plan 7\n\n**Iter 1 DONE (checked in the browser):** "
                                       "chassis.\n\n**Iter 2 DONE:** steering.\n"),
        # the file calls phase 2 both planned and done: it does not say which holds
        "search.md": topic("search", "Phase 2: planned, an index.\n\nPhase 2 done on Friday.\n"),
        "export.md": topic("export", "Step 3 pending: the CSV writer.\n")})
    clashes = {c.line.number: c for c in hook_clashes(load_memory_dir(root))}
    assert set(clashes) == {1}
    assert (clashes[1].says, clashes[1].topic_says) == ("iters 2–4 pending", "Iter 2 DONE")
    (finding,) = clash_entries(load_memory_dir(root))[1]["MEMORY.md#L1"]
    assert "physics.md" in finding.message and "Iter 2 DONE" in finding.message
