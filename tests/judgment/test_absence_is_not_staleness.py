"""Only history proves a claim stale; absence, placeholders and plans prove nothing."""

from __future__ import annotations

import pytest

from prune_memory.model import Action
from tests.evidence.probes.gitbuild import GitRepo
from tests.judgment.conftest import Planner, entry_of, memory_file, messages


@pytest.mark.parametrize("body", [
    "Run `scripts/FILE.py` for each batch; outputs go to `out/batch-NN/`.",  # placeholders
    "The bot reads `repos/acme/pulls` and comments on each one.",  # an API endpoint
    "The trained weights live in `~/models/ranker.bin` on the GPU box.",  # another machine
    "Next quarter we will add `scripts/backfill.py` to replay old events.",  # a plan
    "There is no `config/legacy.yaml` any more; settings come from the env.",  # absence said
])
def test_what_was_never_in_history_is_no_evidence(planner: Planner, repo: GitRepo,
                                                  body: str) -> None:
    repo.write({"app.py": "x\n"}).commit("start")
    planned = entry_of(planner({"notes.md": memory_file("notes", body)}), "notes.md")
    assert planned.action is Action.KEEP, messages(planned)


def test_a_gitignored_path_lives_on_a_disk_not_in_git(planner: Planner, repo: GitRepo) -> None:
    repo.write({".gitignore": "local/\n", "app.py": "x\n"}).commit("start")
    planned = entry_of(planner({"env.md": memory_file(
        "env", "Secrets for local runs sit in `local/dev.env` (never committed).")}), "env.md")
    assert planned.action is Action.KEEP
    claims = [c for f in planned.findings for c in f.evidence.get("claims", [])]
    assert any("gitignored" in c["note"] for c in claims)


def test_a_file_taken_out_of_git_only_is_not_deleted(planner: Planner, repo: GitRepo) -> None:
    repo.write({".mcp.json": "{}\n", "app.py": "x\n"}).commit("start")
    repo.rm(".mcp.json").commit("Stop tracking .mcp.json: it is local only")
    planned = entry_of(planner({"tools.md": memory_file(
        "tools", "The MCP servers are listed in `.mcp.json` at the repo root.")}), "tools.md")
    assert planned.action is Action.KEEP, messages(planned)


def test_a_cleanup_that_also_touches_gitignore_still_deletes(planner: Planner,
                                                              repo: GitRepo) -> None:
    """Mentioning .gitignore untracks only what it now ignores: the rest was deleted."""
    repo.write({".gitignore": ".env\n", "tracker/server.py": "x\n", "app.py": "x\n"})
    repo.commit("start")
    repo.rm("tracker/server.py").write({".gitignore": "node_modules/\n"})
    repo.commit("chore: remove the old server\n\n- drop the unused .env entry from .gitignore")
    planned = entry_of(planner({"tools.md": memory_file(
        "tools", "The tracker's API is served by `tracker/server.py`.")}), "tools.md")
    assert planned.action is not Action.KEEP and "was deleted in" in messages(planned)


def test_uncommitted_work_on_disk_is_present(planner: Planner, repo: GitRepo) -> None:
    repo.write({"app.py": "x\n"}).commit("start")
    repo.write({"src/abilities/dash.cs": "class Dash {}\n"})  # written, not committed
    planned = entry_of(planner({"abilities.md": memory_file(
        "abilities", "Dash lives in `src/abilities/dash.cs`.")}), "abilities.md")
    assert planned.action is Action.KEEP
    assert planned.fidelity == "high"


def test_a_tail_of_a_tracked_path_is_present(planner: Planner, repo: GitRepo) -> None:
    repo.write({"client/Game/Assets/Core/Scripts/Loader.cs": "x\n"}).commit("start")
    planned = entry_of(planner({"layout.md": memory_file(
        "layout", "Scene loading is in `Core/Scripts/Loader.cs`.")}), "layout.md")
    assert planned.action is Action.KEEP and planned.fidelity == "high"


