"""Claude Code hook payloads: what a tool call is about to write, or which file it just read.

Claude Code sends one JSON object on stdin: `session_id`, `cwd`, `hook_event_name`,
`tool_name`, `tool_input` (and, after the call, `tool_response`). Anything that does not have
the documented shape raises `PayloadError`; the hooks answer that by allowing and logging.
"""

from __future__ import annotations

import json
import os
from typing import Any, NamedTuple

GATED_TOOLS = ("Write", "Edit", "MultiEdit", "Bash")


class PayloadError(ValueError):
    """The hook input is not JSON, or not shaped the way Claude Code documents it."""


class Candidate(NamedTuple):
    """One piece of new text a tool call would store, and where (`content`, `edit 2`, …)."""

    where: str
    text: str


class WriteCall(NamedTuple):
    """A write the gate may inspect: the paths it touches and the new text it carries."""

    tool: str
    targets: tuple[str, ...]
    texts: tuple[Candidate, ...]
    unread: str = ""  # the end of a Bash command too long to read for targets


class ReadCall(NamedTuple):
    path: str
    session_id: str | None


def parse(raw: bytes) -> dict[str, Any]:
    """The payload object; `PayloadError` for bad UTF-8, bad JSON or a non-object."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise PayloadError(f"stdin is not a JSON document ({type(err).__name__})") from None
    if not isinstance(data, dict):
        raise PayloadError(f"stdin holds a JSON {type(data).__name__}, not an object")
    return data


def write_call(data: dict[str, Any]) -> WriteCall | None:
    """What a PreToolUse call would write; None for a tool the gate does not look at."""
    tool = data.get("tool_name")
    if tool not in GATED_TOOLS:
        return None
    tool_input = _object(data, "tool_input")
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    if tool == "Bash":
        from prune_memory.claude.hooks.shellwrites import read_writes  # Bash calls only

        command = _text(tool_input, "command")
        writes = read_writes(command, cwd)
        return WriteCall(tool, writes.targets, (Candidate("command", command),), writes.unread)
    target = _absolute(_text(tool_input, "file_path"), cwd)
    texts: tuple[Candidate, ...]
    if tool == "Write":
        texts = (Candidate("content", _text(tool_input, "content")),)
    elif tool == "Edit":
        texts = (Candidate("new_string", _text(tool_input, "new_string")),)
    else:
        texts = _multi_edit_texts(tool_input)
    return WriteCall(str(tool), (target,), texts)


def read_call(data: dict[str, Any]) -> ReadCall | None:
    """The file a PostToolUse Read call read; None for any other tool."""
    if data.get("tool_name") != "Read":
        return None
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    path = _absolute(_text(_object(data, "tool_input"), "file_path"), cwd)
    session = data.get("session_id")
    return ReadCall(path, session if isinstance(session, str) and session else None)


def _multi_edit_texts(tool_input: dict[str, Any]) -> tuple[Candidate, ...]:
    edits = tool_input.get("edits")
    if not isinstance(edits, list):
        raise PayloadError("MultiEdit tool_input.edits is not a list")
    texts = []
    for number, edit in enumerate(edits, start=1):
        if not isinstance(edit, dict):
            raise PayloadError(f"MultiEdit edit {number} is not an object")
        texts.append(Candidate(f"edit {number}", _text(edit, "new_string")))
    return tuple(texts)


def _object(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise PayloadError(f"{key} is missing or not an object")
    return value


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise PayloadError(f"tool_input.{key} is missing or not a string")
    return value


def _absolute(path: str, cwd: str | None) -> str:
    if not path:
        raise PayloadError("tool_input.file_path is empty")
    path = os.path.expanduser(path)
    if not os.path.isabs(path):
        if not cwd:
            raise PayloadError("tool_input.file_path is relative and there is no cwd")
        path = os.path.join(cwd, path)
    return os.path.normpath(path)


class Sketch(NamedTuple):
    """Where a payload too long to parse writes, from its first bytes."""

    tool: str
    cwd: str | None
    targets: tuple[str, ...]
    rest: str  # text of the command still to look at for a memory it names


def sketch(head: bytes) -> Sketch | None:
    """The tool, working directory and targets of a payload cut after `head` (Claude Code
    writes `tool_input.file_path` before the content); None when the tool is not gated."""
    text = head.decode("utf-8", errors="replace")
    tool = _json_string(text, "tool_name")
    if tool not in GATED_TOOLS:
        return None
    cwd = _json_string(text, "cwd")
    if tool == "Bash":
        from prune_memory.claude.hooks.shellwrites import read_writes

        command = _json_string(text, "command", cut=True) or ""
        return Sketch(tool, cwd, read_writes(command, cwd).targets, command)
    path = _json_string(text, "file_path")
    targets = (_absolute(path, cwd),) if path and (cwd or os.path.isabs(path)) else ()
    return Sketch(str(tool), cwd, targets, "" if targets else text)


def _json_string(text: str, key: str, cut: bool = False) -> str | None:
    """The string value of `key` in JSON text, decoded; with `cut`, as much of it as the
    text holds when it ends before the string does."""
    import re

    ends = r'"' if not cut else r'(?:"|$)'
    found = re.search(rf'"{re.escape(key)}"\s*:\s*"([^"\\]*(?:\\.[^"\\]*)*){ends}', text)
    if found is None:
        return None
    body = found.group(1)
    for trim in range(0, 7):  # a cut escape (`\u00`) at the end is dropped
        try:
            value = json.loads(f'"{body[:len(body) - trim]}"')
        except ValueError:
            continue
        return value if isinstance(value, str) else None
    return None
