"""`prune-memory sweep`: exit codes, JSON, and that it changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.conftest import ROOT, CliResult, tree_hash


def test_sweep_finds_old_names_and_exits_1(cli: Callable[..., CliResult],
                                           demo_memory: Path) -> None:
    before = tree_hash(demo_memory)
    result = cli("sweep", demo_memory, "--rename", "pebble=cairn", "--json")
    assert result.code == 1
    data = json.loads(result.out)
    assert data["schema"] == "prune-memory/sweep@1"
    files = {e["file"] for e in data["entries"]}
    assert files == {"project_package_names.md", "project_rename_to_cairn.md"}
    names = next(e for e in data["entries"] if e["file"] == "project_package_names.md")
    assert "cairn-api" in names["proposed_text"] and "pebble" not in names["proposed_text"]
    assert tree_hash(demo_memory) == before


def test_sweep_table_and_clean_exit(cli: Callable[..., CliResult], demo_memory: Path) -> None:
    found = cli("sweep", demo_memory, "--rename", "api/auth.py=api/auth/session.py")
    assert found.code == 1 and "project_session_signing.md" in found.out
    clean = cli("sweep", demo_memory, "--rename", "nowhere=somewhere")
    assert clean.code == 0 and "No memory mentions" in clean.out


def test_sweep_bad_input(cli: Callable[..., CliResult], demo_memory: Path) -> None:
    assert cli("sweep", demo_memory, "--rename", "no-equals").code == 2
    assert cli("sweep", demo_memory).code == 2
    assert cli("sweep", demo_memory / "missing", "--rename", "a=b").code == 2


def test_sweep_ignore_case_in_a_subprocess(demo_memory: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "prune_memory", "sweep", str(demo_memory),
                           "-i", "--rename", "PEBBLE=cairn", "--json"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["ignore_case"] is True
