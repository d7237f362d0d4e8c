"""The interactive review in a real pseudo-terminal, with NO_COLOR, at 60 and 120 columns.

The proof: quit at the third proposal, resume, finish, apply, undo the pass — and the
directory is byte for byte what it was at the start. Then Ctrl-C, Ctrl-D and the rest of
the keys.
"""

from __future__ import annotations

import io
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from prune_memory.store.pruninglog import read_log
from tests.conftest import ROOT, CliResult, tree_hash

NOW = "2026-11-29T12:00:00Z"
TOTAL = 22  # proposals the demo plan asks about (most held for review, with a suggestion)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
Cli = Callable[..., CliResult]


def spawn(memory: Path, repo: Path, tmp_path: Path, width: int) -> pexpect.spawn:
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\n"
                      "printf 'Sample data now comes from the API fixtures.\\n' > \"$1\"\n")
    editor.chmod(0o755)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": str(width), "EDITOR": str(editor),
           "PYTHONPATH": str(ROOT)}
    env.pop("VISUAL", None)
    child = pexpect.spawn(sys.executable, ["-m", "prune_memory", "run", str(memory), "--repo",
                                           str(repo), "--now", NOW],
                          env=env, encoding="utf-8", timeout=60, dimensions=(40, width))
    child.logfile_read = io.StringIO()  # the whole screen, for the checks at the end
    return child


def answer(child: pexpect.spawn, position: int, key: str, says: str = "") -> None:
    """At prompt `position` (whose question holds the words `says`), type `key`."""
    child.expect_exact(f"[{position}/{TOTAL}, {TOTAL - position} left] ")
    if says:
        expect_words(child, says)
    child.expect_exact("?] ")
    child.sendline(key)


_READ_SYSCALL = {"x86_64": "0", "aarch64": "63"}  # read(2), as /proc/<pid>/syscall gives it


def waiting_for_input(child: pexpect.spawn) -> None:
    """Until the child blocks reading the terminal. A Ctrl-C that lands after the prompt is
    printed but before that read begins is only acted on at the next key (Python's input()
    cannot see it), which a loaded machine makes likely: the interrupt is sent once the read
    is under way. Where /proc cannot tell, it goes on at once."""
    number = _READ_SYSCALL.get(os.uname().machine)
    status = Path(f"/proc/{child.pid}/syscall")
    for _poll in range(6000):  # pexpect's own 60 s, at most
        try:
            fields = status.read_text().split()
        except OSError:
            return
        if number is None or fields[:2] == [number, "0x0"]:
            return
        time.sleep(0.01)


def expect_words(child: pexpect.spawn, text: str) -> None:
    """`text`, wherever the terminal's width broke its lines."""
    child.expect(r"\s+".join(re.escape(word) for word in text.split()))


def finish(child: pexpect.spawn) -> str:
    """Read to the end; return everything the terminal showed."""
    child.expect(pexpect.EOF)
    child.close()
    return str(child.logfile_read.getvalue())


def check_screen(text: str, width: int) -> None:
    assert not COLOUR.search(text), "NO_COLOR: no colour or style codes"
    for line in ANSI.sub("\n", text).replace("\r", "").split("\n"):  # redraws: new lines
        words = line.split()
        assert len(line) <= width or (len(words) <= 3 and max(map(len, words)) > width / 2), \
            f"{len(line)} > {width}: {line!r}"


