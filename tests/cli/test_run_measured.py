"""`run --yes` on the demo with no class trusted by the user: only what is measured right on
the labelled real folders acts alone, and `restore --pass` gives every byte back."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from prune_memory.store.pruninglog import read_log
from tests.conftest import CliResult, tree_hash

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"


def test_run_yes_applies_what_the_evidence_proves_and_leaves_the_rest(
        cli: Cli, demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    original = tmp_path / "original"
    shutil.copytree(demo_memory, original)
    before = tree_hash(demo_memory)
    result = cli("run", demo_memory, "--repo", demo_repo, "--yes", "--now", NOW)
    assert result.code == 0, result.err
    rows = [r for a in read_log(demo_memory).audits for r in a.rows]
    # the exact copy withdrawn, the file renamed nearly unchanged corrected in place
    assert sorted((r.file, r.type) for r in rows) == [
        ("project_dev_ports.md", "Project"), ("project_session_signing.md", "Project")]
    assert not (demo_memory / "project_dev_ports.md").exists()
    signing = (demo_memory / "project_session_signing.md").read_text()
    assert "`api/auth/session.py`" in signing and "[corrected 2026-11-29]" in signing
    index = (demo_memory / "MEMORY.md").read_text()
    assert "project_release_checklist.md" not in index  # the dangling pointer dropped
    # everything else waits for a person: the stack trace, the near copies, the secret, ...
    for name in ("debug_token_refresh_traceback.md", "feedback_pr_size.md",
                 "reference_ci_bot_token.md", "project_upload_outage.md"):
        assert (demo_memory / name).read_bytes() == (original / name).read_bytes(), name
    undone = cli("restore", "--pass", "last", "--memory-dir", demo_memory, "--now", NOW)
    assert undone.code == 0, undone.err
    assert tree_hash(demo_memory) == before
