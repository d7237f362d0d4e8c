"""The hooks' problem log: bad payloads and failed checks, kept in the state directory.

A hook never fails the user's tool call, so this log is where its problems go instead.
Every line is masked for secrets before it is written, and writing it never raises.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

LOG_NAME = "problems.jsonl"
EXCERPT_CHARS = 200
# What is masked to give the excerpt: every secret that starts within it ends well inside
# this (a key block is a few KB), and masking 12 MB of input took the gate 20 s.
MASKED_CHARS = 64 * 1024


def log_path() -> Path:
    from prune_memory.state import state_subdir

    return state_subdir("gate") / LOG_NAME


def log_problem(command: str, problem: str, now: dt.datetime, raw: bytes | None = None) -> None:
    """Append one JSON line: when, which hook, what went wrong, and the start of its input."""
    from prune_memory.secrets.mask import mask_text

    record = {"at": now.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "command": command,
              "problem": mask_text(problem)}
    if raw is not None:
        # Masked before it is cut, so a cut never exposes part of a secret.
        text = raw[:MASKED_CHARS].decode("utf-8", errors="replace")
        record["input_start"] = mask_text(text)[:EXCERPT_CHARS]
    try:
        path = log_path()
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        path.chmod(0o600)
    except OSError:
        pass  # nowhere left to report to; the hook still answers
