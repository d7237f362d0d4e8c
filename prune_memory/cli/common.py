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
from typer import _completion_classes

from prune_memory.errors import BadInputError, ExitCode

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from prune_memory.model import LoadError

app = typer.Typer(
    name="prune-memory",
    help="Keep Claude Code memory directories accurate and small: "
    "evidenced, reversible forgetting.",
    no_args_is_help=True,
    add_completion=False,  # our own two options below take the shell as an optional value
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
_completion_classes.completion_init()  # what typer's own completion flags did: TAB works

def _version(value: bool) -> None:
    if value:
        from prune_memory import __version__

        typer.echo(f"prune-memory {__version__}")
        raise typer.Exit()


def _completion(ctx: typer.Context, param: Any, value: str | None) -> None:
    """`--show-completion [SHELL]` and `--install-completion [SHELL]`: the shell named, or
    the one this runs in. (Typer's own flags take no value, so `--show-completion zsh`
    printed the script of the shell it detected.)"""
    if value is None or ctx.resilient_parsing:
        return
    from typer.completion import install_callback, show_callback

    shell: str | bool = value.strip().lower() or True  # True: detect it
    if isinstance(shell, str) and shell not in _SHELLS:
        raise typer.BadParameter(f"{value!r}: give one of {', '.join(_SHELLS)}")
    callback = show_callback if param.name == "show_completion" else install_callback
    callback(ctx, param, shell)


_SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
_COMPLETION_FLAGS = ("--show-completion", "--install-completion")


def completion_argv(argv: Sequence[str]) -> list[str]:
    """The command line with a bare `--show-completion` (nothing or an option after it)
    given an empty value, which means: the shell this runs in. Click options take a value
    or none, not either; this lets both spellings work."""
    out = list(argv)
    for n, arg in enumerate(out):
        if arg in _COMPLETION_FLAGS and (n + 1 == len(out) or out[n + 1].startswith("-")):
            out[n] = f"{arg}="
    return out


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = False,
        show_completion: Annotated[str | None, typer.Option(
            "--show-completion", metavar="[SHELL]", is_eager=True, expose_value=False,
            callback=_completion,
            help="Print the completion script for SHELL (bash, zsh, fish, powershell; "
                 "default: the shell this runs in).")] = None,
        install_completion: Annotated[str | None, typer.Option(
            "--install-completion", metavar="[SHELL]", is_eager=True,
            expose_value=False, callback=_completion,
            help="Install completion for SHELL (default: the shell this runs in).")]
        = None) -> None:
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


def show(shown: RenderableType) -> None:
    """A table or text: drawn for a terminal; plain lines, one per row, for anything else
    (`report/plain.py`), so piped output has no boxes and no name broken mid-word. Both
    ways every value is masked whole and made printable before it is laid out."""
    if sys.stdout.isatty():
        console().print(shown)
        return
    from prune_memory.cli.terminal import shown as masked
    from prune_memory.report.plain import plain_lines

    say("".join(f"{masked(line)}\n" for line in plain_lines(shown)), nl=False)


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


def snapshot_dir_path(value: str | None) -> Path | None:
    """`--snapshot-dir` as a path; an empty value is an error, not the current directory."""
    if value is None:
        return None
    if not value.strip():
        raise BadInputError("--snapshot-dir is empty; name a folder outside the memory "
                            "directory")
    return Path(value)


def report_load_errors(errors: Sequence[LoadError], *, exit_now: bool = True) -> None:
    """One line per unreadable file on stderr, then exit 2: the others were still processed.

    With `exit_now=False` only the lines are printed; the caller exits 2 when it is done.
    """
    for err in errors:
        warn(f"prune-memory: {err.file}: {err.message}")
    if errors and exit_now:
        raise typer.Exit(ExitCode.BAD_INPUT)
