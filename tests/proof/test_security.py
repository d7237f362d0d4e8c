"""Nothing outside the memory, snapshot and state directories is read or written.

Each case plants a link that leads out of the memory directory (a symlinked topic file, a
hard link, index links to ../../etc/passwd, the tool's own files and tombstone folder as
symlinks, a snapshot folder that is a symlink back into the memory directory) and runs the
commands a user would, under a Python audit hook (tests/proof/audit_runner.py) that records
every file opened, renamed, removed or created. A stat is allowed; opening, writing,
renaming or creating anything in the outside folder is not. The state and snapshot
directories must be created 0700.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from prune_memory.errors import ExitCode
from tests.conftest import CliResult, topic, tree_hash, write_tree
from tests.proof.audit_runner import recording

# These tests drive the write engine through `run --yes`: every evidence class is trusted.
pytestmark = pytest.mark.usefixtures("trust_all")

NOW = "2026-11-29T12:00:00+00:00"
CANARY = "CANARY-7f3a: outside text that must never be read"
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


@dataclass
class Place:
    base: Path
    memory: Path
    outside: Path
    state: Path
    repo: Path
    cli: Callable[..., CliResult]

    def run(self, *args: str | Path) -> tuple[int, list[dict[str, Any]], str]:
        """The CLI, in this process, under the audit hook: exit code, file events, stderr."""
        with recording() as events:
            result = self.cli(*args)
        assert CANARY not in result.out + result.err
        return result.code, events, result.err


@pytest.fixture
def place(tmp_path: Path, cli: Callable[..., CliResult],
          monkeypatch: pytest.MonkeyPatch) -> Place:
    memory = write_tree(tmp_path / "memory", {
        "project_chatter.md": topic("chatter", "Currently debugging the flaky upload test."),
        "project_tabs.md": topic("tabs", "The user prefers tabs over spaces."),
        "MEMORY.md": "# Memory\n- [Chatter](project_chatter.md) — now\n"
                     "- [Tabs](project_tabs.md) — style\n"})
    outside = write_tree(tmp_path / "outside", {
        "canary.md": topic("canary", CANARY), "log.md": f"# Pruning log\n\n{CANARY}\n",
        "index.md": f"# Memory\n- {CANARY}\n", "policy.md": f"# Policy\n{CANARY}\n"})
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    return Place(tmp_path, memory, outside, tmp_path / "state", tmp_path / "repo", cli)


def _real(event: dict[str, Any], follow: bool) -> Path:
    path = Path(event["cwd"], event["path"])
    if follow:
        return Path(os.path.realpath(path))
    return Path(os.path.realpath(path.parent)) / path.name


def _writes(event: dict[str, Any]) -> bool:
    if event["event"] != "open":
        return True
    mode, flags = event["mode"] or "", event["flags"] or 0
    return any(c in mode for c in "wax+") or bool(flags & WRITE_FLAGS)


def assert_contained(place: Place, events: list[dict[str, Any]],
                     extra_writable: tuple[Path, ...] = ()) -> None:
    """No event reaches the outside folder; every write lands in memory, state or snapshot."""
    outside = place.outside.resolve()
    writable = [place.memory.resolve(), place.state.resolve(),
                *(p.resolve() for p in extra_writable)]
    for event in events:
        follow = event["event"] == "open"
        where = _real(event, follow)
        assert outside != where and outside not in where.parents, event
        if _writes(event) and not where.as_posix().startswith("/dev/"):
            assert any(where == w or w in where.parents for w in writable), event


def outside_untouched(place: Place, before: str) -> None:
    assert tree_hash(place.outside) == before


def test_a_symlinked_topic_file_is_neither_followed_nor_replaced(place: Place) -> None:
    (place.memory / "project_link.md").symlink_to(place.outside / "canary.md")
    before = tree_hash(place.outside)
    for args in (("plan", place.memory, "--repo", place.repo, "--json"),
                 ("run", place.memory, "--repo", place.repo, "--yes", "--now", NOW),
                 ("withdraw", place.memory / "project_link.md", "--reason", "x")):
        code, events, err = place.run(*args)
        assert code != ExitCode.INTERNAL, (args, err)
        assert_contained(place, events)
    assert (place.memory / "project_link.md").is_symlink()
    outside_untouched(place, before)


def test_a_hard_link_is_withdrawn_without_touching_the_other_name(place: Place) -> None:
    shared = place.outside / "hard.md"
    shared.write_text(topic("hard", "Step 3 done"))
    os.link(shared, place.memory / "project_hard.md")
    index = place.memory / "MEMORY.md"
    index.write_text(index.read_text() + "- [Hard](project_hard.md) — linked\n")
    inode, data = shared.stat().st_ino, shared.read_bytes()
    code, events, err = place.run("run", place.memory, "--repo", place.repo, "--yes",
                                  "--now", NOW)
    assert code == ExitCode.OK, err
    assert not (place.memory / "project_hard.md").exists()
    assert (place.memory / "deaccessioned" / "project_hard.md").read_bytes().endswith(data)
    assert shared.stat().st_ino == inode and shared.read_bytes() == data
    assert shared.stat().st_nlink == 1
    for event in events:  # the file is read through its name in the memory directory
        if event["event"] == "open" and _writes(event):
            assert Path(event["path"]).name != "hard.md"


def test_index_links_that_leave_the_directory_are_reported_never_opened(place: Place) -> None:
    escape = os.path.relpath(place.outside / "canary.md", place.memory)
    index = place.memory / "MEMORY.md"
    index.write_text(index.read_text() + "".join(
        f"- [Odd {n}]({target}) — escape\n" for n, target in enumerate(
            ["../../etc/passwd", escape, str(place.outside / "canary.md"),
             f"file://{place.outside / 'canary.md'}", escape.replace("..", "%2e%2e"),
             f"<{escape}>", f"./{escape}#frag"])))
    before = tree_hash(place.outside)
    code, events, err = place.run("plan", place.memory, "--repo", place.repo, "--json")
    assert code == ExitCode.OK, err  # reported on their lines, not a file the pass rejects
    assert_contained(place, events)
    code, events, err = place.run("run", place.memory, "--repo", place.repo, "--yes",
                                  "--now", NOW)
    assert code == ExitCode.OK, err  # the links are a finding on their line, not bad input
    assert_contained(place, events)
    assert not any(e["path"].endswith("passwd") for e in events)
    assert "../../etc/passwd" in index.read_text()  # not the tool's to remove
    outside_untouched(place, before)


@pytest.mark.parametrize("own, target", [("pruning-log.md", "log.md"),
                                         ("MEMORY.md", "index.md"),
                                         ("retention-policy.md", "policy.md")])
def test_the_tools_own_files_as_symlinks_are_not_read_or_written_through(
        place: Place, own: str, target: str) -> None:
    link = place.memory / own
    if link.exists():
        link.unlink()
    link.symlink_to(place.outside / target)
    before = tree_hash(place.outside)
    code, events, err = place.run("plan", place.memory, "--repo", place.repo, "--json")
    assert code == ExitCode.BAD_INPUT and own in err, err
    assert_contained(place, events)
    code, events, err = place.run("run", place.memory, "--repo", place.repo, "--yes",
                                  "--now", NOW)
    if own != "retention-policy.md":  # the engine writes the other two: it must refuse
        assert code == ExitCode.REFUSED and "symlink" in err, err
    else:  # passed over as unreadable; the rest of the pass applied: 1, not 2 (README)
        assert code == ExitCode.FINDINGS and own in err, err
    assert_contained(place, events)
    assert link.is_symlink() and os.readlink(link) == str(place.outside / target)
    outside_untouched(place, before)


def test_a_symlinked_tombstone_folder_gets_no_tombstone(place: Place) -> None:
    (place.outside / "graves").mkdir()
    (place.memory / "deaccessioned").symlink_to(place.outside / "graves")
    before = tree_hash(place.outside)
    code, events, err = place.run("run", place.memory, "--repo", place.repo, "--yes",
                                  "--now", NOW)
    assert code == ExitCode.REFUSED and "deaccessioned" in err, err
    assert_contained(place, events)
    assert (place.memory / "project_chatter.md").exists()
    outside_untouched(place, before)


def test_a_tombstone_row_pointing_out_of_the_directory_is_not_read(place: Place) -> None:
    log = place.memory / "pruning-log.md"
    escape = os.path.relpath(place.outside / "canary.md", place.memory)
    log.write_text("# Pruning log\n\n### 2026-11-01 Audit\n- Snapshot manifest: /nowhere\n\n"
                   "#### Deaccession register\n| register_id | Entry (summary) | Type | Reason "
                   "| Tombstone | superseded_by |\n|---|---|---|---|---|---|\n"
                   f"| 2026-11-01-01 | `x.md` — x | Project | r | deaccessioned/{escape} | N/A |\n"
                   f"| 2026-11-01-02 | `y.md` — y | Project | r | {escape} | N/A |\n")
    before = tree_hash(place.outside)
    for register_id in ("2026-11-01-01", "2026-11-01-02"):
        code, events, err = place.run("restore", register_id, place.memory)
        assert code in (ExitCode.REFUSED, ExitCode.BAD_INPUT), err
        assert_contained(place, events)
    code, events, _ = place.run("scan", place.memory)
    assert_contained(place, events)
    outside_untouched(place, before)


def test_a_tombstone_name_already_taken_is_never_overwritten(place: Place) -> None:
    graves = place.memory / "deaccessioned"
    graves.mkdir()
    (graves / "project_chatter.md").write_text("someone else's file\n")
    (graves / "project_chatter.2026-11-29-01.md").write_text("and another\n")
    original = (place.memory / "project_chatter.md").read_bytes()
    code, events, err = place.run("withdraw", place.memory / "project_chatter.md",
                                  "--reason", "chatter", "--now", NOW)
    assert code in (ExitCode.OK, ExitCode.REFUSED), err
    assert (graves / "project_chatter.md").read_text() == "someone else's file\n"
    assert (graves / "project_chatter.2026-11-29-01.md").read_text() == "and another\n"
    stones = [p for p in graves.iterdir() if p.read_bytes().endswith(original)]
    here = (place.memory / "project_chatter.md").exists()
    assert here != bool(stones), (code, err)  # in exactly one place
    assert_contained(place, events)


def test_a_snapshot_folder_that_links_into_the_memory_directory_is_refused(
        place: Place) -> None:
    (place.memory / "sub").mkdir()
    sneaky = place.base / "snaps"
    sneaky.symlink_to(place.memory / "sub")
    before = tree_hash(place.memory)
    for target in (sneaky, sneaky / "deeper", place.memory / ".." / "memory" / "x"):
        code, events, err = place.run("run", place.memory, "--repo", place.repo, "--yes",
                                      "--now", NOW, "--snapshot-dir", target)
        assert code == ExitCode.REFUSED and "inside the memory directory" in err, err
        assert tree_hash(place.memory) == before
        assert_contained(place, events)
    code, _, err = place.run("snapshot", place.memory, "--snapshot-dir", sneaky / "x")
    assert code == ExitCode.REFUSED, err
    assert tree_hash(place.memory) == before


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_state_and_snapshot_directories_are_private(place: Place) -> None:
    code, _, err = place.run("run", place.memory, "--repo", place.repo, "--yes", "--now", NOW)
    assert code == ExitCode.OK, err
    state = place.state / "prune-memory"
    folders = [state, *[p for p in state.rglob("*") if p.is_dir()]]
    assert any(p.name == "snapshots" for p in folders)
    assert any(p.parent.name == "journal" for p in folders)
    for folder in folders:
        assert _mode(folder) == 0o700, folder
    for path in state.rglob("*"):
        if path.is_file() and "snapshots" not in path.relative_to(state).parts:
            assert _mode(path) & 0o077 == 0, path  # lock, journal, logs: owner only
    chosen = place.base / "my-snaps" / "deep"
    code, _, err = place.run("snapshot", place.memory, "--snapshot-dir", chosen)
    assert code == ExitCode.OK, err
    (taken,) = list(chosen.iterdir())
    assert _mode(taken) == 0o700 and _mode(chosen) == 0o700


def test_the_audit_hook_sees_reads(place: Place) -> None:
    """The harness itself: a plain read of a memory file shows up as an open event."""
    code, events, _ = place.run("inventory", place.memory)
    assert code in (ExitCode.OK, ExitCode.FINDINGS)
    opened = {Path(e["path"]).name for e in events if e["event"] == "open"}
    assert "project_tabs.md" in opened and "MEMORY.md" in opened
