"""The command `hook install` writes into Claude Code's settings, and the check that it runs.

Claude Code runs hook commands with its own PATH, which lacks a virtualenv's `bin/`; so
the command is the absolute path of the executable that is running now (or this Python
with `-m prune_memory`), and before anything is written it is run once, as Claude Code
would run it, on an empty payload.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHECK_TIMEOUT_SECONDS = 10


def installed_command() -> list[str]:
    """How this prune-memory was started, as an absolute command Claude Code can run."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name.startswith("prune-memory") and script.is_file() \
            and os.access(script, os.X_OK):
        return [str(script.absolute())]
    return [sys.executable, "-m", "prune_memory"]


def check_command(command: str) -> str | None:
    """Run a hook command once through the shell on an empty payload; None when it works,
    else why it does not."""
    try:
        done = subprocess.run(command, shell=True, input="{}", capture_output=True, text=True,
                              timeout=CHECK_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"`{command}` did not run ({err})"
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        return f"`{command}` exited with {done.returncode}" + (f": {said[-1]}" if said else "")
    return None
