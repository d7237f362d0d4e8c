"""What a preview shows is what applying writes, byte for byte: every suggestion of the demo
plan accepted, previewed, then applied; each file the preview names holds exactly the bytes
its diff ends with (`[corrected …]` marks, `modified:` stamps, register ids in unlinked
links), and every file the pass changed was named."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.engine.preview import preview
from prune_memory.model import Action
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.review import Choice, Verdict, proposed_verdict
from prune_memory.procedure.run_pass import as_changes, finish_pass
from prune_memory.store.files import read_or_none
from prune_memory.store.snapshot import take_snapshot, tree_state

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def accepted(plan_entries: tuple) -> list[Verdict]:  # type: ignore[type-arg]
    """What a person who accepts every suggestion decides, in plan order."""
    out = []
    for entry in plan_entries:
        offered = entry.suggested_action if entry.action is Action.REVIEW else entry.action
        verdict = proposed_verdict(replace(entry, action=offered or entry.action))
        if verdict.writes:
            out.append(verdict)
    return out


def test_accepting_every_suggestion_writes_exactly_what_the_preview_showed(
        demo_memory: Path, demo_repo: Path) -> None:
    plan = build_plan(demo_memory, PassOptions(repo=demo_repo, now=NOW))
    verdicts = accepted(plan.entries)
    verdicts.append(Verdict("project_rename_to_cairn.md", Choice.PROTECT, reason="x"))
    assert {v.choice for v in verdicts} >= {Choice.WITHDRAW, Choice.UPDATE,
                                           Choice.WITHDRAW_INOCULATE, Choice.INOCULATE}
    repairs = list(plan.reachability.get("repairs", []))
    shown = preview(demo_memory, NOW, as_changes(plan, verdicts), repairs)
    assert "[corrected 2026-11-29]" in shown.diff and not shown.refused
    before = tree_state(demo_memory)

    snapshot = take_snapshot(demo_memory, NOW)
    report = finish_pass(demo_memory, plan, verdicts, repairs, snapshot=snapshot, now=NOW)
    assert not report.skipped, report.skipped
    for path, data in shown.after.items():
        assert read_or_none(demo_memory / path) == data, path
    after = tree_state(demo_memory)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed <= set(shown.touched)  # nothing written that the confirm did not name
    assert {p for p in shown.touched if not p.startswith("deaccessioned/")} <= changed | {
        "pruning-log.md"}
    for file, linked in shown.linked.items():
        done = next(a for a in report.applied if a.file == file and a.op == "withdraw")
        assert tuple(done.linked) == linked


def test_facts_in_the_index_links_and_marks_preview_as_they_are_written(
        tmp_path: Path) -> None:
    from prune_memory.plan import Inoculation
    from tests.conftest import topic, write_tree

    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Auth](project_auth.md) — auth\n- [Hub](project_hub.md) — "
                     "hub\n- [CI](project_ci.md) — ci\n- Deploys go out on Tuesdays.\n"
                     "- Retries are capped at three.\n- Builds use Jenkins 2.4.\n",
        "project_auth.md": topic("auth", "Sessions are signed in `src/auth.py`."),
        "project_hub.md": topic("hub", "See [[auth]] and [the auth note](project_auth.md)."),
        "project_ci.md": topic("ci", "CI runs on Jenkins.\nIt takes ten minutes."),
        "pruning-log.md": "# Pruning log\n\n## Protected\n"})
    plan = build_plan(memory, PassOptions(repo=None, now=NOW))
    plan = replace(plan, entries=tuple(
        replace(e, rule="4-stale-known-correction") if e.file == "project_ci.md" else e
        for e in plan.entries))
    ino = Inoculation("retrying forever", "three outages", "it hid failures", "timeouts")
    verdicts = [Verdict("project_auth.md", Choice.WITHDRAW),
                Verdict("MEMORY.md#L5", Choice.WITHDRAW),
                Verdict("MEMORY.md#L6", Choice.WITHDRAW_INOCULATE, inoculation=ino),
                Verdict("MEMORY.md#L7", Choice.UPDATE, text="- Builds use GitHub Actions."),
                Verdict("project_ci.md", Choice.UPDATE,
                        text="CI runs on GitHub Actions.\nIt takes ten minutes.")]
    shown = preview(memory, NOW, as_changes(plan, verdicts))
    assert "CI runs on GitHub Actions. [corrected 2026-11-29]" in shown.diff
    assert "+See auth (withdrawn, register 2026-11-29-01)" in shown.diff
    assert shown.linked == {"project_auth.md": ("project_hub.md",)}
    report = finish_pass(memory, plan, verdicts, [], snapshot=take_snapshot(memory, NOW),
                         now=NOW)
    assert not report.skipped, report.skipped
    for path, data in shown.after.items():
        assert read_or_none(memory / path) == data, path
    written = {p for p in tree_state(memory) if p.startswith(("deaccessioned/", "superseded"))}
    assert written <= set(shown.touched)
