"""Undo one pass by its id: the summary prints the exact command, `last` is the last pass
(not the day), a day with several passes names them, a later pass that touched the same
files is named and stays applied, times come back with the bytes, and the keeps the pass
made are taken back with it."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.procedure.review import Choice, Verdict
from prune_memory.procedure.review_state import kept_entries, remember_keeps
from tests.conftest import CliResult, tree_hash

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
OLD = datetime(2026, 3, 2, 9, 0, tzinfo=UTC).timestamp()
UNDO = re.compile(r"prune-memory restore --pass (\S+) --memory-dir (\S+)")


def flat(text: str) -> str:
    return " ".join(text.split())


def undo_command(out: str) -> list[str]:
    found = UNDO.search(flat(out))
    assert found, out
    return ["restore", "--pass", found.group(1), "--memory-dir", found.group(2)]


def test_two_passes_in_one_day_undo_the_last_and_the_first_stays_applied(
        cli: Cli, demo_memory: Path, demo_repo: Path) -> None:
    index = demo_memory / "MEMORY.md"
    first = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW)
    assert first.code == 0, first.err
    assert "project_release_checklist.md" not in index.read_text()  # pass 1 dropped it
    after_first = tree_hash(demo_memory)
    os.utime(demo_memory / "project_upload_outage.md", (OLD, OLD))
    second = cli("withdraw", "project_upload_outage.md", "--memory-dir", demo_memory,
                 "--reason", "the outage is over", "--now", NOW)
    assert second.code == 0, second.err
    assert not (demo_memory / "project_upload_outage.md").exists()

    day = cli("restore", "--pass", "2026-11-29", "--memory-dir", demo_memory)
    assert day.code == 2 and "had 2 passes" in day.err and "nothing was changed" in day.err
    assert not (demo_memory / "project_upload_outage.md").exists()
    listed = flat(cli("restore", "--list", "--memory-dir", demo_memory).out)
    assert re.search(r"pass 20261129T120000Z run on 2026-11-29", listed)
    assert re.search(r"pass 20261129T120000Z-2 withdraw project_upload_outage.md", listed)

    undone = cli(*undo_command(second.out))  # the command the withdrawal printed
    assert undone.code == 0, undone.err
    assert "pass 20261129T120000Z-2 undone" in flat(undone.out)
    assert tree_hash(demo_memory) == after_first  # the first pass is still applied
    assert "project_release_checklist.md" not in index.read_text()
    assert (demo_memory / "project_upload_outage.md").stat().st_mtime == OLD  # times too

    last = cli("restore", "--pass", "last", "--memory-dir", demo_memory)  # now: the run
    assert last.code == 0 and "pass 20261129T120000Z undone" in flat(last.out)
    assert "project_release_checklist.md" in index.read_text()


def test_the_run_summary_prints_its_own_pass_id(cli: Cli, demo_memory: Path,
                                                demo_repo: Path) -> None:
    start = tree_hash(demo_memory)
    ran = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW)
    again = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW)
    assert undo_command(ran.out)[2] == "20261129T120000Z"
    assert undo_command(again.out)[2] == "20261129T120000Z-2"
    assert cli(*undo_command(again.out)).code == 0
    assert cli(*undo_command(ran.out)).code == 0
    assert tree_hash(demo_memory) == start


def test_undoing_an_earlier_pass_names_the_later_one_and_leaves_it_applied(
        cli: Cli, demo_memory: Path, demo_repo: Path) -> None:
    first = cli("withdraw", "project_upload_outage.md", "--memory-dir", demo_memory,
                "--reason", "over", "--now", NOW)
    second = cli("withdraw", "project_issue_42.md", "--memory-dir", demo_memory,
                 "--reason", "closed", "--now", NOW)
    undone = cli(*undo_command(first.out))
    said = flat(undone.out)
    assert undone.code == 1  # not exact: restored id by id
    assert "still applied: pass 20261129T120000Z-2 (withdraw project_issue_42.md)" in said
    assert (demo_memory / "project_upload_outage.md").exists()
    assert not (demo_memory / "project_issue_42.md").exists()  # never undone silently
    later = cli(*undo_command(second.out))  # its files changed since: id by id too
    assert "restored 2026-11-29-02 project_issue_42.md" in flat(later.out)
    assert (demo_memory / "project_issue_42.md").exists()


def test_restore_takes_the_directory_as_its_argument_with_pass_or_list(
        cli: Cli, demo_memory: Path) -> None:
    done = cli("withdraw", "project_upload_outage.md", "--memory-dir", demo_memory,
               "--reason", "over", "--now", NOW)
    assert done.code == 0
    listed = cli("restore", "--list", demo_memory)
    assert listed.code == 0 and "2026-11-29-01" in listed.out
    undone = cli("restore", "--pass", "last", demo_memory)
    assert undone.code == 0, undone.err
    assert (demo_memory / "project_upload_outage.md").exists()


def test_undoing_a_pass_takes_back_the_keeps_it_made(cli: Cli, demo_memory: Path) -> None:
    done = cli("withdraw", "project_upload_outage.md", "--memory-dir", demo_memory,
               "--reason", "over", "--now", NOW)
    pass_id = undo_command(done.out)[2]
    moment = datetime(2026, 11, 29, 12, tzinfo=UTC)
    remember_keeps(demo_memory, [Verdict("project_issue_42.md", Choice.KEEP, sha256="a")],
                   moment, pass_id)
    remember_keeps(demo_memory, [Verdict("project_dev_ports.md", Choice.KEEP, sha256="b")],
                   moment, "another-pass")
    undone = cli("restore", "--pass", pass_id, "--memory-dir", demo_memory)
    assert "1 keep decision(s) of this pass forgotten" in flat(undone.out)
    assert "project_issue_42.md" in flat(undone.out)
    assert set(kept_entries(demo_memory)) == {"project_dev_ports.md"}
