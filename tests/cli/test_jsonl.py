from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, topic, write_tree
from tests.jsonstore.seed_example import CHECK_ARCHIVED, CHECKS, NOW, write_store

Cli = Callable[..., CliResult]


def test_report_prints_the_seed_compatible_json(cli: Cli, tmp_path: Path) -> None:
    store = write_store(tmp_path / "memories.jsonl")
    result = cli("jsonl", "report", store, "--now", NOW)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["total_records"] == 7 and data["exact_duplicate_groups"] == [["m1", "m2"]]
    assert data["contradiction_flags"][0]["reason"] == "negation differs"


def test_report_options(cli: Cli, tmp_path: Path) -> None:
    store = write_store(tmp_path / "memories.json", as_list=True)
    strict = json.loads(cli("jsonl", "report", store, "--now", NOW,
                            "--near-threshold", "0.85", "--negations", "seed").out)
    assert [p["ids"] for p in strict["near_duplicate_pairs"]] == [["m5", "m6"]]
    assert cli("jsonl", "report", store, "--near-threshold", "0").code == 2
    assert cli("jsonl", "report", store, "--negations", "some").code == 2


def test_prune_then_verify(cli: Cli, tmp_path: Path) -> None:
    store = write_store(tmp_path / "memories.jsonl")
    kept, archived = tmp_path / "kept.jsonl", tmp_path / "archived.jsonl"
    result = cli("jsonl", "prune", store, "--out", kept, "--archive", archived, "--now", NOW)
    assert result.code == 0, result.err
    assert json.loads(result.out)["archived_ids"] == ["m2", "m4"]
    assert all("_archive_reason" in json.loads(line) for line in archived.read_text().splitlines())
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps(CHECKS), encoding="utf-8")
    passed = cli("jsonl", "verify", kept, checks)
    assert passed.code == 0 and passed.out.strip().endswith("2/2 checks passed")
    checks.write_text(json.dumps([*CHECKS, CHECK_ARCHIVED]), encoding="utf-8")
    failed = cli("jsonl", "verify", kept, checks, "--json")
    assert failed.code == 1
    assert json.loads(failed.out)["passed"] == 2 and json.loads(failed.out)["total"] == 3


def test_prune_refuses_to_write_over_the_store(cli: Cli, tmp_path: Path) -> None:
    store = write_store(tmp_path / "memories.jsonl")
    before = store.read_bytes()
    result = cli("jsonl", "prune", store, "--out", store, "--archive", tmp_path / "a.jsonl")
    assert result.code == 2 and "three different files" in result.err
    assert store.read_bytes() == before


@pytest.mark.parametrize("command", [
    ["report"], ["prune", "--out", "k.jsonl", "--archive", "a.jsonl"]])
def test_missing_store_is_bad_input(cli: Cli, tmp_path: Path, command: list[str]) -> None:
    result = cli("jsonl", command[0], tmp_path / "absent.jsonl", *command[1:])
    assert result.code == 2
    assert result.err.strip().count("\n") == 0 and "store not found" in result.err


def test_verify_errors_are_bad_input(cli: Cli, tmp_path: Path) -> None:
    store = write_store(tmp_path / "memories.jsonl")
    assert cli("jsonl", "verify", tmp_path / "absent.jsonl", tmp_path / "c.json").code == 2
    assert cli("jsonl", "verify", store, tmp_path / "absent.json").code == 2
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps(CHECKS), encoding="utf-8")
    result = cli("jsonl", "verify", broken, checks)
    assert result.code == 2 and "line 1 is not JSON" in result.err


def test_verify_a_memory_directory_by_file(cli: Cli, tmp_path: Path) -> None:
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Deploys](deploys.md) — when we ship\n",
        "deploys.md": topic("deploys", "Releases go out on Tuesdays after the freeze."),
        "testing.md": topic("testing", "Integration tests need the docker compose stack."),
    })
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps([
        {"query": "when do releases go out", "expect_file": "deploys.md"},
        {"query": "docker stack for integration tests", "expect_file": "testing.md"}]))
    assert cli("jsonl", "verify", memory, checks).code == 0
    checks.write_text(json.dumps([{"query": "kubernetes", "expect_file": "deploys.md"}]))
    assert cli("jsonl", "verify", memory, checks).code == 1
    checks.write_text(json.dumps([{"query": "releases", "expect_id": "deploys.md"}]))
    assert cli("jsonl", "verify", memory, checks).code == 2


def test_every_jsonl_command_has_an_example(cli: Cli) -> None:
    for command in ("report", "prune", "verify"):
        result = cli("jsonl", command, "--help")
        assert result.code == 0
        assert any(line.strip().startswith("Example:") for line in result.out.splitlines())


def test_prune_backs_up_the_store_first_with_a_dated_name(cli: Cli, tmp_path: Path) -> None:
    store = write_store(tmp_path / "memories.jsonl")
    before = store.read_bytes()
    args = ("jsonl", "prune", store, "--out", tmp_path / "k.jsonl", "--archive",
            tmp_path / "a.jsonl", "--now", NOW)
    result = cli(*args)
    backup = tmp_path / "memories.jsonl.bak-20261012T000000Z"
    assert json.loads(result.out)["backup"] == str(backup)
    assert backup.read_bytes() == before
    assert json.loads(cli(*args).out)["backup"] == str(backup)  # same bytes: reused
    store.write_bytes(before + b"\n")
    again = json.loads(cli(*args).out)["backup"]
    assert again == f"{backup}-2" and Path(again).read_bytes() == before + b"\n"
    elsewhere = tmp_path / "backups"
    elsewhere.mkdir()
    moved = json.loads(cli(*args, "--backup-dir", elsewhere).out)["backup"]
    assert Path(moved).parent == elsewhere
    assert cli(*args, "--backup-dir", tmp_path / "absent").code == 2
