"""Shared pieces of the command line: the app, option types, output helpers."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from prune_memory.errors import BadInputError, ExitCode
from prune_memory.model import LoadError

app = typer.Typer(
    name="prune-memory",
    help="Keep Claude Code memory directories accurate and small: "
    "evidenced, reversible forgetting.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

MemoryDirArg = Annotated[
    Path | None,
    typer.Argument(help="Memory directory. Default: the current git root's directory.",
                   show_default=False),
]
ProjectOpt = Annotated[
    Path | None,
    typer.Option("--project", help="Find the memory directory Claude Code uses for this project."),
]
RepoOpt = Annotated[
    Path | None, typer.Option("--repo", help="Project git repo. Default: the project's git root.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
NowOpt = Annotated[
    str | None,
    typer.Option("--now", help="Pin the current time (ISO 8601) for reproducible output."),
]


def console(stderr: bool = False) -> Console:
    """A rich console that respects NO_COLOR and plain pipes."""
    return Console(stderr=stderr, no_color="NO_COLOR" in os.environ, highlight=False,
                   soft_wrap=True)


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


def warn(message: str) -> None:
    print(message, file=sys.stderr)


def parse_now(value: str | None) -> datetime:
    """`--now` as an aware UTC datetime; the real clock when not given."""
    if value is None:
        return datetime.now(UTC).replace(microsecond=0)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as err:
        raise BadInputError(f"--now: not an ISO 8601 date or time: {value!r}") from err
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def resolve_memory_dir(memory_dir: Path | None, project: Path | None) -> Path:
    """The directory named on the command line, by --project, or for the current git root."""
    from prune_memory.store.locate import memory_dir_for_project

    if memory_dir is not None and project is not None:
        raise BadInputError("give either MEMORY_DIR or --project, not both")
    if memory_dir is not None:
        return memory_dir
    return memory_dir_for_project(project or Path.cwd())


def resolve_repo(repo: Path | None, memory_dir: Path, project: Path | None) -> Path | None:
    """The project repo: --repo, else the project's git root, else the current git root."""
    from prune_memory.store.locate import git_root

    if repo is not None:
        if not repo.expanduser().is_dir():
            raise BadInputError(f"--repo {repo}: no such directory; without the repo's history "
                                "nothing can be checked, so nothing was changed")
        if git_root(repo) is None:
            raise BadInputError(f"--repo {repo} is not inside a git repository; nothing was "
                                "changed")
        return repo.expanduser()
    return git_root(project or Path.cwd())


def snapshot_dir_path(value: str | None) -> Path | None:
    """`--snapshot-dir` as a path; an empty value is an error, not the current directory."""
    if value is None:
        return None
    if not value.strip():
        raise BadInputError("--snapshot-dir is empty; name a folder outside the memory "
                            "directory")
    return Path(value)


def exit_with(code: int) -> None:
    if code:
        raise typer.Exit(code)


def report_load_errors(errors: Sequence[LoadError], *, exit_now: bool = True) -> None:
    """One line per unreadable file on stderr, then exit 2: the others were still processed.

    With `exit_now=False` only the lines are printed; the caller exits 2 when it is done.
    """
    for err in errors:
        warn(f"prune-memory: {err.file}: {err.message}")
    if errors and exit_now:
        raise typer.Exit(ExitCode.BAD_INPUT)
