"""The pass: `plan` (read-only) and `run` (the whole procedure, with review)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prune_memory.cli.common import (
    JsonOpt,
    MemoryDirArg,
    MemoryDirOpt,
    NowOpt,
    ProjectOpt,
    RepoOpt,
    app,
    parse_now,
    report_load_errors,
    say,
    show,
    warn,
)
from prune_memory.cli.targets import resolve_memory_dir, resolve_repo
from prune_memory.errors import ExitCode
from prune_memory.report.formats import Format

if TYPE_CHECKING:
    from prune_memory.plan import Plan
    from prune_memory.procedure.options import PassOptions

DiffOpt = Annotated[bool, typer.Option(
    "--diff", help="Show what applying the proposals would write, as unified diffs (exit 1 "
    "when anything would change).")]
FormatOpt = Annotated[Format, typer.Option("--format", help="table, json or markdown.")]
ConfigOpt = Annotated[Path | None, typer.Option(
    "--config", help="Config file (count rules); default: .prune-memory.toml in the repo.")]


def pass_options(root: Path, repo: Path | None, project: Path | None, now: str | None,
                 config: Path | None) -> PassOptions:
    from prune_memory.claude.hooks.recall import measured_reads
    from prune_memory.procedure.options import PassOptions

    moment = parse_now(now)
    chosen = resolve_repo(repo, root, project)
    if chosen.note:  # before anything else is printed: the pass is read in its light
        warn(f"prune-memory: {chosen.note}")
    return PassOptions(repo=chosen.path, now=moment, config=config,
                       reads=measured_reads(root, moment))


@app.command()
def plan(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
         dir_opt: MemoryDirOpt = None, repo: RepoOpt = None,
         json: JsonOpt = False, fmt: FormatOpt = Format.TABLE, diff: DiffOpt = False,
         now: NowOpt = None, config: ConfigOpt = None) -> None:
    """Show what a pass would do to every entry, with evidence; changes nothing.

    Example: prune-memory plan ~/.claude/projects/-home-me-app/memory --repo ~/app --json

    Example: prune-memory plan --project . --diff
    """
    from prune_memory.model import LoadError
    from prune_memory.procedure.pipeline import build_plan

    root = resolve_memory_dir(memory_dir, project, dir_opt)
    result = build_plan(root, pass_options(root, repo, project, now, config))
    if diff:
        show_diff(root, result)
        return
    render_plan(result, Format.JSON if json else fmt)
    report_load_errors([LoadError(**e) for e in result.errors])


def show_diff(root: Path, result: Plan) -> None:
    """The plan's diff, then what accepting the held suggestions would write; only the
    first decides the exit code (1: `run --yes` would change something)."""
    from prune_memory.engine.preview import held_diff, plan_diff
    from prune_memory.model import LoadError

    text = plan_diff(root, result)
    say(text, nl=False)
    if held := held_diff(root, result):
        say("# held for review (the evidence suggests these, a person decides): "
                   "what accepting them would write\n" + held, nl=False)
    report_load_errors([LoadError(**e) for e in result.errors])
    if text:
        raise typer.Exit(ExitCode.FINDINGS)


def render_plan(result: Plan, fmt: Format) -> None:
    from prune_memory.report.formats import renderer

    out = renderer(fmt)(result)
    if isinstance(out, str):
        say(out, nl=not out.endswith("\n"), is_json=fmt is Format.JSON)
    else:
        show(out)
