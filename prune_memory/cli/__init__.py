"""The command line: parse, call one core function, render, choose the exit code.

Command groups live in sibling modules; each registers itself on `app` when imported.
Running one command imports only the module that registers it (`where` never loads what
`run` needs); `--help`, shell completion and an unknown name import them all.
"""

from __future__ import annotations

import sys

__all__ = ["COMMAND_MODULES", "app", "main", "run_app"]

# Each top-level command or group, and the module (under prune_memory.cli) that registers it.
COMMAND_MODULES = {
    "inventory": "view_commands", "scan": "view_commands", "where": "view_commands",
    "status": "view_commands", "due": "view_commands", "lint": "lint_commands",
    "filters": "lint_commands", "jsonl": "jsonl", "snapshot": "write_commands",
    "withdraw": "write_commands", "inoculate": "write_commands", "protect": "write_commands",
    "unprotect": "write_commands", "recover": "write_commands", "flag": "write_commands",
    "unflag": "write_commands", "restore": "restore", "reaccession": "reaccession",
    "sweep": "sweep_command", "plan": "plan_command", "run": "run", "hook": "hooks",
    "skill": "hooks",
}
_PROGRAMS = ("prune-memory", "__main__.py")  # the console script, or `python -m prune_memory`


def _hook_fast_path(argv: list[str]) -> bool:
    """`hook gate` and `hook record-read` run on every tool call Claude makes: they skip typer
    and rich (`prune_memory.claude.hooks.entry`), unless someone asks for their help text."""
    return argv[1:2] == ["hook"] and argv[2:3] in (["gate"], ["record-read"]) \
        and not {"--help", "-h"} & set(argv[3:])


def modules_for(argv: list[str]) -> list[str]:
    """The command modules a command line needs: the one registering the command it names
    when the program is ours, every one otherwise (help, completion, tests, a typo)."""
    named = COMMAND_MODULES.get(argv[1]) if len(argv) > 1 else None
    if named is not None and argv and argv[0].replace("\\", "/").rsplit("/", 1)[-1] in _PROGRAMS:
        return [named]
    return list(dict.fromkeys(COMMAND_MODULES.values()))


if not _hook_fast_path(sys.argv):  # the hook's fast path imports neither typer nor the rest
    import importlib

    from prune_memory.cli.boundary import run_app
    from prune_memory.cli.common import app

    for _module in modules_for(sys.argv):
        importlib.import_module(f"prune_memory.cli.{_module}")


def main() -> None:
    """Console-script entry point."""
    if _hook_fast_path(sys.argv):
        from prune_memory.claude.hooks.entry import main as hook_main

        sys.exit(hook_main(sys.argv[2:]))
    sys.exit(run_app(app))
