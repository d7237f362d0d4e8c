"""Shared pieces of the command line: the app, option types, output helpers."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from prune_memory.errors import BadInputError, ExitCode

if TYPE_CHECKING:
    from rich.console import Console

    from prune_memory.model import LoadError

app = typer.Typer(
    name="prune-memory",
    help="Keep Claude Code memory directories accurate and small: "
    "evidenced, reversible forgetting.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

def _version(value: bool) -> None:
    if value:
        from prune_memory import __version__

        typer.echo(f"prune-memory {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = False) -> None:
    """Keep Claude Code memory directories accurate and small: evidenced, reversible
    forgetting. Shell completion: prune-memory --install-completion."""


MemoryDirArg = Annotated[
    Path | None,
    typer.Argument(help="Memory directory. Default: the current git root's directory.",
                   show_default=False),
]
MemoryDirOpt = Annotated[
    Path | None,
    typer.Option("--memory-dir", metavar="DIR",
                 help="Memory directory (the same as giving MEMORY_DIR).", show_default=False),
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


def console(stderr: bool = False, *, wrap: bool = False) -> Console:
    """A rich console that respects NO_COLOR (no colour and no other styling either) and
    plain pipes. Text is never read as markup: memories hold `[brackets]` of their own.
    `wrap` breaks long lines at word boundaries to the terminal's width (the review)."""
    from prune_memory.cli.terminal import PrintableConsole

    plain = "NO_COLOR" in os.environ
    if plain:
        return PrintableConsole(stderr=stderr, no_color=True, highlight=False,
                                soft_wrap=not wrap, markup=False, emoji=False,
                                color_system=None)
    return PrintableConsole(stderr=stderr, highlight=False, soft_wrap=not wrap, markup=False,
                            emoji=False)


def ask(out: Console, prompt: str) -> str:
    """Read one answer. The prompt is plain text (memories hold brackets of their own),
    broken at word boundaries with room left on its last line for what is typed."""
    from prune_memory.report.wrapping import wrap

    lines = wrap(prompt, out.width - 4)
    for line in lines[:-1]:
        out.print(line, soft_wrap=True)
    return out.input(lines[-1] + " ", markup=False, emoji=False)


def emit_json(data: Any, schema: str | None = None) -> None:
    """Print JSON; `schema` tags it `prune-memory/<schema>@1` (references/schemas/ holds
    each one's JSON Schema)."""
    if schema is not None:
        data = {"schema": f"prune-memory/{schema}@1", **data}
    say(json.dumps(data, indent=2, ensure_ascii=False), is_json=True)


def say(text: str, *, nl: bool = True, err: bool = False, is_json: bool = False) -> None:
    """Print plain text (no rich) with every control character made visible: the only
    other way, besides `console()`, that memory text reaches the terminal. JSON text keeps
    its own escapes (`is_json`)."""
    from prune_memory.printable import printable, printable_json

    shown = printable_json(text) if is_json else printable(text)
    (sys.stderr if err else sys.stdout).write(shown + ("\n" if nl else ""))


def warn(message: str) -> None:
    say(message, err=True)


def parse_now(value: str | None) -> datetime:
    """`--now` as an aware UTC datetime; the real clock when not given."""
    if value is None:
        return datetime.now(UTC).replace(microsecond=0)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as err:
        raise BadInputError(f"--now: not an ISO 8601 date or time: {value!r}") from err
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def resolve_memory_dir(memory_dir: Path | None, project: Path | None,
                       option: Path | None = None) -> Path:
    """The directory named on the command line (MEMORY_DIR or --memory-dir), by --project,
    or for the current git root. Every command names it these same ways."""
    from prune_memory.claude.locate import memory_dir_for_project

    given = [g for g in (memory_dir, option, project) if g is not None]
    if len(given) > 1:
        raise BadInputError("name the memory directory once: MEMORY_DIR, --memory-dir or "
                            "--project")
    if memory_dir is not None or option is not None:
        return memory_dir or option  # type: ignore[return-value]
    return memory_dir_for_project(project or Path.cwd())


def resolve_repo(repo: Path | None, memory_dir: Path, project: Path | None) -> Path | None:
    """The project repo: --repo, else the project's git root, else the current git root."""
    from prune_memory.claude.locate import git_root, is_bare_repository

    if repo is not None:
        if not repo.expanduser().is_dir():
            raise BadInputError(f"--repo {repo}: no such directory; without the repo's history "
                                "nothing can be checked, so nothing was changed")
        if git_root(repo) is None:
            what = "is a bare repository, with no working tree to check memories against" \
                if is_bare_repository(repo.expanduser()) else "is not inside a git repository"
            raise BadInputError(f"--repo {repo} {what}; nothing was changed")
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
