"""A plan carried out, against a note that only points at a plan's document."""

from __future__ import annotations

from pathlib import Path

from prune_memory.config import Config
from prune_memory.evidence.probes.paths import PathProbe
from prune_memory.evidence.probes.plans import PlanProbe, plan_document, plan_word
from prune_memory.procedure.staleness import probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir


def test_a_moved_plan_document_is_a_stale_pointer_not_a_finished_plan(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"docs/rollout-plan.md": "# Rollout\n" + "step\n" * 30,
                "scripts/seed.py": "seed()\n"}).commit("start")
    repo.mv("docs/rollout-plan.md", "docs/plans/rollout-plan.md").commit("file the plans")
    repo.rm("scripts/seed.py").commit("remove the seed script")
    note = entry("reference_rollout.md", "The rollout plan is in `docs/rollout-plan.md`.\n",
                 memory_type="reference", description="where the rollout plan lives")
    plan = entry("project_seed_removal_plan.md", "Plan: remove `scripts/seed.py`; read the "
                 "steps in `docs/rollout-plan.md`.\n", description="seed removal plan")
    report = probe_staleness(memdir(note, plan), repo.root, NOW, Config(),
                             probes=[PathProbe(), PlanProbe()])
    (moved,) = report.findings["reference_rollout.md"]
    assert moved.evidence["current_path"] == "docs/plans/rollout-plan.md"  # an update
    kinds = [f.evidence.get("kind") for f in report.findings["project_seed_removal_plan.md"]]
    assert "plan-carried-out" in kinds  # the seed script went, as the plan said
    done = next(f for f in report.findings["project_seed_removal_plan.md"]
                if f.evidence.get("kind") == "plan-carried-out")
    assert [s["path"] for s in done.evidence["done"]] == ["scripts/seed.py"]


def test_what_holds_a_plan() -> None:
    assert plan_document("docs/plans/x.md") and plan_document("ROADMAP.md")
    assert not plan_document("src/planner.py") and not plan_document("docs/setup.md")


def test_a_file_the_head_names_does_not_make_the_memory_a_plan() -> None:
    listed = entry("docs_layout.md", "- `guide.md`\n", description="The docs folder after "
                   "the merge (adds `testing-plan.md` and docs/plans/)")
    assert plan_word(listed) is None
    assert plan_word(entry("rollout_plan.md", "- step one\n")) == "plan"


def test_a_to_do_a_later_commit_says_it_did_is_built(tmp_path: Path) -> None:
    """"TODO: Core Erlang target" while a commit since says "Core Erlang compilation target";
    a to-do no commit speaks of, or one done before the memory, stays."""
    repo = GitRepo(tmp_path / "repo")
    repo.write({"src/a.erl": "a.\n"}).commit("Add the export target for rebar",
                                            date="2026-01-05T12:00:00+00:00")
    repo.write({"src/b.erl": "b.\n"}).commit("Core Erlang compilation target (MVP)",
                                            date="2026-02-01T12:00:00+00:00")
    todo = entry("project_next.md", "- TODO: Core Erlang target\n- TODO: replace the ETS "
                 "tables with a registry\n- TODO: export target for rebar\n",
                 description="compiler todo list", written="2026-01-10T00:00:00+00:00")
    report = probe_staleness(memdir(todo), repo.root, NOW, Config(), probes=[PlanProbe()])
    (built,) = report.findings["project_next.md"]
    assert built.evidence["kind"] == "plan-built"
    assert [b["named"] for b in built.evidence["built"]] == ["Core Erlang target"]
    assert "'Core Erlang target' done in" in built.message
    assert '("Core Erlang compilation target (MVP)")' in built.message
