"""The command line: parse, call one core function, render, choose the exit code.

Command groups live in sibling modules; each registers itself on `app`.
"""

from __future__ import annotations

import sys

__all__ = ["app", "main", "run_app"]


def _hook_fast_path(argv: list[str]) -> bool:
    """`hook gate` and `hook record-read` run on every tool call Claude makes: they skip typer
    and rich (`prune_memory.claude.hooks.entry`), unless someone asks for their help text."""
    return argv[1:2] == ["hook"] and argv[2:3] in (["gate"], ["record-read"]) \
        and not {"--help", "-h"} & set(argv[3:])


if not _hook_fast_path(sys.argv):
    from prune_memory.cli.boundary import run_app
    from prune_memory.cli.common import app

    # Importing the command modules registers their commands on `app`.
    from prune_memory.cli import views  # noqa: F401  isort: skip
    from prune_memory.cli import jsonl  # noqa: F401  isort: skip
    from prune_memory.cli import hygiene  # noqa: F401  isort: skip
    from prune_memory.cli import engine  # noqa: F401  isort: skip
    from prune_memory.cli import restore  # noqa: F401  isort: skip
    from prune_memory.cli import flags  # noqa: F401  isort: skip
    from prune_memory.cli import reaccession  # noqa: F401  isort: skip
    from prune_memory.cli import staleness  # noqa: F401  isort: skip
    from prune_memory.cli import passes  # noqa: F401  isort: skip
    from prune_memory.cli import run  # noqa: F401  isort: skip
    from prune_memory.cli import hooks  # noqa: F401  isort: skip


def main() -> None:
    """Console-script entry point."""
    if _hook_fast_path(sys.argv):
        from prune_memory.claude.hooks.entry import main as hook_main

        sys.exit(hook_main(sys.argv[2:]))
    sys.exit(run_app(app))
