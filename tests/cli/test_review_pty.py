"""The interactive review, end to end in a real pseudo-terminal, every key at least once."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

from prune_memory.store.pruninglog import read_log
from tests.conftest import ROOT

# These tests drive the write engine through `run --yes`: every evidence class is trusted.
pytestmark = pytest.mark.usefixtures("trust_all")

NOW = "2026-11-29T12:00:00Z"
PROMPT = "> "


def spawn(memory: Path, repo: Path, tmp_path: Path) -> pexpect.spawn:
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\n"
                      "printf 'Sample data now comes from the API fixtures.\\n' > \"$1\"\n")
    editor.chmod(0o755)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "160", "EDITOR": str(editor),
           "PYTHONPATH": str(ROOT)}
    return pexpect.spawn(sys.executable, ["-m", "prune_memory", "run", str(memory), "--repo",
                                          str(repo), "--now", NOW],
                         env=env, encoding="utf-8", timeout=60, dimensions=(50, 160))


def key(child: pexpect.spawn, expect: str, answer: str) -> None:
    child.expect_exact(expect)
    child.sendline(answer)


def fields(child: pexpect.spawn) -> None:
    for label in ("Pattern", "Period", "Evidence", "Abandonment reason", "Do not re-derive from"):
        key(child, label, "")


def test_every_key_in_a_real_terminal(demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    child = spawn(demo_memory, demo_repo, tmp_path)
    key(child, "debug_token_refresh_traceback.md", "?")
    key(child, "q  quit", "a")                      # accept: withdraw the stack trace
    key(child, "feedback_pr_size.md", "k")           # keep
    key(child, "feedback_small_prs.md", "b")         # back to pr_size …
    key(child, "feedback_pr_size.md", "s")           # … and skip it this time
    key(child, "feedback_small_prs.md", "p")         # protect
    key(child, "Why protect it?", "the user asked for both wordings")
    key(child, "project_api_errors_problem_details.md", "n")   # inoculate only
    fields(child)
    key(child, "project_dev_ports.md", "w")          # withdraw
    key(child, "project_issue_42.md", "i")           # withdraw + inoculate
    fields(child)
    key(child, "project_login_flake_session.md", "u")  # no proposed text: told so
    key(child, "No proposed text", "k")
    key(child, "project_package_names.md", "u")      # accept the update
    key(child, "project_seed_removal_plan.md", "k")  # keep the finished plan after all
    key(child, "project_seed_script.md", "e")        # edit in $EDITOR
    key(child, "project_session_signing.md", "q")    # quit with decisions so far
    key(child, "Decisions saved to", "")
    key(child, "reachability repairs?", "y")
    key(child, "now?", "y")
    child.expect_exact("Pass summary")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "skipped" not in (child.before or "")

    assert not (demo_memory / "debug_token_refresh_traceback.md").exists()
    assert not (demo_memory / "project_dev_ports.md").exists()
    assert not (demo_memory / "project_issue_42.md").exists()
    assert (demo_memory / "project_api_errors_problem_details.md").exists()
    assert (demo_memory / "feedback_pr_size.md").exists()
    assert "cairn" in (demo_memory / "project_package_names.md").read_text()
    assert "API fixtures" in (demo_memory / "project_seed_script.md").read_text()
    assert (demo_memory / "project_session_signing.md").exists()
    log = read_log(demo_memory)
    assert log.is_protected("feedback_small_prs.md")
    assert len(list(demo_memory.glob("superseded_*.md"))) == 2


def test_quit_without_confirming_applies_nothing(demo_memory: Path, demo_repo: Path,
                                                 tmp_path: Path) -> None:
    from tests.conftest import tree_hash

    before = tree_hash(demo_memory)
    child = spawn(demo_memory, demo_repo, tmp_path)
    key(child, "debug_token_refresh_traceback.md", "w")
    key(child, "feedback_pr_size.md", "q")
    key(child, "reachability repairs?", "n")
    key(child, "now?", "n")
    child.expect_exact("Nothing applied")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert tree_hash(demo_memory) == before