@pytest.mark.parametrize("width", [60, 120])
def test_quit_resume_finish_and_undo_give_back_every_byte(
        cli: Cli, demo_memory: Path, demo_repo: Path, tmp_path: Path, width: int) -> None:
    start = tree_hash(demo_memory)
    child = spawn(demo_memory, demo_repo, tmp_path, width)
    answer(child, 1, "y", "reference_ci_bot_token.md holds a secret: withdraw it?")
    answer(child, 2, "n")
    answer(child, 3, "q")
    expect_words(child, "Apply 1 withdrawal? [y,n,d,?]")
    child.sendline("n")
    child.expect_exact("saved")
    check_screen(finish(child), width)
    assert child.exitstatus == 0 and tree_hash(demo_memory) == start

    child = spawn(demo_memory, demo_repo, tmp_path, width)
    expect_words(child, "Resume it? [Y/n]")
    child.sendline("")
    answer(child, 3, "2", "Which stays? (n keeps both)")  # resumed where it stopped
    answer(child, 4, "y", "Write a SUPERSEDED note for project_api_errors_problem_details.md?")
    answer(child, 5, "yes")
    answer(child, 6, "j")
    answer(child, 7, "y", "Update project_package_names.md?")
    answer(child, 8, "later")
    answer(child, 9, "e", "Withdraw project_seed_script.md?")  # edited: its diff, an update
    expect_words(child, "+Sample data now comes from the API fixtures.")
    for position in range(10, 15):
        answer(child, position, "j")
    answer(child, 15, "y", "Drop index line 9 (it links project_release_checklist.md)?")
    answer(child, 16, "y", "Index project_log_format.md?")
    for position in range(17, TOTAL + 1):
        answer(child, position, "skip")
    expect_words(child, "Apply 3 withdrawals, 2 updates, 1 inoculation and 2 index repairs? "
                        "[y,n,d,?]")
    child.sendline("y")
    child.expect_exact("Undo this pass:")
    screen = finish(child)
    check_screen(screen, width)
    assert child.exitstatus == 0, screen
    flat = " ".join(ANSI.sub("", screen).split())
    ids = {r.file: r.register_id for r in read_log(demo_memory).rows}
    assert set(ids) >= {"reference_ci_bot_token.md", "project_staging_reset.md",
                        "project_dev_ports.md", "project_package_names.md",
                        "project_seed_script.md"}
    for file in ("reference_ci_bot_token.md", "project_staging_reset.md"):
        assert f"{ids[file]} {file}" in flat  # the summary names the first ones, then counts
    assert "more changes: --verbose lists them" in flat
    assert str(demo_memory / "pruning-log.md") in flat
    token = "ghp_DEMOfakeTOKENx7Qm2Lw9Rt4Yp8Zk3Vn6Bc1"  # the demo's fake CI token
    assert not [p for p in demo_memory.rglob("*") if p.is_file() and
                token.encode() in p.read_bytes()], "the withdrawn secret left the directory"
    changes = {c.entry: c.change for c in read_log(demo_memory).changes}
    assert changes["`reference_github_rate_limit.md`"] == "kept"  # n: a person kept it
    assert changes["`project_issue_42.md`"] == "skipped"  # j: left for a later pass

    pass_id = re.search(r"restore --pass (\S+) --memory-dir", flat)
    assert pass_id is not None
    undo = cli("restore", "--pass", pass_id.group(1), "--memory-dir", demo_memory, "--now",
               "2026-11-30T08:00:00Z")
    assert undo.code == 0, undo.err
    assert tree_hash(demo_memory) == start


def test_ctrl_c_and_ctrl_d_save_the_review(demo_memory: Path, demo_repo: Path,
                                           tmp_path: Path) -> None:
    start = tree_hash(demo_memory)
    child = spawn(demo_memory, demo_repo, tmp_path, 80)
    answer(child, 1, "keep")
    child.expect_exact(f"[2/{TOTAL}, ")
    child.expect_exact("?] ")
    waiting_for_input(child)
    child.sendintr()
    child.expect_exact("saved")
    finish(child)
    assert child.exitstatus == 130
    child = spawn(demo_memory, demo_repo, tmp_path, 80)
    expect_words(child, "(1 keep). Resume it? [Y/n]")
    child.sendline("y")
    answer(child, 2, "p")
    child.expect_exact("Why protect it? ")
    child.sendline("a source the repo cannot show")
    child.expect_exact(f"[3/{TOTAL}, ")
    child.expect_exact("?] ")
    child.sendeof()
    child.expect_exact("saved")
    check_screen(finish(child), 80)
    assert child.exitstatus == 0 and tree_hash(demo_memory) == start
