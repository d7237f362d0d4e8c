"""From the command line: a fact written straight into MEMORY.md is planned, withdrawn by
`run --yes` or `withdraw "MEMORY.md#L<n>"`, and brought back by `restore`."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.engine.tombstone import parse_tombstone
from prune_memory.store.pruninglog import read_log
from tests.conftest import CliResult, topic, write_tree

# These tests drive the write engine through `run --yes`: every evidence class is trusted.
pytestmark = pytest.mark.usefixtures("trust_all")

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
INDEX = ("# Memory\r\n\r\n## Project\r\n- [Auth](project_auth.md) — login flow\r\n"
         "- Deploys go out on Tuesdays\r\n"
         "- Currently debugging the flaky login test, session in progress").encode()
EPHEMERAL = "- Currently debugging the flaky login test, session in progress"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    for args in (["init", "-q"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                                  "--allow-empty", "-m", "start"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": INDEX,
        "project_auth.md": topic("auth", "JWT in cookies", description="Auth uses JWT"),
    })


def test_plan_run_yes_then_restore(cli: Cli, memory: Path, repo: Path, tmp_path: Path) -> None:
    plan = cli("plan", memory, "--repo", repo, "--json", "--now", NOW)
    proposed = {e["file"]: (e["action"], e["rule"]) for e in json.loads(plan.out)["entries"]}
    assert proposed["MEMORY.md#L6"] == ("withdraw", "1-ephemeral")
    assert proposed["MEMORY.md#L5"][0] == "keep"

    ran = cli("run", memory, "--repo", repo, "--yes", "--now", NOW, "--snapshot-dir",
              tmp_path / "snaps")
    assert ran.code == 0, ran.err
    assert "skipped" not in ran.err
    assert (memory / "MEMORY.md").read_bytes() == INDEX.removesuffix(EPHEMERAL.encode())
    (row,) = read_log(memory).rows
    assert (row.tombstone, row.type) == ("deaccessioned/MEMORY.md-L6.md", "Ephemeral")
    stone = parse_tombstone((memory / row.tombstone).read_bytes())
    assert stone.original == EPHEMERAL.encode()  # the last line had no line ending
    assert cli("scan", memory).code == 0

    back = cli("restore", row.register_id, memory, "--now", NOW)
    assert back.code == 0, back.err
    assert (memory / "MEMORY.md").read_bytes() == INDEX
    assert not (memory / "MEMORY.md#L6").exists()
    assert [c.change for c in read_log(memory).changes] == ["restored"]
    assert cli("scan", memory).code == 0


def test_withdraw_a_fact_by_its_line_id(cli: Cli, memory: Path) -> None:
    wrong = cli("withdraw", "MEMORY.md#L5", "--memory-dir", memory, "--reason", "moved",
                "--expect-sha256", "0" * 64, "--now", NOW)
    assert wrong.code == 4 and "changed since the plan" in wrong.err
    assert (memory / "MEMORY.md").read_bytes() == INDEX

    line = b"- Deploys go out on Tuesdays"
    done = cli("withdraw", "MEMORY.md#L5", "--memory-dir", memory, "--reason", "moved to CI",
               "--expect-sha256", hashlib.sha256(line).hexdigest(), "--now", NOW)
    assert done.code == 0, done.err
    assert "deaccessioned/MEMORY.md-L5.md" in done.out
    assert line not in (memory / "MEMORY.md").read_bytes()
    (row,) = read_log(memory).rows
    assert row.entry == "`MEMORY.md#L5` — Deploys go out on Tuesdays"

    heading = cli("withdraw", "MEMORY.md#L3", "--memory-dir", memory, "--reason", "x",
                  "--now", NOW)
    assert heading.code == 2 and "not an inline fact" in heading.err
