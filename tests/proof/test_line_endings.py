"""Line endings and hand edits survive every edit the tool makes.

A MEMORY.md whose lines end in a lone CR was rebuilt from scratch by `run --yes` (the
editor read it as one line, so removing one entry removed them all). A hand-edited
pruning log — a BOM, latin-1 bytes, a form feed, U+2028, CR line ends — was re-encoded on
every write. Now each edit splices lines: what it did not write keeps its bytes.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine.protect import protect
from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.update import update_entry
from prune_memory.engine.withdraw import withdraw
from prune_memory.errors import ExitCode
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import DEMO_MEMORY, CliResult, topic, write_tree

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
ENDS = {"lf": b"\n", "crlf": b"\r\n", "cr": b"\r"}
LINK = re.compile(r"\]\(([^)]+\.md)\)")


def with_ends(data: bytes, end: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", end)


def lines_of(data: bytes, end: bytes) -> list[bytes]:
    return data.split(end)


@pytest.mark.parametrize("kind", ["lf", "crlf", "cr"])
def test_run_yes_keeps_every_other_index_line_and_its_ending(
        cli: Cli, tmp_path: Path, demo_repo: Path, kind: str) -> None:
    end = ENDS[kind]
    root = Path(shutil.copytree(DEMO_MEMORY, tmp_path / "memory"))
    index = root / "MEMORY.md"
    index.write_bytes(with_ends(index.read_bytes(), end))
    before = lines_of(index.read_bytes(), end)
    dangling = {name for line in before for name in LINK.findall(line.decode())
                if not (root / name).exists()}
    done = cli("run", root, "--repo", demo_repo, "--yes", "--now", NOW)
    assert done.code == ExitCode.OK, done.err
    after = index.read_bytes()
    if kind != "crlf":
        assert b"\r\n" not in after
    if kind == "cr":
        assert b"\n" not in after
    gone = {row.file for row in read_log(root).rows if row.file} | dangling
    lost = [line for line in before if line not in lines_of(after, end)]
    assert lost and all(any(f"]({name})".encode() in line for name in gone)
                        for line in lost), lost
    assert after.count(b"## Re-indexed by prune-memory") <= 1
    assert len(lines_of(after, end)) < len(before) + 8  # nothing indexed twice


HAND_EDITED = ("\ufeff# Pruning log\r\r"
               "Kept by hand: caf\xe9 — notes \x0c page two\u2028same line\r\r"
               "## Protected\r- `project_ci.md` — keep it (protected 2026-01-01)\r\r"
               "## Changes\r| date | change | entry | register_id | reason |\r"
               "|---|---|---|---|---|\r| 2026-01-01 | protected | `project_ci.md` | N/A | keep |\r")


def test_a_hand_edited_pruning_log_keeps_its_bytes(tmp_path: Path) -> None:
    raw = HAND_EDITED.encode("utf-8").replace("caf\xe9".encode(), b"caf\xe9")  # latin-1 é
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [CI](project_ci.md) — ci\n- [Auth](project_auth.md) — a\n",
        "project_ci.md": topic("ci", "Jenkins"), "project_auth.md": topic("auth", "JWT"),
        "pruning-log.md": raw})
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    snap = take_snapshot(root, now)
    withdraw(root, WithdrawRequest("project_auth.md", "moved"), snapshot=snap,
                   now=now)
    restore(root, "2026-11-29-01", now=now)
    protect(root, "project_auth.md", "keep this one too", now=now)
    after = (root / "pruning-log.md").read_bytes()
    assert after.startswith(b"\xef\xbb\xbf# Pruning log\r")
    assert b"\n" not in after  # every line added took the file's CR ending
    for line in raw.split(b"\r"):
        assert line in after.split(b"\r"), line
    assert b"caf\xe9 \xe2\x80\x94 notes \x0c page two\xe2\x80\xa8same line\r" in after
    log = read_log(root)
    assert [c.change for c in log.changes] == ["protected", "restored", "protected"]
    assert log.is_protected("project_auth.md") and len(log.rows) == 1


def test_an_update_keeps_a_topic_files_line_endings(tmp_path: Path) -> None:
    body = topic("ci", "Jenkins builds").encode().replace(b"\n", b"\r")
    root = write_tree(tmp_path / "memory", {"MEMORY.md": "- [CI](project_ci.md) — ci\n",
                                            "project_ci.md": body})
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    snap = take_snapshot(root, now)
    update_entry(root, "project_ci.md", "GitHub Actions builds\nand deploys",
                       reason="moved", snapshot=snap, now=now, rule="edited in review")
    after = (root / "project_ci.md").read_bytes()
    assert b"\n" not in after and after.startswith(b"---\rname: ci\r")
    assert after.endswith(b"modified: 2026-11-29T12:00:00Z\r---\rGitHub Actions builds\r"
                          b"and deploys\r")
