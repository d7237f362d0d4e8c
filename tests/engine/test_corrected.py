"""In-place corrections carry `[corrected YYYY-MM-DD]` on the lines they changed, and a plan
where more than a fifth of the entries drifted advises a rebuild."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine.update import annotate, update_entry
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.review import Choice, Verdict
from prune_memory.procedure.run_pass import finish_pass
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import topic, write_tree
from tests.evidence.probes.gitbuild import GitRepo

NOW = datetime(2026, 10, 5, 9, tzinfo=UTC)


def test_only_changed_lines_are_marked() -> None:
    old = ("Handlers live in `src/handlers.py`.\nTests use pytest.\n\n"
           "| what | where |\n|---|---|\n| jobs | `src/jobs.py` |\n"
           "```\nsrc/handlers.py\n```")
    new = ("Handlers live in `src/api/handlers.py`.\nTests use pytest.\n\n"
           "| what | where |\n|---|---|\n| jobs | `src/work/jobs.py` |\n"
           "```\nsrc/api/handlers.py\n```")
    assert annotate(old, new, NOW).splitlines() == [
        "Handlers live in `src/api/handlers.py`. [corrected 2026-10-05]",
        "Tests use pytest.", "", "| what | where |", "|---|---|",
        "| jobs | `src/work/jobs.py` [corrected 2026-10-05] |",
        "```", "src/api/handlers.py", "```"]


def test_a_second_correction_moves_the_date() -> None:
    old = "Port is 8080. [corrected 2026-01-02]"
    assert annotate(old, "Port is 9090. [corrected 2026-01-02]", NOW) == \
        "Port is 9090. [corrected 2026-10-05]"
    assert annotate(old, old, NOW) == old  # unchanged: the old mark stays as it was


def _repo_and_memory(tmp_path: Path, drifted: int, total: int) -> tuple[GitRepo, Path]:
    repo = GitRepo(tmp_path / "repo")
    repo.write({f"src/mod{n}.py": f"# {n}\n" for n in range(total)}).commit("start")
    for n in range(drifted):
        repo.mv(f"src/mod{n}.py", f"src/pkg/mod{n}.py")
    repo.commit("Move modules into a package")
    files = {f"m{n}.md": topic(f"m{n}", f"Module {n} lives in `src/mod{n}.py`.",
                               extra="modified: 2026-09-01T00:00:00Z\n") for n in range(total)}
    index = "# Memory\n" + "".join(f"- [M{n}](m{n}.md) — module {n}\n" for n in range(total))
    return repo, write_tree(tmp_path / "memory", {"MEMORY.md": index, **files})


def test_an_applied_drift_correction_is_marked(tmp_path: Path) -> None:
    repo, root = _repo_and_memory(tmp_path, drifted=1, total=5)
    plan = build_plan(root, PassOptions(repo=repo.root, now=NOW))
    entry = plan.entry("m0.md")
    assert entry is not None and entry.rule == "4-stale-known-correction"
    verdict = Verdict("m0.md", Choice.UPDATE, text=entry.proposed_text, reason=entry.reason)
    finish_pass(root, plan, [verdict], [], snapshot=take_snapshot(root, NOW, tmp_path / "s"),
                now=NOW)
    assert "Module 0 lives in `src/pkg/mod0.py`. [corrected 2026-10-05]" in \
        (root / "m0.md").read_text()


@pytest.mark.parametrize(("rule", "marked"), [
    ("manual", False),
    ("2-failed-fidelity", True),  # the name an earlier version's saved plan gives a correction
])
def test_only_drift_corrections_are_marked(tmp_path: Path, rule: str, marked: bool) -> None:
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n- [A](a.md) — a\n",
                                       "a.md": topic("a", "Old wording.")})
    update_entry(root, "a.md", "New wording.", reason="tidy", rule=rule,
                       snapshot=take_snapshot(root, NOW, tmp_path / "s"), now=NOW)
    assert ("New wording. [corrected 2026-10-05]" in (root / "a.md").read_text()) is marked


def test_rebuild_advice_past_a_fifth(tmp_path: Path) -> None:
    repo, root = _repo_and_memory(tmp_path / "a", drifted=1, total=5)
    assert not any("rebuild" in n for n in build_plan(root, PassOptions(
        repo=repo.root, now=NOW)).notes)  # exactly a fifth: correct in place
    repo, root = _repo_and_memory(tmp_path / "b", drifted=2, total=5)
    (note,) = [n for n in build_plan(root, PassOptions(repo=repo.root, now=NOW)).notes
               if "rebuild" in n]
    assert note.startswith("2 of 5 entries (40%) drifted")


def test_a_change_inside_a_wrapped_paragraph_is_marked_where_the_paragraph_ends() -> None:
    from datetime import UTC, datetime

    from prune_memory.engine.update import annotate
    old = ("Cookies are signed in `api/auth.py`. The key comes from the\n"
           "vault at start-up.\n\n- other item\n")
    new = old.replace("api/auth.py", "api/auth/session.py")
    out = annotate(old, new, datetime(2026, 11, 29, tzinfo=UTC))
    assert out == ("Cookies are signed in `api/auth/session.py`. The key comes from the\n"
                   "vault at start-up. [corrected 2026-11-29]\n\n- other item\n")
