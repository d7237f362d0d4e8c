"""The programs a review starts for the reviewer: their editor and their pager.

Each runs on a private temporary copy or on text piped to it, never on a file in the
memory directory. One that cannot start, or gives up, is a message and never a crash: the
editor's failure leaves the proposal as it was; the pager's prints the text instead.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


class EditorFailed(Exception):
    """$EDITOR could not run, or gave up: a message for the reviewer, never a crash."""


def edit_text(text: str) -> str:
    """Open $VISUAL / $EDITOR (else vi) on a private temporary copy, outside memory."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="prune-memory-") as folder:
        path = Path(folder) / "entry.md"
        path.write_text(text, encoding="utf-8")
        try:
            done = subprocess.run([*shlex.split(editor), str(path)], check=False)
        except (OSError, ValueError) as err:
            raise EditorFailed(f"could not start the editor {editor!r} ({err})") from err
        if done.returncode != 0:
            raise EditorFailed(f"the editor {editor!r} exited with code {done.returncode}")
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise EditorFailed(f"the edited text could not be read back ({err})") from err


def page(text: str) -> bool:
    """Show `text` through $PAGER (else `less`, which gets `LESS=FRX` as git gives it);
    False when there is no terminal or no pager would run: the caller prints it then.
    The pager gets what the terminal would (`terminal.shown`): a pager such as `cat`, or
    `less -r`, passes escape sequences on, so memory text would drive the terminal."""
    from prune_memory.cli.terminal import shown

    if not sys.stdout.isatty():
        return False
    pager = os.environ.get("PAGER")
    if pager is not None and not pager.strip():
        return False  # PAGER= asks for no pager
    command = shlex.split(pager) if pager else ["less"]
    env = {**os.environ, "LESS": os.environ.get("LESS", "FRX")}
    try:
        done = subprocess.run(command, input=shown(text).encode("utf-8"), env=env,
                              check=False)
    except (OSError, ValueError):
        return False
    return done.returncode == 0
