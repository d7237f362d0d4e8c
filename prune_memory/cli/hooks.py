"""`hook gate|record-read|install|uninstall` and `skill install|uninstall`: the Claude Code
integration.

Claude Code runs `hook gate` and `hook record-read` itself, on every matching tool call; the
console script sends those two straight to `prune_memory.claude.hooks.entry` without loading typer.
The commands here give them help text and let them run in-process too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prune_memory.claude.hooks.gate import ENV_MODE, Mode
from prune_memory.cli.common import app, console
from prune_memory.errors import BadInputError

if TYPE_CHECKING:
    from prune_memory.claude.settings import FileChange, Scope

hook_app = typer.Typer(
    name="hook", no_args_is_help=True, rich_markup_mode=None,
    help="Claude Code hooks: a write-time gate for memory and a read counter.\n\n"
         "Example: prune-memory hook install --user --gate-mode strict",
)
skill_app = typer.Typer(
    name="skill", no_args_is_help=True, rich_markup_mode=None,
    help="The Claude Code skill that walks a user through a prune-memory review.\n\n"
         "Example: prune-memory skill install --user",
)
app.add_typer(hook_app, name="hook")
app.add_typer(skill_app, name="skill")


class GateMode(StrEnum):
    """Modes `hook install` may write; `off` is for the environment variable."""

    STRICT = "strict"
    WARN = "warn"


MemoryRootOpt = Annotated[list[Path] | None, typer.Option(
    "--memory-root", metavar="DIR", help="Also treat this directory as memory (repeatable).")]
UserOpt = Annotated[bool, typer.Option(
    "--user", help="User settings: ~/.claude (or $CLAUDE_CONFIG_DIR). The default.")]
ProjectPathOpt = Annotated[Path | None, typer.Option(
    "--project", metavar="PATH", help="This project's .claude/settings.json, shared with "
    "everyone who clones it.")]
LocalOpt = Annotated[bool, typer.Option(
    "--local", help="The project's .claude/settings.local.json: yours only, kept out of git "
    "(the project is --project PATH, else the current git root).")]
ProjectDirOpt = Annotated[Path | None, typer.Option("--project-dir", hidden=True)]
NoCheckOpt = Annotated[bool, typer.Option(
    "--no-check", help="Do not run the command once before writing it (say, for settings "
    "another machine will use).")]


@hook_app.command("gate")
def gate_command(*, mode: Annotated[Mode | None, typer.Option(
                     "--mode", help=f"strict denies, warn tells Claude, off looks at nothing. "
                                    f"Default: ${ENV_MODE}, else strict.")] = None,
                 memory_root: MemoryRootOpt = None) -> None:
    """PreToolUse hook: check text that Write, Edit, MultiEdit or Bash would put into memory.

    Reads Claude Code's hook JSON on stdin. A secret, an injected instruction or a
    never-persist match denies the write (strict) or warns Claude (warn); anything else,
    including input it cannot read, is allowed. Problems go to the state directory's gate log.

    Example: prune-memory hook gate --mode strict < payload.json
    """
    from prune_memory.claude.hooks import entry

    argv = [f"--mode={mode.value}"] if mode is not None else []
    argv += [f"--memory-root={root}" for root in memory_root or []]
    entry.run("gate", argv)


@hook_app.command("record-read")
def record_read_command(*, memory_root: MemoryRootOpt = None) -> None:
    """PostToolUse hook on Read: count a read of a memory topic file in the recall log.

    The log lives in the state directory, never in memory; inventory and plan then report
    measured reads instead of an estimate.

    Example: prune-memory hook record-read < payload.json
    """
    from prune_memory.claude.hooks import entry

    entry.run("record-read", [f"--memory-root={root}" for root in memory_root or []])


@hook_app.command("install")
def install_command(*, user: UserOpt = False, project: ProjectPathOpt = None,
                    local: LocalOpt = False, project_dir: ProjectDirOpt = None,
                    gate_mode: Annotated[GateMode, typer.Option(
                        "--gate-mode", help="Mode written into the gate's command.")]
                    = GateMode.STRICT,
                    memory_root: MemoryRootOpt = None,
                    executable: Annotated[str | None, typer.Option(
                        "--executable", help="Command that runs prune-memory. Default: the "
                        "absolute path of this one, which works without it on PATH.")]
                    = None, no_check: NoCheckOpt = False) -> None:
    """Add the gate and the read counter to Claude Code's settings.

    The command written is the absolute path of the prune-memory that runs now (a
    virtualenv's works although Claude Code's PATH lacks it), and it is run once before
    anything is written. Every other key and hook is kept; running it twice changes
    nothing; the previous file is backed up under the state directory, never in the repo;
    a file that is not valid JSON is refused (exit 2).

    Example: prune-memory hook install --project . --gate-mode warn

    Example: prune-memory hook install --local
    """
    from prune_memory.claude.hooks.command import check_command, installed_command
    from prune_memory.claude.settings import hook_entries, install_hooks, settings_file

    roots = [root.expanduser().resolve() for root in memory_root or []]
    entries = hook_entries(gate_mode.value, roots,
                           _command_words(executable) if executable else installed_command())
    if not no_check:
        gate = entries["PreToolUse"][0]["hooks"][0]["command"]
        if (problem := check_command(gate)) is not None:
            raise BadInputError(f"{problem}; nothing changed — give --executable, or "
                                "--no-check to write it anyway")
    scope, where = _target(user, project, local, project_dir)
    change = install_hooks(settings_file(scope, where), entries, datetime.now(UTC),
                           within=_project_of(scope, where))
    _report(change, "hooks installed in", "hooks already installed in")
    if local:  # the promise of --local: the file is the user's own, never committed
        from prune_memory.claude.untracked import keep_out_of_git

        console().print(f"{change.path.name}: {keep_out_of_git(change.path)}", soft_wrap=True)


@hook_app.command("uninstall")
def uninstall_command(*, user: UserOpt = False, project: ProjectPathOpt = None,
                      local: LocalOpt = False, project_dir: ProjectDirOpt = None) -> None:
    """Remove exactly our hook entries from Claude Code's settings.

    Example: prune-memory hook uninstall --user
    """
    from prune_memory.claude.settings import settings_file, uninstall_hooks

    scope, where = _target(user, project, local, project_dir)
    _report(uninstall_hooks(settings_file(scope, where), datetime.now(UTC),
                            within=_project_of(scope, where)),
            "hooks removed from", "no prune-memory hooks in")


@skill_app.command("install")
def skill_install_command(*, user: UserOpt = False, project: ProjectPathOpt = None,
                          project_dir: ProjectDirOpt = None,
                          executable: Annotated[str | None, typer.Option(
                              "--executable", help="Command the skill runs. Default: the "
                              "absolute path of this prune-memory, as `hook install` "
                              "writes it.")] = None,
                          no_check: NoCheckOpt = False) -> None:
    """Write the prune-memory skill (SKILL.md) where Claude Code finds skills.

    Its commands are the absolute command `hook install` writes (a virtualenv's works
    although Claude Code's PATH lacks it), run once before anything is written.

    Example: prune-memory skill install --user
    """
    from prune_memory.claude.hooks.command import check_command, installed_command
    from prune_memory.claude.skill import install_skill, skill_command

    command = skill_command(_command_words(executable) if executable else installed_command())
    if not no_check and (problem := check_command(f"{command} --version")) is not None:
        raise BadInputError(f"{problem}; nothing changed — give --executable, or --no-check "
                            "to write it anyway")
    path, within = _skill_path(user, project, project_dir)
    _report(install_skill(path, datetime.now(UTC), command, within=within), "skill written to",
            "skill up to date in")


@skill_app.command("uninstall")
def skill_uninstall_command(*, user: UserOpt = False, project: ProjectPathOpt = None,
                            project_dir: ProjectDirOpt = None) -> None:
    """Remove the prune-memory skill; a copy of it is kept under the state directory.

    Example: prune-memory skill uninstall --user
    """
    from prune_memory.claude.skill import uninstall_skill

    path, within = _skill_path(user, project, project_dir)
    _report(uninstall_skill(path, datetime.now(UTC), within=within), "skill removed from",
            "no prune-memory skill in")


def _skill_path(user: bool, project: Path | None,
                project_dir: Path | None) -> tuple[Path, Path | None]:
    """The skill's file, and the project it must stay inside (None for the user's)."""
    from prune_memory.claude.settings import Scope
    from prune_memory.claude.skill import skill_file

    scope, where = _target(user, project, False, project_dir)
    return skill_file(Scope.USER if scope is Scope.USER else Scope.PROJECT, where), \
        _project_of(scope, where)


def _project_of(scope: Scope, where: Path) -> Path | None:
    """The folder a project's file must stay inside; None for the user's own settings (a
    dotfiles link there is the user's choice)."""
    from prune_memory.claude.settings import Scope

    return None if scope is Scope.USER else where


def _command_words(executable: str) -> str | list[str]:
    """--executable as one program (a path, spaces and all, when that file exists) or as
    the words of a command (`python -m prune_memory`), split the way a shell would."""
    import shlex

    if Path(executable).expanduser().is_file() or not any(c.isspace() for c in executable):
        return executable
    try:
        words = shlex.split(executable)
    except ValueError as err:
        raise BadInputError(f"--executable {executable!r} does not split into words "
                            f"({err}); nothing changed") from err
    if not words:
        raise BadInputError("--executable is blank; nothing changed")
    return words


def _target(user: bool, project: Path | None, local: bool,
            project_dir: Path | None) -> tuple[Scope, Path]:
    """Which settings: --user (the default), --project PATH, or --local."""
    from prune_memory.claude.locate import git_root
    from prune_memory.claude.settings import Scope

    project = project or project_dir
    if user and (project is not None or local):
        raise BadInputError("give one of --user, --project PATH or --local")
    here = (project or Path.cwd()).expanduser().resolve()
    where = here if project is not None else git_root(here) or here
    if local:
        return Scope.LOCAL, where
    return (Scope.PROJECT, where) if project is not None else (Scope.USER, where)


def _report(change: FileChange, done: str, unchanged: str) -> None:
    out = console()
    if not change.changed:
        out.print(f"{unchanged} {change.path}; nothing changed")
        return
    out.print(f"{done} {change.path}")
    if change.backup is not None:
        out.print(f"backup of the previous file: {change.backup}", soft_wrap=True)
