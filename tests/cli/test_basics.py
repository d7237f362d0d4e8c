"""What users expect of any command-line tool: --version and shell completion."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

from prune_memory import __version__
from tests.conftest import ROOT, CliResult


def test_version(cli: Callable[..., CliResult]) -> None:
    result = cli("--version")
    assert result.code == 0 and result.out.strip() == f"prune-memory {__version__}"


def test_shell_completion_script_and_completions() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    script = subprocess.run([sys.executable, "-m", "prune_memory", "--show-completion", "bash"],
                            capture_output=True, text=True, env=env, check=False)
    assert script.returncode == 0 and "_prune_memory_completion" in script.stdout
    env.update({"_PRUNE_MEMORY_COMPLETE": "complete_bash", "COMP_WORDS": "prune-memory res",
                "COMP_CWORD": "1"})
    words = subprocess.run([sys.executable, "-m", "prune_memory"], capture_output=True,
                           text=True, env=env, check=False)
    assert "restore" in words.stdout.split()
