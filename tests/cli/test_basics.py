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


def test_h_is_help_on_every_level(cli: Callable[..., CliResult]) -> None:
    for argv in (["-h"], ["run", "-h"], ["hook", "-h"], ["hook", "install", "-h"],
                 ["jsonl", "report", "-h"]):
        result = cli(*argv)
        assert result.code == 0 and result.out.startswith("Usage: prune-memory"), argv


def test_show_completion_prints_the_script_of_the_shell_named() -> None:
    """`--show-completion zsh` printed the bash script: typer's flag took no value, so
    `zsh` was read as a command and the detected shell won."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SHELL": "/bin/bash"}
    shown = {shell: subprocess.run([sys.executable, "-m", "prune_memory",
                                    "--show-completion", shell],
                                   capture_output=True, text=True, env=env, check=False)
             for shell in ("zsh", "fish", "bash")}
    assert shown["zsh"].stdout.startswith("#compdef prune-memory")
    assert "complete --command prune-memory" in shown["fish"].stdout
    assert "complete -o default -F _prune_memory_completion" in shown["bash"].stdout
    bare = subprocess.run([sys.executable, "-m", "prune_memory", "--show-completion"],
                          capture_output=True, text=True, env=env, check=False)
    assert bare.returncode == 0 and "_prune_memory_completion" in bare.stdout
    odd = subprocess.run([sys.executable, "-m", "prune_memory", "--show-completion", "tcsh"],
                         capture_output=True, text=True, env=env, check=False)
    assert odd.returncode == 2 and "tcsh" in odd.stderr
