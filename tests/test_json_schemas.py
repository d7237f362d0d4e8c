"""Every JSON output carries a schema tag, and its JSON Schema in references/ holds for the
real output of the command."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import typer

from tests.conftest import ROOT, CliResult, topic, write_tree

SCHEMAS = ROOT / "references" / "schemas"
NOW = "2026-11-29T12:00:00Z"
Cli = Callable[..., CliResult]
# Command → the schema(s) its JSON output follows (restore has three shapes).
COVERED = {
    "inventory": {"inventory"}, "scan": {"scan"}, "where": {"where"}, "status": {"status"},
    "due": {"due"}, "lint": {"lint"}, "snapshot": {"snapshot"}, "withdraw": {"change"},
    "inoculate": {"change"}, "protect": {"change"}, "unprotect": {"change"},
    "flag": {"change"}, "unflag": {"change"}, "reaccession": {"change", "reaccession-lines"},
    "restore": {"change", "restorable", "undo"}, "recover": {"recover"}, "sweep": {"sweep"},
    "plan": {"plan"}, "jsonl report": {"jsonl-report"}, "jsonl prune": {"jsonl-prune"},
    "jsonl verify": {"jsonl-verify"},
}


def schema_of(name: str) -> dict[str, Any]:
    path = ROOT / "references" / "plan.schema.json" if name == "plan" else \
        SCHEMAS / f"{name}.schema.json"
    return dict(json.loads(path.read_text()))


def check(result: CliResult, name: str) -> dict[str, Any]:
    assert result.code in (0, 1), result.err
    data = json.loads(result.out)
    assert data["schema"] == f"prune-memory/{name}@1"
    jsonschema.validate(data, schema_of(name))
    return dict(data)


def json_commands(group: Any, prefix: str = "") -> Iterator[str]:
    for name, command in group.commands.items():
        path = f"{prefix}{name}"
        if hasattr(command, "commands"):
            yield from json_commands(command, f"{path} ")
        elif any(p.name == "json" for p in command.params) or path.startswith("jsonl "):
            yield path


def test_every_command_with_json_output_has_a_schema() -> None:
    from prune_memory.cli import app

    found = set(json_commands(typer.main.get_command(app)))
    assert found == set(COVERED)
    for names in COVERED.values():
        for name in names:
            assert schema_of(name)["properties"]["schema"]["const"] == f"prune-memory/{name}@1"


def test_the_views_hold_their_schemas(cli: Cli, demo_memory: Path, demo_repo: Path,
                                      tmp_path: Path) -> None:
    memory = demo_memory
    (memory / "deaccessioned").mkdir()
    (memory / "deaccessioned" / "old.md").write_text("---\nname: x\n---\nghp_" + "a1" * 18 + "\n")
    assert check(cli("inventory", memory, "--json", "--now", NOW), "inventory")["entries"]
    scan = check(cli("scan", memory, "--json"), "scan")
    assert scan["dangling"] and scan["orphaned"] and scan["secret_tombstones"]
    check(cli("where", demo_repo, "--json"), "where")
    projects = tmp_path / "projects"
    write_tree(projects / "-p" / "memory", {"MEMORY.md": "# M\n- [A](a.md) — a\n",
                                            "a.md": topic("a", "A")})
    assert check(cli("status", projects, "--json"), "status")["projects"]
    check(cli("due", memory, "--json", "--now", NOW), "due")
    assert check(cli("lint", memory, "--json", "--suggest", "--now", NOW), "lint")["violations"]
    sweep = check(cli("sweep", memory, "--rename", "pebble=cairn", "--json"), "sweep")
    assert sweep["hits"]
    plan = check(cli("plan", memory, "--repo", demo_repo, "--json", "--now", NOW), "plan")
    assert plan["entries"]


def test_the_write_commands_hold_their_schemas(cli: Cli, demo_memory: Path,
                                               demo_repo: Path, tmp_path: Path) -> None:
    memory, snaps = demo_memory, tmp_path / "snaps"
    check(cli("snapshot", memory, "--json", "--now", NOW, "--snapshot-dir", snaps), "snapshot")
    done = check(cli("withdraw", "reference_ci_bot_token.md", "--memory-dir", memory,
                     "--reason", "leaked", "--json", "--now", NOW), "change")
    assert done["applied"][0]["vault"]
    check(cli("inoculate", "project_issue_42.md", "--memory-dir", memory, "--pattern",
              "expiry bug is open", "--evidence", "closed", "--reason", "fixed",
              "--do-not-rederive", "old notes", "--withdraw", "--json", "--now", NOW), "change")
    check(cli("protect", "user_profile.md", "--memory-dir", memory, "--reason", "r", "--json"),
          "change")
    check(cli("unprotect", "user_profile.md", "--memory-dir", memory, "--reason", "r",
              "--json"), "change")
    check(cli("flag", "user_profile.md", "--memory-dir", memory, "--reason", "r", "--json"),
          "change")
    check(cli("unflag", "user_profile.md", "--memory-dir", memory, "--reason", "r", "--json"),
          "change")
    lines = check(cli("reaccession", "2026-11-29-02", "--memory-dir", memory, "--show",
                      "--json"), "reaccession-lines")
    assert lines["lines"]
    check(cli("reaccession", "2026-11-29-02", "--memory-dir", memory, "--lines", "1",
              "--file", "project_issue_42_note.md", "--reason", "r", "--json", "--now", NOW),
          "change")
    check(cli("recover", memory, "--json"), "recover")
    listed = check(cli("restore", "--list", "--memory-dir", memory, "--json"), "restorable")
    assert len(listed["register"]) == 2
    check(cli("restore", "2026-11-29-02", "--memory-dir", memory, "--json", "--now", NOW),
          "change")
    swept = check(cli("sweep", memory, "--rename", "pebble=cairn", "--apply", "--json",
                      "--now", NOW), "sweep")
    assert swept["applied"]["applied"][0]["register_id"]
    ran = cli("run", memory, "--repo", demo_repo, "--yes", "--now", NOW)
    assert ran.code == 0, ran.err
    undone = check(cli("restore", "--pass", "last", "--memory-dir", memory, "--json"), "undo")
    assert undone["passes"][0]["exact"]


def test_the_jsonl_commands_hold_their_schemas(cli: Cli, tmp_path: Path) -> None:
    store = tmp_path / "store.jsonl"
    rows = [{"id": "a", "text": "deploys go out on tuesdays", "created_at": "2026-01-01"},
            {"id": "b", "text": "deploys go out on tuesdays", "created_at": "2026-02-01"}]
    store.write_text("".join(json.dumps(r) + "\n" for r in rows))
    report = check(cli("jsonl", "report", store, "--now", NOW), "jsonl-report")
    assert report["exact_duplicate_groups"]
    check(cli("jsonl", "prune", store, "--out", tmp_path / "k.jsonl", "--archive",
              tmp_path / "a.jsonl", "--now", NOW), "jsonl-prune")
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps([{"query": "deploys tuesdays", "expect_id": "a"}]))
    check(cli("jsonl", "verify", store, checks, "--json"), "jsonl-verify")


@pytest.mark.parametrize("name", sorted(p.name for p in SCHEMAS.glob("*.schema.json")))
def test_each_schema_is_valid_json_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMAS / name).read_text()))