def test_one_stale_path_in_a_long_reference_is_an_update_never_a_withdrawal(
        planner: Planner, repo: GitRepo) -> None:
    repo.write({"api/app.py": "x\n", "api/users.py": "x\n", "api/orders.py": "x\n",
                "api/old_auth.py": "x\n"}).commit("start")
    sha = repo.rm("api/old_auth.py").commit("Drop the old auth helpers")
    body = ("Where the API code lives:\n- `api/app.py` builds the app\n"
            "- `api/users.py` holds the user routes\n- `api/orders.py` the order routes\n"
            "- `api/old_auth.py` checks tokens\n")
    planned = entry_of(planner({"api-map.md": memory_file("api-map", body)}), "api-map.md")
    assert (planned.action, planned.suggested_action) == (Action.REVIEW, Action.UPDATE)
    (drift,) = [f for f in planned.findings if f.code.value == "path-drift"]
    assert drift.evidence["commit"] == sha and drift.evidence["claim_line"]["line"] == 5
    assert drift.evidence["central"] is False


def test_a_deleted_subject_suggests_withdrawal(planner: Planner, repo: GitRepo) -> None:
    repo.write({"scripts/seed_db.py": "x\n", "app.py": "x\n"}).commit("start")
    repo.rm("scripts/seed_db.py").commit("Drop the seed script")
    planned = entry_of(planner({"seed.md": memory_file(
        "seed-db", "Fill a fresh database with `scripts/seed_db.py`; it empties tables first.",
        description="How to seed the local database")}), "seed.md")
    assert (planned.action, planned.suggested_action) == (Action.REVIEW, Action.WITHDRAW)
    assert planned.evidence_class == "subject-deleted"
    assert "Drop the seed script" in messages(planned)


def test_a_lone_word_sharing_an_old_directory_name_is_never_rewritten(
        planner: Planner, repo: GitRepo) -> None:
    repo.write({"inventory/main.rs": "x\n"}).commit("start")
    repo.mv("inventory/main.rs", "home-inventory/main.rs").commit("Rename the crate folder")
    planned = entry_of(planner({"host.md": memory_file(
        "host", "Builds run on the `inventory` server; its image is `inventory:dev`.")}),
        "host.md")
    assert planned.proposed_text is None  # the server and the image keep their names
    assert planned.action is not Action.UPDATE


def test_a_directory_that_still_exists_is_not_renamed(planner: Planner, repo: GitRepo) -> None:
    repo.write({"data/a.csv": "1\n", "data/b.csv": "2\n"}).commit("start")
    repo.mv("data/b.csv", "assets/b.csv").commit("Move one file to assets")
    planned = entry_of(planner({"files.md": memory_file(
        "files", "Inputs are read from `data/`.")}), "files.md")
    assert planned.action is Action.KEEP and planned.proposed_text is None


def test_a_rename_record_stays_intact(planner: Planner, repo: GitRepo) -> None:
    repo.write({"src/auth.py": "x\n"}).commit("start")
    repo.mv("src/auth.py", "src/session.py").commit("Rename auth to session")
    planned = entry_of(planner({"rename.md": memory_file(
        "rename", "`src/auth.py` → `src/session.py` in March; the old name is gone.")}),
        "rename.md")
    assert planned.action is Action.KEEP and planned.proposed_text is None


def test_a_stale_word_left_behind_blocks_the_update(planner: Planner, repo: GitRepo) -> None:
    repo.write({"package.json": '{"devDependencies": {"jest": "^29.0.0", '
                                '"ts-jest": "^29.0.0"}}\n'}).commit("start")
    repo.write({"package.json": '{"devDependencies": {"vitest": "^2.0.0"}}\n'}).commit(
        "Switch the unit tests from Jest to Vitest")
    planned = entry_of(planner({"tests.md": memory_file(
        "tests", "Unit tests run on Jest with ts-jest; mocks use jest.fn().")}), "tests.md")
    assert planned.suggested_action is Action.UPDATE
    assert planned.proposed_text is None  # "Vitest with ts-jest" would be false
