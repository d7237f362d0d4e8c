"""`run --yes` on a copy of the demo: what it leaves behind, and that restore undoes it."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from prune_memory.store.pruninglog import read_log
from tests.conftest import CliResult, tree_hash

# These tests drive the write engine through `run --yes`: every evidence class is trusted.
pytestmark = pytest.mark.usefixtures("trust_all")

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"


@pytest.fixture
def ran(cli: Cli, demo_memory: Path, demo_repo: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    original = tmp_path / "original"
    shutil.copytree(demo_memory, original)
    snaps = tmp_path / "snaps"
    result = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW,
                 "--snapshot-dir", snaps)
    assert result.code == 0, result.err
    assert "Pass summary" in result.out
    (tmp_path / "run.out").write_text(result.out)
    return demo_memory, original, snaps


def test_snapshot_verifies_with_sha256sum(ran: tuple[Path, Path, Path]) -> None:
    _, _, snaps = ran
    (manifest,) = snaps.rglob("MANIFEST.sha256")
    subprocess.run(["sha256sum", "--quiet", "-c", "MANIFEST.sha256"], cwd=manifest.parent,
                   check=True)


def test_every_withdrawal_has_a_tombstone_and_a_register_row(
        ran: tuple[Path, Path, Path]) -> None:
    memory, original, _ = ran
    log = read_log(memory)
    rows = [r for a in log.audits if a.date == "2026-11-29" for r in a.rows]
    withdrawn = [r for r in rows if not (memory / str(r.file)).exists()]
    updated = [r for r in rows if r not in withdrawn]
    # every class trusted: the plan's withdrawals, and its updates with their text (--yes
    # applies an update the plan takes itself); the old bytes of each are in a tombstone
    assert (len(withdrawn), len(updated)) == (9, 3)
    for row in rows:
        tombstone = memory / row.tombstone
        assert tombstone.is_file()
        assert f"register_id: {row.register_id}" in tombstone.read_text()
        assert row.file is not None
        assert (original / row.file).read_bytes() in tombstone.read_bytes()
    for row in updated:
        assert (memory / str(row.file)).read_bytes() != (original / str(row.file)).read_bytes()


def test_superseded_files_are_indexed(ran: tuple[Path, Path, Path]) -> None:
    memory, _, _ = ran
    counters = sorted(p.name for p in memory.glob("superseded_*.md"))
    assert len(counters) == 2
    index = (memory / "MEMORY.md").read_text()
    assert all(f"]({name})" in index for name in counters)


def test_protected_entries_are_untouched(ran: tuple[Path, Path, Path]) -> None:
    memory, original, _ = ran
    for name in ("project_rename_to_cairn.md", "feedback_commit_messages.md"):
        assert (memory / name).read_bytes() == (original / name).read_bytes()


def test_scan_is_clean_and_a_new_plan_withdraws_nothing(
        cli: Cli, ran: tuple[Path, Path, Path], demo_repo: Path) -> None:
    memory, _, _ = ran
    assert cli("scan", memory).code == 0
    result = cli("plan", memory, "--repo", demo_repo, "--now", NOW, "--json")
    actions = {e["file"]: e["action"] for e in json.loads(result.out)["entries"]}
    assert not {a for a in actions.values()} & {"withdraw", "withdraw+inoculate", "inoculate"}


def test_audit_section_has_every_field(ran: tuple[Path, Path, Path]) -> None:
    memory, _, snaps = ran
    audit = next(a for a in read_log(memory).audits if a.date == "2026-11-29")
    assert audit.fields["Entries audited"] == "39"
    assert audit.fields["Entries withdrawn"].startswith("9 (")
    assert audit.manifest is not None and audit.manifest.startswith(str(snaps))
    for key in ("Entries updated", "Staleness found", "Fidelity failures", "Protected"):
        assert key in audit.fields


def memories(root: Path) -> dict[str, bytes]:
    """Every topic file Claude reads as memory (not the index, not the log)."""
    return {p.name: p.read_bytes() for p in root.glob("*.md")
            if p.name not in ("MEMORY.md", "pruning-log.md")}


def test_restore_of_every_register_id_gives_back_every_byte(
        cli: Cli, ran: tuple[Path, Path, Path]) -> None:
    """Restore is the inverse of the whole withdrawal: file, index line, SUPERSEDED note."""
    memory, original, _ = ran
    rows = [r for a in read_log(memory).audits if a.date == "2026-11-29" for r in a.rows]
    for row in reversed(rows):
        result = cli("restore", row.register_id, "--memory-dir", memory, "--now", NOW)
        assert result.code == 0, result.err
    now, then = memories(memory), memories(original)
    assert {name: now[name] for name in then} == then
    # Left: the counter-memory of the inoculation (no withdrawal, so no register id).
    assert sorted(set(now) - set(then)) == ["superseded_project-api-errors-problem-details.md"]
    index = (memory / "MEMORY.md").read_text().splitlines()
    assert [ln for ln in (original / "MEMORY.md").read_text().splitlines()
            if ".md)" in ln and "release_checklist" not in ln] == \
        [ln for ln in index if ".md)" in ln and "project_log_format.md" not in ln
         and "superseded_" not in ln]


def test_run_yes_lists_and_restore_reverts_the_links_it_edits_in_kept_memories(
        cli: Cli, demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    note = demo_memory / "project_proxy_notes.md"
    note.write_text("---\nname: proxy-notes\ndescription: Notes on the proxy setup\n"
                    "type: project\n---\nThe proxy terminates TLS; see [[issue-42-session-"
                    "expiry|the expiry bug]] and [[project_issue_42]] for what it broke.\n")
    before = note.read_bytes()
    result = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW,
                 "--snapshot-dir", tmp_path / "snaps")
    assert result.code == 0, result.err
    text = note.read_text()
    assert "[[" not in text and "the expiry bug (withdrawn, register 2026-11-29-" in text
    said = " ".join(result.out.split())
    assert "project_proxy_notes.md" in said and "links to" in said
    row = next(r for r in read_log(demo_memory).rows if r.file == "project_issue_42.md")
    back = cli("restore", row.register_id, "--memory-dir", demo_memory, "--now", NOW)
    assert back.code == 0, back.err
    assert note.read_bytes() == before


def test_dry_run_changes_nothing(cli: Cli, demo_memory: Path, demo_repo: Path) -> None:
    before = tree_hash(demo_memory)
    result = cli("run", demo_memory, "--repo", demo_repo, "--dry-run", "--now", NOW)
    assert result.code == 0 and "withdraw" in result.out
    assert tree_hash(demo_memory) == before


def test_review_refuses_without_a_terminal(cli: Cli, demo_memory: Path) -> None:
    before = tree_hash(demo_memory)
    result = cli("run", demo_memory, "--now", NOW)
    assert result.code == 2 and "terminal" in result.err
    assert tree_hash(demo_memory) == before


def test_a_second_writer_is_refused_while_a_pass_holds_the_lock(
        cli: Cli, demo_memory: Path, demo_repo: Path) -> None:
    import subprocess
    import sys

    from prune_memory.engine import session

    with session.holding(demo_memory):
        before = tree_hash(demo_memory)
        other = subprocess.run(
            [sys.executable, "-m", "prune_memory", "run", str(demo_memory), "--repo",
             str(demo_repo), "--yes", "--now", NOW], capture_output=True, text=True)
        assert other.returncode == 4 and "locked" in other.stderr
        assert tree_hash(demo_memory) == before


def test_bad_file_is_reported_left_alone_and_the_pass_goes_on(
        cli: Cli, demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    (demo_memory / "broken.md").write_bytes(b"---\n{oops\n---\nbody\n")
    before = (demo_memory / "broken.md").read_bytes()
    result = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW,
                 "--snapshot-dir", tmp_path / "snaps")
    # Exit 2 means nothing changed; a pass that applied changes says so and exits 1.
    assert result.code == 1 and "broken.md" in result.err
    assert "passed over 1 unreadable file" in result.err and "rest of the pass" in result.err
    assert (demo_memory / "broken.md").read_bytes() == before
    assert (demo_memory / "deaccessioned").is_dir()  # the other entries were still pruned
    dry = cli("run", demo_memory, "--repo", demo_repo, "--dry-run", "--now", NOW)
    assert dry.code == 2  # nothing changed


def test_without_a_repo_the_repairs_still_find_their_lines(cli: Cli, demo_memory: Path,
                                                           tmp_path: Path) -> None:
    """Withdrawals above the planted dangling line move it up before step 9 drops it."""
    result = cli("run", demo_memory, "--yes", "--now", NOW, "--snapshot-dir", tmp_path / "s")
    assert result.code == 0, result.err
    assert "project_release_checklist.md" not in (demo_memory / "MEMORY.md").read_text()
    assert cli("scan", demo_memory).code == 0


def test_plan_diff_shows_what_applying_would_write_and_changes_nothing(
        cli: Cli, demo_memory: Path, demo_repo: Path) -> None:
    before = tree_hash(demo_memory)
    result = cli("plan", demo_memory, "--repo", demo_repo, "--diff", "--now", NOW)
    assert result.code == 1  # like ruff --diff: something would change
    out = result.out
    assert "+The Python distribution is published as cairn-api" in out
    assert "# withdraw project_dev_ports.md (3-duplicate)" in out
    assert "--- a/MEMORY.md" in out and "-- [project_dev_ports.md](project_dev_ports.md)" in out
    assert "ghp_DEMO" not in out
    assert tree_hash(demo_memory) == before


def test_a_bare_repository_as_repo_is_named_so(cli: Callable[..., CliResult],
                                               demo_memory: Path, tmp_path: Path) -> None:
    bare = tmp_path / "mirror.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    for args in (("plan", demo_memory), ("run", demo_memory, "--dry-run")):
        done = cli(*args, "--repo", bare)
        assert done.code == 2 and "bare repository" in done.err, done.err
    plain = tmp_path / "plain"
    plain.mkdir()
    assert "not inside a git repository" in cli("plan", demo_memory, "--repo", plain).err


def test_a_file_this_user_cannot_read_is_passed_over_and_the_rest_applied(
        cli: Cli, demo_memory: Path, demo_repo: Path, trust_all: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Permission denied on one topic file (as root, only a patched open can say so)."""
    import builtins
    import errno
    import os

    locked = str(demo_memory / "project_dev_ports.md")
    real_open, real_builtin = os.open, builtins.open

    def denied(path: object) -> bool:
        return isinstance(path, str | os.PathLike) and os.fspath(path) == locked

    def os_open(path: Any, flags: int, *rest: Any, **kw: Any) -> int:
        if denied(path) and not flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, "Permission denied", locked)
        return real_open(path, flags, *rest, **kw)

    def open_(file: Any, mode: str = "r", *rest: Any, **kw: Any) -> Any:
        if denied(file) and "r" in mode:
            raise PermissionError(errno.EACCES, "Permission denied", locked)
        return real_builtin(file, mode, *rest, **kw)

    start = tree_hash(demo_memory)
    with monkeypatch.context() as patch:
        patch.setattr(os, "open", os_open)
        patch.setattr(builtins, "open", open_)
        done = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW)
    assert done.code == 1, done.err
    assert "project_dev_ports.md: cannot read" in done.err and "passed over 1" in done.err
    assert (demo_memory / "deaccessioned").is_dir()  # the others were applied
    assert (demo_memory / "project_dev_ports.md").exists()
    undo = cli("restore", "--pass", "last", "--memory-dir", demo_memory, "--now", NOW)
    assert undo.code == 0, undo.err
    assert tree_hash(demo_memory) == start
