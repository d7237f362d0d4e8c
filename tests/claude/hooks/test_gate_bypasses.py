"""Writes that used to reach memory unchecked: redirections the old reading missed, a
memory directory that is a link, and payloads too big to check in time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prune_memory.claude.hooks import entry
from prune_memory.claude.hooks.gate import Decision, Mode, decide
from tests.claude.conftest import TOKEN, bash, pre_tool_use, write

LEAK = f"deploys with {TOKEN}"


@pytest.mark.parametrize("shape", [
    "echo '{leak}' >& {dir}/a.md",
    "echo '{leak}' 1<> {dir}/a.md",
    "echo '{leak}' > $'{dir}/a.md'",
    "echo '{leak}' > $'{dir}/a\\x2emd'",
    "echo '{leak}' > {head}\\\n{tail}/a.md",
    "echo '{leak}' > ${{PRUNE_GATE_UNSET:-{dir}}}/a.md",
    "echo '{leak}' | sudo tee {dir}/a.md",
])
def test_bash_writes_into_memory_are_checked(memory_dir: Path, shape: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PRUNE_GATE_UNSET", raising=False)
    text = str(memory_dir)
    command = shape.format(leak=LEAK, dir=text, head=text[:len(text) // 2],
                           tail=text[len(text) // 2:])
    assert decide(bash(command), Mode.STRICT).decision is Decision.DENY, command


def test_a_memory_directory_that_is_a_link_is_gated_under_both_names(
        claude_home: Path, tmp_path: Path) -> None:
    synced = tmp_path / "Dropbox" / "app-memory"
    synced.mkdir(parents=True)
    project = claude_home / "projects" / "-work-app"
    project.mkdir(parents=True)
    (project / "memory").symlink_to(synced)
    for target in (project / "memory" / "a.md", synced / "a.md"):
        assert decide(write(target, LEAK), Mode.STRICT).decision is Decision.DENY, target
        assert decide(bash(f"echo '{LEAK}' > {target}"), Mode.STRICT).decision \
            is Decision.DENY
    assert decide(write(tmp_path / "Dropbox" / "a.md", LEAK), Mode.STRICT).decision \
        is Decision.ALLOW


def test_a_payload_past_what_the_gate_reads_is_judged_by_its_target(
        memory_dir: Path, tmp_path: Path) -> None:
    big = "x" * 200
    into_memory = write(memory_dir / "a.md", big)
    elsewhere = write(tmp_path / "a.md", big)
    def cut(payload: bytes) -> bytes:  # inside the content: the rest was never read
        return payload[:payload.index(b'"content"') + 30]

    assert decide(cut(into_memory), Mode.STRICT, size=10**8).decision is Decision.DENY
    assert decide(cut(elsewhere), Mode.STRICT, size=10**8).decision is Decision.ALLOW
    command = bash(f"cat > {memory_dir}/a.md <<'EOF'\n{big}\nEOF")
    assert decide(command[:len(command) - 50], Mode.STRICT,
                  size=10**8).decision is Decision.DENY


def test_entry_reads_no_more_than_its_cap(memory_dir: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(entry, "READ_BYTES", 1000)
    payload = write(memory_dir / "a.md", "Plain prose.\n" * 5000)
    head, size = entry.read_capped(io.BytesIO(payload), entry.READ_BYTES)
    assert len(head) == 1000 and size == len(payload)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(payload)))
    monkeypatch.setattr("sys.stdout", out)
    assert entry.run("gate", ["--mode", "strict"]) == 0
    answer = json.loads(out.getvalue())["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "more than the gate reads" in answer["permissionDecisionReason"]


def test_an_ordinary_write_outside_memory_is_still_not_read(tmp_path: Path) -> None:
    payload = pre_tool_use("Write", {"file_path": str(tmp_path / "a.md"), "content": LEAK})
    assert decide(payload, Mode.STRICT).decision is Decision.ALLOW
