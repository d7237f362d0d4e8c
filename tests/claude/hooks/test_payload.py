"""Reading Claude Code's hook payloads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prune_memory.claude.hooks.payload import (
    Candidate,
    PayloadError,
    ReadCall,
    WriteCall,
    parse,
    read_call,
    write_call,
)
from tests.claude.conftest import bash, edit, multi_edit, post_read, pre_tool_use, write


def call(raw: bytes) -> WriteCall | None:
    return write_call(parse(raw))


def test_each_tool_yields_its_target_and_new_text() -> None:
    target = Path("/m/a.md")
    assert call(write(target, "body")) == WriteCall("Write", ("/m/a.md",),
                                                     (Candidate("content", "body"),))
    assert call(edit(target, "new")) == WriteCall("Edit", ("/m/a.md",),
                                                   (Candidate("new_string", "new"),))
    assert call(multi_edit(target, "one", "two")) == WriteCall(
        "MultiEdit", ("/m/a.md",), (Candidate("edit 1", "one"), Candidate("edit 2", "two")))
    assert call(bash("echo x > /m/a.md")) == WriteCall(
        "Bash", ("/m/a.md",), (Candidate("command", "echo x > /m/a.md"),))


def test_a_relative_file_path_is_taken_from_cwd() -> None:
    raw = pre_tool_use("Write", {"file_path": "notes/a.md", "content": "x"}, cwd="/w")
    found = call(raw)
    assert found is not None and found.targets == ("/w/notes/a.md",)


def test_other_tools_are_not_write_calls() -> None:
    assert call(pre_tool_use("Read", {"file_path": "/m/a.md"})) is None
    assert call(pre_tool_use("Grep", {"pattern": "x"})) is None


@pytest.mark.parametrize("raw", [b"", b"nope", b"\xff", b"[]", b"null"])
def test_what_is_not_a_json_object_is_refused(raw: bytes) -> None:
    with pytest.raises(PayloadError):
        parse(raw)


@pytest.mark.parametrize("tool_input", [
    None, "text", {"content": "x"}, {"file_path": "", "content": "x"},
    {"file_path": "/m/a.md"}, {"file_path": "/m/a.md", "content": 3},
])
def test_a_write_without_its_documented_fields_is_refused(tool_input: object) -> None:
    data = {"tool_name": "Write", "tool_input": tool_input}
    with pytest.raises(PayloadError):
        write_call(data)


def test_a_read_call_names_the_file_and_session() -> None:
    data = parse(post_read(Path("/m/a.md"), session="abc"))
    assert read_call(data) == ReadCall("/m/a.md", "abc")
    data["session_id"] = ""
    assert read_call(data) == ReadCall("/m/a.md", None)
    assert read_call(json.loads(pre_tool_use("Write", {}))) is None
