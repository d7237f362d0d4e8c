"""File names the tool did not expect: every one withdraws and restores byte for byte.

Runs of spaces, tabs, newlines, form feeds, U+2028 and names up to the 255-byte limit once
withdrew but could not come back (the register collapsed the white space), broke every
snapshot (the manifest reader split lines on U+2028 and form feeds) or made a temp name
too long (then every write command, `recover` included, crashed). A backslash, a plain
POSIX character, could not be withdrawn at all. A user's own file that looks like a temp
file must survive and be in the snapshot.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine import journal
from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.withdraw import withdraw
from prune_memory.errors import ExitCode
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import read_manifest, take_snapshot
from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
ODD = ["two  spaces.md", "tab\there.md", "new\nline.md", "form\x0cfeed.md",
       "line\u2028sep.md", "para\u2029sep.md", "nel\x85x.md", " lead.md", "trail.md ",
       "back`tick.md", "pi|pe.md", '"quoted".md', "%41.md", "ü-ñ.md", "back\\slash.md",
       "end\\.md", "pi\\|pe.md", "\\n.md"]
LONG = ["p" * n + ".md" for n in (236, 244, 248, 252)]  # 239 to 255 bytes


def body(name: str) -> bytes:
    return topic("odd", f"Notes kept under the name {name!r}.").encode()


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    files: dict[str, str | bytes] = {name: body(name) for name in [*ODD, *LONG]}
    files["MEMORY.md"] = "# Memory\n- [Long](" + LONG[-1] + ") — the longest name\n"
    return write_tree(tmp_path / "memory", files)


def sha256sum_accepts(manifest: Path) -> bool:
    done = subprocess.run(["sha256sum", "--quiet", "-c", manifest.name], cwd=manifest.parent,
                          capture_output=True)
    return done.returncode == 0


def test_every_odd_name_withdraws_and_restores_from_tombstone_and_snapshot(
        memory: Path) -> None:
    snap = take_snapshot(memory, NOW)
    assert sorted(read_manifest(snap.manifest)) == sorted(p.name for p in memory.iterdir())
    assert sha256sum_accepts(snap.manifest)
    index = (memory / "MEMORY.md").read_bytes()
    for n, name in enumerate([*ODD, *LONG], start=1):
        done = withdraw(memory, WithdrawRequest(name, "odd"), snapshot=snap, now=NOW)
        (applied,) = done.applied
        assert len(Path(applied.tombstone or "").name.encode()) <= 255
        row = read_log(memory).row(applied.register_id or "")
        assert row is not None and row.file == name and row.tombstone == applied.tombstone
        if n % 2:  # half come back from the tombstone, half from the snapshot
            (memory / row.tombstone).unlink()
        restore(memory, row.register_id, now=NOW)
        assert (memory / name).read_bytes() == body(name), name
    assert (memory / "MEMORY.md").read_bytes() == index


def test_a_name_taken_in_the_tombstone_folder_still_fits(memory: Path) -> None:
    snap = take_snapshot(memory, NOW)
    for _ in range(2):  # the second withdrawal finds its plain tombstone name taken
        done = withdraw(memory, WithdrawRequest(LONG[-1], "x"), snapshot=snap, now=NOW)
        restore(memory, done.applied[0].register_id or "", now=NOW)
    names = [p.name for p in (memory / "deaccessioned").iterdir()]
    assert len(names) == 2 and all(len(n.encode()) <= 255 for n in names)
    assert (memory / LONG[-1]).read_bytes() == body(LONG[-1])


def test_a_users_temp_lookalikes_survive_and_are_snapshotted(cli: Cli, tmp_path: Path) -> None:
    lookalikes = {".notes.pm-tmp": b"mine\n", "draft.pm-tmp": b"also mine\n",
                  f".{'ab' * 16}.pm-tmp": b"shaped like ours, still mine\n"}
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Chatter](project_chatter.md) — now\n",
        "project_chatter.md": topic("chatter", "Currently debugging the flaky upload test."),
        **lookalikes})
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    for args in (("run", root, "--repo", tmp_path / "repo", "--yes", "--now", NOW.isoformat()),
                 ("recover", root), ("snapshot", root, "--json")):
        done = cli(*args)
        assert done.code == ExitCode.OK, (args, done.err)
    for name, data in lookalikes.items():
        assert (root / name).read_bytes() == data
    manifest = read_manifest(Path(json.loads(done.out)["manifest"]))
    assert set(lookalikes) <= set(manifest)


def test_recover_sets_aside_a_step_that_can_never_finish(cli: Cli, memory: Path) -> None:
    snap = take_snapshot(memory, NOW)
    withdraw(memory, WithdrawRequest(ODD[0], "x"), snapshot=snap, now=NOW)
    record = journal.begin(memory, {"op": "restore", "file": "x" * 300 + ".md",
                                    "original_sha256": "0" * 64, "source": {},
                                    "index_lines": [], "row": []})
    done = cli("recover", memory)
    assert done.code == ExitCode.OK, done.err
    assert "set-aside" in done.out + done.err and "can never finish" in done.out + done.err
    assert not record.exists() and not journal.pending(memory)
    again = cli("restore", "2026-11-29-01", memory)
    assert again.code == ExitCode.OK, again.err
    assert (memory / ODD[0]).read_bytes() == body(ODD[0])


def test_a_name_too_long_for_the_filesystem_is_bad_input(cli: Cli, memory: Path) -> None:
    done = cli("withdraw", "q" * 300 + ".md", "--memory-dir", memory, "--reason", "x")
    assert done.code == ExitCode.BAD_INPUT, done.err
    assert os.listdir(memory)  # untouched
