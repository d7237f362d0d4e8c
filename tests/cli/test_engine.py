from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.engine import journal, session
from prune_memory.store import temps
from prune_memory.store.pruninglog import read_log
from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
INDEX = "# Memory\n- [Auth](project_auth.md) — login\n- [CI](project_ci.md) — pipeline\n"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": INDEX,
        "project_auth.md": topic("auth", "JWT", description="Auth uses JWT"),
        "project_ci.md": topic("ci", "Jenkins", description="CI on Jenkins"),
    })


def test_snapshot_writes_a_manifest_sha256sum_accepts(cli: Cli, memory: Path) -> None:
    done = cli("snapshot", memory, "--json", "--now", NOW)
    assert done.code == 0, done.err
    manifest = Path(json.loads(done.out)["manifest"])
    check = subprocess.run(["sha256sum", "-c", manifest.name], cwd=manifest.parent,
                           capture_output=True)
    assert check.returncode == 0


def test_snapshot_inside_the_memory_directory_is_refused(cli: Cli, memory: Path,
                                                         tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(memory)
    for target in (memory / "backup", tmp_path / "alias" / "backup"):
        done = cli("snapshot", memory, "--snapshot-dir", target)
        assert done.code == 4 and "inside the memory directory" in done.err


def test_withdraw_then_restore_round_trip(cli: Cli, memory: Path) -> None:
    original = (memory / "project_ci.md").read_bytes()
    done = cli("withdraw", memory / "project_ci.md", "--reason", "moved to Actions",
               "--rule", "4-stale-subject-gone", "--now", NOW)
    assert done.code == 0, done.err
    assert "2026-11-29-01" in done.out and "deaccessioned/project_ci.md" in done.out
    assert not (memory / "project_ci.md").exists()
    (audit,) = read_log(memory).audits
    assert audit.fields["Entries withdrawn"] == "1 (100%)"
    assert Path(audit.fields["Snapshot manifest"]).is_file()
    back = cli("restore", "2026-11-29-01", memory, "--reason", "still needed", "--now", NOW)
    assert back.code == 0, back.err
    assert (memory / "project_ci.md").read_bytes() == original
    assert (memory / "MEMORY.md").read_text() == INDEX
    assert cli("restore", "2026-11-29-01", memory).code == 2
    assert cli("restore", "2026-01-01-09", memory).code == 2


def test_protected_is_refused_with_exit_4_until_unprotected(cli: Cli, memory: Path) -> None:
    assert cli("protect", "project_auth.md", "--memory-dir", memory, "--reason",
               "decision record").code == 0
    refused = cli("withdraw", "project_auth.md", "--memory-dir", memory, "--reason", "x")
    assert refused.code == 4 and "protected" in refused.err
    refused = cli("inoculate", "project_auth.md", "--memory-dir", memory, "--pattern", "p",
                  "--evidence", "e", "--reason", "r", "--do-not-rederive", "d", "--withdraw")
    assert refused.code == 4
    assert (memory / "project_auth.md").exists()
    assert cli("unprotect", "project_auth.md", "--memory-dir", memory, "--reason",
               "superseded").code == 0
    assert cli("withdraw", "project_auth.md", "--memory-dir", memory, "--reason", "x").code == 0
    assert [c.change for c in read_log(memory).changes] == ["protected", "unprotected"]


def test_changed_since_the_plan_is_exit_4(cli: Cli, memory: Path) -> None:
    done = cli("withdraw", memory / "project_ci.md", "--reason", "x", "--expect-sha256",
               "0" * 64)
    assert done.code == 4 and "changed since the plan" in done.err
    assert (memory / "project_ci.md").exists()


def test_inoculate_with_and_without_withdraw(cli: Cli, memory: Path) -> None:
    args = ["--pattern", "Jenkins is the CI", "--evidence", "moved in March", "--reason",
            "retired", "--do-not-rederive", "old Jenkinsfile", "--memory-dir", str(memory)]
    assert cli("inoculate", "project_auth.md", *args, "--slug", "auth").code == 0
    assert (memory / "project_auth.md").exists() and (memory / "superseded_auth.md").exists()
    done = cli("inoculate", "project_ci.md", *args, "--withdraw", "--json", "--now", NOW)
    assert done.code == 0, done.err
    applied = json.loads(done.out)["applied"][0]
    assert applied["superseded"] == "superseded_project-ci.md"
    (row,) = read_log(memory).rows
    assert (row.tombstone, row.superseded_by) == ("deaccessioned/project_ci.md",
                                                  "superseded_project-ci.md")


def test_a_missing_reason_is_a_usage_error(cli: Cli, memory: Path) -> None:
    assert cli("withdraw", memory / "project_ci.md").code == 2
    assert cli("protect", memory / "project_ci.md", "--reason", " ").code == 2


def test_a_held_lock_refuses_and_recover_settles_a_journal(cli: Cli, memory: Path) -> None:
    held = session.acquire(memory)
    try:
        done = cli("withdraw", memory / "project_ci.md", "--reason", "x")
        assert done.code == 4 and "locked" in done.err
    finally:
        session.release(held)
    assert "nothing to recover" in cli("recover", memory).out
    ours = memory / f".{'0badc0de' * 4}.pm-tmp"
    temps.note_temp(ours)  # as an interrupted atomic_write leaves it
    ours.write_bytes(b"half")
    (memory / ".MEMORY.md.0badc0de.pm-tmp").write_bytes(b"a user's file")
    row = ["2026-11-29", "inoculated", "`project_ci.md`", "N/A", "interrupted"]
    journal.begin(memory, {"op": "inoculate", "file": "project_ci.md", "row": row,
                           "superseded": {"file": "superseded_x.md", "data": "", "index_line":
                                          "- [S](superseded_x.md) — s"}})
    done = cli("recover", memory)
    assert done.code == 0, done.err
    assert "inoculate project_ci.md: done" in done.out and "pm-tmp" in done.out
    assert not ours.exists() and (memory / ".MEMORY.md.0badc0de.pm-tmp").exists()
    assert not journal.pending(memory)
    assert "](superseded_x.md)" in (memory / "MEMORY.md").read_text()
    assert read_log(memory).changes[0].reason == "interrupted"


def test_every_engine_command_has_an_example(cli: Cli) -> None:
    for command in ("snapshot", "withdraw", "inoculate", "protect", "unprotect", "restore",
                    "recover"):
        shown = cli(command, "--help")
        assert shown.code == 0 and "Example:" in shown.out, command
