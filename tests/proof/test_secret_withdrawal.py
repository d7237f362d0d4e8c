"""Proof: a withdrawn secret leaves the memory directory, and restore gives back every byte.

The demo's CI-bot memory holds a (fake) GitHub token. After `withdraw`, `grep -r` over the
whole memory directory finds the token nowhere — not in the tombstone, the index or the
log — and `restore` brings the file back byte-identical, its index line included.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, tree_hash

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
FILE = "reference_ci_bot_token.md"


def grep(token: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["grep", "-r", "-l", "-F", token, str(folder)], capture_output=True,
                          text=True, check=False)


def test_withdraw_moves_the_secret_out_and_restore_brings_every_byte_back(
        cli: Cli, demo_memory: Path) -> None:
    found = re.search(r"ghp_\w{36}", (demo_memory / FILE).read_text())
    assert found is not None
    token = found.group(0)
    original = (demo_memory / FILE).read_bytes()

    done = cli("withdraw", FILE, "--memory-dir", demo_memory, "--reason", "leaked token",
               "--now", NOW)
    assert done.code == 0, done.err
    assert "rotate that credential" in done.out and token not in done.out + done.err
    assert grep(token, demo_memory).returncode == 1, grep(token, demo_memory).stdout
    assert "[github-token ghp_… (40 chars)]" in \
        (demo_memory / "deaccessioned" / FILE).read_text()

    back = cli("restore", "2026-11-29-01", "--memory-dir", demo_memory, "--now", NOW)
    assert back.code == 0, back.err
    assert (demo_memory / FILE).read_bytes() == original


def test_undoing_the_withdrawal_gives_back_the_whole_directory(cli: Cli,
                                                               demo_memory: Path) -> None:
    start = tree_hash(demo_memory)
    assert cli("withdraw", FILE, "--memory-dir", demo_memory, "--reason", "leaked",
               "--now", NOW).code == 0
    undone = cli("restore", "--pass", "last", "--memory-dir", demo_memory)
    assert undone.code == 0, undone.err
    assert tree_hash(demo_memory) == start
