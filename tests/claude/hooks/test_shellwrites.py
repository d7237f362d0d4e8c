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
    "ls -la", "make 2>&1", "cmd >&2", "cmd 2>&-", "diff <(a) >(b)", "cat <<< '> /m/a.md'",
    "sort < /m/in.md", "echo x > /dev/null", "git commit -m 'fix > /m/a.md'",
    "echo '> /m/a.md' # > /m/b.md", 'echo "a > /m/a.md"', "read x <&3",
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


@pytest.mark.parametrize(("command", "targets"), [
    ("echo x >& /m/a.md", ["/m/a.md"]),
    ("echo x >&/m/a.md", ["/m/a.md"]),
    ("echo x 1<> /m/a.md", ["/m/a.md"]),
    ("echo x 1<>/m/a.md", ["/m/a.md"]),
    ("echo x > $'/m/a\\x2emd'", ["/m/a.md"]),
    ("echo x > $'/m/\\141.md'", ["/m/a.md"]),
    ("echo x > /m/\\\na.md", ["/m/a.md"]),
    ("echo x > '/m/'\\\n'a.md'", ["/m/a.md"]),
    ("echo x > ${PRUNE_TEST_UNSET:-/m}/a.md", ["/m/a.md"]),
    ("echo x > \"${PRUNE_TEST_UNSET-/m}/a.md\"", ["/m/a.md"]),
    ("echo x > ${PRUNE_TEST_EMPTY:-/m}/a.md", ["/m/a.md"]),
    ("echo x > ${PRUNE_TEST_SET:+/m}/a.md", ["/m/a.md"]),
    ("echo x 3> /m/a.md", ["/m/a.md"]),
    ("exec {fd}> /m/a.md", ["/m/a.md"]),
    ("echo a->b", ["/cwd/b"]),
    ("sudo tee /m/a.md < x", ["/m/a.md"]),
    ("FOO=1 tee -a /m/a.md", ["/m/a.md"]),
    ("cat > /m/a.md <<'EOF'\nit's > /m/fake.md\nEOF\necho y >> /m/b.md",
     ["/m/a.md", "/m/b.md"]),
    ("cat <<-EOF > /m/a.md\n\tbody\n\tEOF", ["/m/a.md"]),
])
def test_what_bash_itself_reads_as_a_write(command: str, targets: list[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PRUNE_TEST_UNSET", raising=False)
    monkeypatch.setenv("PRUNE_TEST_EMPTY", "")
    monkeypatch.setenv("PRUNE_TEST_SET", "yes")
    assert list(write_targets(command, "/cwd")) == targets
