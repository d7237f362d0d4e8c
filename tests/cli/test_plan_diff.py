"""`plan --diff` with the default automation: what the plan applies, then what the held
suggestions would write, kept apart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, tree_hash

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
HELD = "# held for review"


def test_held_suggestions_are_shown_apart_and_do_not_decide_the_exit_code(
        cli: Cli, demo_memory: Path, demo_repo: Path) -> None:
    before = tree_hash(demo_memory)
    result = cli("plan", demo_memory, "--repo", demo_repo, "--diff", "--now", NOW)
    applied, _, held = result.out.partition(HELD)
    # the measured classes: an inline fact's line count, rewritten in MEMORY.md itself; an
    # exact copy withdrawn; a renamed path corrected
    assert "-- `api/jobs/queue.py` (10 lines)" in applied
    assert "+- `api/jobs/queue.py` (13 lines)" in applied
    assert result.code == 1
    assert "# withdraw project_dev_ports.md (3-duplicate)" in applied
    assert "# withdraw project_dev_ports.md" not in held
    assert "+++ b/project_session_signing.md" in applied
    assert "# withdraw debug_token_refresh_traceback.md" in held
    assert "+The Python distribution is published as cairn-api" in held
    assert "ghp_DEMO" not in result.out
    assert tree_hash(demo_memory) == before
