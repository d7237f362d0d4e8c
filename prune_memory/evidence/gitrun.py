"""How every git call runs: offline, whatever the repo or the user's settings, and what a
failure means in words a person can act on."""

from __future__ import annotations

import os
import re

import git

# Git 2.44+ reads the first; before it, allowing no transport stops the lazy fetch all the same.
OFFLINE = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": "none", "GIT_TERMINAL_PROMPT": "0"}
_MISSING_OBJECTS = re.compile(r"unable to read|could not fetch|bad object|missing (?:blob|tree)"
                              r"|promisor|lazy fetching|transport '[^']*' not allowed")


def offline_env() -> dict[str, str]:
    """The environment for a git process started directly (not through GitPython)."""
    return {**os.environ, **OFFLINE}


def failure_reason(err: git.GitCommandError) -> str:
    """What went wrong, in words: git's own first line without GitPython's quoting, or the
    advice for a clone that lacks objects (partial, or damaged)."""
    text = str(err.stderr or "").strip().removeprefix("stderr:").strip().strip("'")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if _MISSING_OBJECTS.search(text):
        return ("objects are missing from this clone, partial or damaged; fetching them "
                "would need the network, so give --repo a full clone")
    return f"git failed: {lines[0] if lines else f'exit status {err.status}'}"
