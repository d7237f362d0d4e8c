"""Every command's help gives its examples one to a paragraph, never run together."""

from __future__ import annotations

from collections.abc import Callable

from tests.conftest import CliResult

Cli = Callable[..., CliResult]


def _commands(cli: Cli, *group: str) -> list[tuple[str, ...]]:
    shown = cli(*group, "--help").out.splitlines()
    start = next((n for n, line in enumerate(shown) if line.startswith("Commands:")), None)
    if start is None:
        return []
    names = [line.split()[0] for line in shown[start + 1:] if line.startswith("  ")
             and not line.startswith("   ")]
    return [(*group, name) for name in names]


def test_examples_are_never_run_together(cli: Cli) -> None:
    commands = _commands(cli)
    for command in list(commands):
        commands += _commands(cli, *command)  # the groups' own commands
    assert len(commands) > 20
    for command in commands:
        shown = cli(*command, "--help")
        assert shown.code == 0, command
        lines = shown.out.splitlines()
        assert all(line.count("Example:") <= 1 for line in lines), command
        for n, line in enumerate(lines):
            if line.strip().startswith("Example:") and n > 0:
                assert lines[n - 1].strip() == "", (command, line)
