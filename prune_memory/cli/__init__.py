"""The command line: parse, call one core function, render, choose the exit code.

Command groups live in sibling modules; each registers itself on `app`.
"""

from __future__ import annotations

import sys

from prune_memory.cli.boundary import run_app
from prune_memory.cli.common import app

__all__ = ["app", "main", "run_app"]

# Importing the command modules registers their commands on `app`.
from prune_memory.cli import views  # noqa: F401  isort: skip
from prune_memory.cli import jsonl  # noqa: F401  isort: skip
from prune_memory.cli import hygiene  # noqa: F401  isort: skip
from prune_memory.cli import engine  # noqa: F401  isort: skip
from prune_memory.cli import staleness  # noqa: F401  isort: skip
from prune_memory.cli import passes  # noqa: F401  isort: skip
from prune_memory.cli import run  # noqa: F401  isort: skip


def main() -> None:
    """Console-script entry point."""
    sys.exit(run_app(app))
