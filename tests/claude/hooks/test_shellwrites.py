"""Which files a Bash command redirects or tees into."""

from __future__ import annotations

import pytest

from prune_memory.claude.hooks.shellwrites import write_targets


@pytest.mark.parametrize(("command", "targets"), [
    ("echo hi > /m/a.md", ["/m/a.md"]),
    ("echo hi >> /m/a.md", ["/m/a.md"]),
    ("echo hi >/m/a.md", ["/m/a.md"]),
    ("make 2> /m/err.log", ["/m/err.log"]),
    ("make &> /m/all.log", ["/m/all.log"]),
    ("make &>> /m/all.log", ["/m/all.log"]),
    ("echo x >| /m/a.md", ["/m/a.md"]),
    ("echo x > '/m/with space.md'", ["/m/with space.md"]),
    ('echo x > "/m/dq space.md"', ["/m/dq space.md"]),
    ("echo x > /m/esc\\ aped.md", ["/m/esc aped.md"]),
    ("printf x | tee /m/a.md", ["/m/a.md"]),
    ("printf x | tee -a /m/a.md /m/b.md > /dev/null", ["/m/a.md", "/m/b.md"]),
    ("cat <<'EOF' > /m/a.md\nline\nEOF", ["/m/a.md"]),
    ("echo a > /m/a.md; echo b >> /m/a.md", ["/m/a.md"]),
    ("cd /x && echo y > rel.md", ["/cwd/rel.md"]),
])
def test_redirections_and_tee_are_found(command: str, targets: list[str]) -> None:
    assert list(write_targets(command, "/cwd")) == targets


@pytest.mark.parametrize("command", [
    "ls -la", "make 2>&1", "cmd >&2", "diff <(a) >(b)", "echo a->b", "x => y",
    "sort < /m/in.md", "echo x > /dev/null", "git commit -m 'fix'",
])
def test_commands_that_write_no_file_have_no_targets(command: str) -> None:
    assert write_targets(command, "/cwd") == ()


def test_home_and_variables_are_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/me")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/cfg")
    found = write_targets('echo x > ~/a.md; echo y > "$HOME/b.md"; '
                          "echo z > ${CLAUDE_CONFIG_DIR}/c.md", None)
    assert found == ("/home/me/a.md", "/home/me/b.md", "/cfg/c.md")


def test_a_relative_target_without_a_cwd_is_dropped() -> None:
    assert write_targets("echo x > rel.md", None) == ()
