"""Docs that cannot drift: every command has help with an example and is in the README."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer

from prune_memory.cli import app
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def walk(command: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        path = (*prefix, name)
        if getattr(sub, "commands", None):
            yield path, sub
            yield from walk(sub, path)
        else:
            yield path, sub


COMMANDS = list(walk(typer.main.get_command(app)))


def test_the_design_card_commands_exist() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    for needed in ("run", "plan", "inventory", "scan", "lint", "sweep", "due", "status", "where",
                   "snapshot", "withdraw", "inoculate", "protect", "unprotect", "restore",
                   "recover", "jsonl report", "jsonl prune", "jsonl verify"):
        assert needed in names


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_command_has_help_with_an_example(path: tuple[str, ...], command: Any) -> None:
    text = command.help or ""
    assert text.strip(), f"{' '.join(path)} has no help"
    leaf = not getattr(command, "commands", None)
    if leaf or len(path) == 1:
        assert "Example:" in text or leaf is False, f"{' '.join(path)} help has no example"


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_command_is_in_the_readme(path: tuple[str, ...], command: Any) -> None:
    assert f"`{' '.join(path)}" in README or f"`{path[-1]}`" in README, " ".join(path)


def test_readme_first_screen_installs_for_a_user_then_the_two_setup_commands() -> None:
    """A user's install and first command come first, then the developers' two commands;
    nothing points at `../shared`, which a clone of the project does not have."""
    lines = README.splitlines()
    first_screen = "\n".join(lines[:24])
    for needed in ("pipx install", "uv tool install", "prune-memory run", "make demo",
                   "make test"):
        assert needed in first_screen, needed
    assert first_screen.index("pipx install") < first_screen.index("prune-memory run") \
        < first_screen.index("make demo") < first_screen.index("make test")
    assert "../shared" not in README


def test_exit_codes_are_documented() -> None:
    from prune_memory.errors import ExitCode

    for code in ExitCode:
        assert f"| {int(code)} |" in README
