"""The pass owned in one place: the instructions read once, the review a callback, a
person's saved review left alone by `--yes`, a pass an earlier process left open recorded
before the next one starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.analysis import instruction_files
from prune_memory.engine import withdraw as withdrawing
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.undo import restorable
from prune_memory.plan import Plan
from prune_memory.procedure import run_pass as run_pass_module
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.review import Choice, Decided, Verdict, auto_decide
from prune_memory.procedure.review_state import load_session, save_session
from prune_memory.procedure.run_pass import run_pass, step_pass
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
LATER = datetime(2026, 11, 30, 12, tzinfo=UTC)


def _dirs(tmp_path: Path) -> tuple[Path, Path]:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# M\n- [A](a.md) — a\n", "a.md": topic("a", "Deploys go out on Fridays.")})
    repo = write_tree(tmp_path / "repo", {"CLAUDE.md": "# Rules\nRun the tests first.\n"})
    return root, repo


def test_the_instruction_files_are_read_once_for_the_plan_and_the_review(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, repo = _dirs(tmp_path)
    read: list[str] = []
    real = instruction_files._read

    def counted(path: Path, seen: set[Path], outside: Path | None) -> str | None:
        text = real(path, seen, outside)
        if text is not None:
            read.append(path.name)
        return text

    monkeypatch.setattr(instruction_files, "_read", counted)
    given: list[Sequence[tuple[str, str]]] = []

    def review(plan: Plan, kept: Mapping[str, str],
               claude_md: Sequence[tuple[str, str]]) -> Decided:
        given.append(claude_md)
        return auto_decide(plan, kept, claude_md)

    run_pass(root, PassOptions(repo=repo, now=NOW, home=tmp_path / "home"), review,
             snapshot_dir=tmp_path / "snapshots")
    assert read == ["CLAUDE.md"]
    assert given == [[("CLAUDE.md", "# Rules\nRun the tests first.\n")]]


def test_a_saved_review_outlives_yes_and_goes_with_a_persons_answers(tmp_path: Path) -> None:
    root, repo = _dirs(tmp_path)
    options = PassOptions(repo=repo, now=NOW, home=tmp_path / "home")
    save_session(root, [Verdict("a.md", Choice.KEEP, sha256="x")], NOW)
    run_pass(root, options, auto_decide, snapshot_dir=tmp_path / "s1")
    assert load_session(root) is not None

    def person(plan: Plan, kept: Mapping[str, str],
               claude_md: Sequence[tuple[str, str]]) -> Decided:
        return Decided([], [], by_person=True)

    run_pass(root, options, person, snapshot_dir=tmp_path / "s2")
    assert load_session(root) is None


def test_a_pass_left_open_is_recorded_before_the_next_run_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, repo = _dirs(tmp_path)

    def killed(*_: object) -> str:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(run_pass_module, "record_pass", killed)
        with pytest.raises(KeyboardInterrupt):
            step_pass(root, NOW, "withdraw a.md", lambda snap: withdrawing.withdraw(
                root, WithdrawRequest("a.md", "done"), snapshot=snap, now=NOW),
                snapshot_dir=tmp_path / "s1")
    said: list[str] = []
    run_pass(root, PassOptions(repo=repo, now=LATER, home=tmp_path / "home"), auto_decide,
             snapshot_dir=tmp_path / "s2", notes=said.extend)
    assert any("recorded the pass" in note for note in said)
    assert [p.command for p in restorable(root).passes] == ["withdraw a.md", "run"]
