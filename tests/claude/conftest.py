"""Hook payloads shaped the way Claude Code sends them, and a Claude home to aim them at."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# Made up, in GitHub's token shape; built from parts so the source holds no token literal.
TOKEN = "ghp_" + "Zx9Qw2Er4Ty6Ui8Op0As1Df3Gh5Jk7Lz9Xc2Vb"
ORDINARY = "User prefers squash merges and PR titles under 60 characters.\n"


@pytest.fixture
def claude_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private Claude home (`$CLAUDE_CONFIG_DIR`) with no settings yet."""
    home = tmp_path / "claude-home"
    home.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    monkeypatch.delenv("PRUNE_MEMORY_GATE", raising=False)
    return home


@pytest.fixture
def memory_dir(claude_home: Path) -> Path:
    """The auto-memory directory of one project, the way Claude Code names it."""
    path = claude_home / "projects" / "-work-app" / "memory"
    path.mkdir(parents=True)
    return path


def pre_tool_use(tool: str, tool_input: dict[str, Any], *, cwd: str = "/tmp") -> bytes:
    """A PreToolUse payload as Claude Code writes it to the hook's stdin."""
    return json.dumps({
        "session_id": "0b6d-test", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": tool_input,
    }).encode()


def post_read(path: Path, *, session: str = "s-1", cwd: str = "/tmp") -> bytes:
    """A PostToolUse payload for a Read of `path`."""
    return json.dumps({
        "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "hook_event_name": "PostToolUse", "tool_name": "Read",
        "tool_input": {"file_path": str(path)},
        "tool_response": {"type": "text", "file": {"filePath": str(path)}},
    }).encode()


def write(path: Path, content: str) -> bytes:
    return pre_tool_use("Write", {"file_path": str(path), "content": content})


def edit(path: Path, new: str) -> bytes:
    return pre_tool_use("Edit", {"file_path": str(path), "old_string": "old",
                                 "new_string": new})


def multi_edit(path: Path, *news: str) -> bytes:
    edits = [{"old_string": f"old {i}", "new_string": new} for i, new in enumerate(news)]
    return pre_tool_use("MultiEdit", {"file_path": str(path), "edits": edits})


def bash(command: str, *, cwd: str = "/tmp") -> bytes:
    return pre_tool_use("Bash", {"command": command, "description": "test"}, cwd=cwd)


def run_hook(*args: str, stdin: bytes, env: dict[str, str] | None = None
             ) -> subprocess.CompletedProcess[bytes]:
    """The real command line in a fresh interpreter, as Claude Code would start it."""
    return subprocess.run([sys.executable, "-m", "prune_memory", "hook", *args], input=stdin,
                          capture_output=True, env={**os.environ, **(env or {})}, timeout=60)
