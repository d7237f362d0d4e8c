"""`run`: the whole pass (`procedure/run_pass.py`) with the review prompt, or `--yes`, as its
review, and a summary at the end."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prune_memory.cli.common import (
    MemoryDirArg,
    MemoryDirOpt,
    NowOpt,
    ProjectOpt,
    RepoOpt,
    app,
    console,
    report_load_errors,
    snapshot_dir_path,
    warn,
)
from prune_memory.cli.plan_command import ConfigOpt, pass_options, render_plan
from prune_memory.cli.targets import resolve_memory_dir
from prune_memory.errors import BadInputError, ExitCode

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from prune_memory.model import JSON
    from prune_memory.plan import Plan
    from prune_memory.procedure.options import PassOptions
    from prune_memory.procedure.review import Decided
    from prune_memory.procedure.run_pass import PassReport

YesOpt = Annotated[bool, typer.Option(
    "--yes", "-y", help="Apply withdrawals and inoculations without asking; updates, flags "
    "and reviews stay pending.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Stop after the plan.")]
SnapshotOpt = Annotated[str | None, typer.Option(
    "--snapshot-dir", help="Where the pre-prune snapshot goes (outside the memory dir).")]
VerboseOpt = Annotated[bool, typer.Option(
    "--verbose", "-v", help="List everything in the summary: each change, each proposal left "
    "to ask, the memories that look cold (estimates), the snapshot.")]
AskKeptOpt = Annotated[bool, typer.Option(
    "--ask-kept", help="Also ask again about proposals you kept before (by default one is "
    "not proposed again until that memory changes).")]


@app.command()
def run(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
        dir_opt: MemoryDirOpt = None, repo: RepoOpt = None, yes: YesOpt = False,
        dry_run: DryRunOpt = False, snapshot_dir: SnapshotOpt = None, now: NowOpt = None,
        config: ConfigOpt = None, ask_kept: AskKeptOpt = False,
        verbose: VerboseOpt = False) -> None:
    """The whole pass: snapshot, classify, probe, check, decide, review, apply, log, scan.

    The review asks about one proposal at a time (strongest evidence first); q, Ctrl-C or Ctrl-D
    save your decisions and the next run offers to resume them.

    Example: prune-memory run --project ~/code/app --yes
    """
    root = resolve_memory_dir(memory_dir, project, dir_opt)
    if not (yes or dry_run or sys.stdin.isatty()):
        raise BadInputError("the review needs a terminal; use --yes to apply withdrawals "
                            "without asking, or --dry-run to see the plan")
    from prune_memory.report.summary import summary_lines

    options = pass_options(root, repo, project, now, config)
    chosen_snapshot_dir = snapshot_dir_path(snapshot_dir)
    if dry_run:
        _dry_run(root, options)
        return
    plan, report = _reviewed_pass(root, options, yes=yes, ask_kept=ask_kept,
                                  snapshot_dir=chosen_snapshot_dir)
    out = console(wrap=True)
    for line in summary_lines(report, root, out.width, verbose=verbose):
        out.print(line, soft_wrap=True)
    _exit(report, plan.errors)


def _dry_run(root: Path, options: PassOptions) -> None:
    from prune_memory.cli.progress import stage_progress
    from prune_memory.procedure.pipeline import build_plan
    from prune_memory.report.formats import Format

    with stage_progress(console()) as progress:
        plan = build_plan(root, options, progress)
    _say_load_errors(plan)
    render_plan(plan, Format.TABLE)
    if plan.errors:
        raise typer.Exit(ExitCode.BAD_INPUT)


def _reviewed_pass(root: Path, options: PassOptions, *, yes: bool, ask_kept: bool,
                   snapshot_dir: Path | None) -> tuple[Plan, PassReport]:
    """The pass, with the prompt (or `--yes`'s policy) as its review."""
    from prune_memory.cli.progress import stage_progress
    from prune_memory.cli.review_prompt import review_and_confirm
    from prune_memory.procedure.review import auto_decide
    from prune_memory.procedure.run_pass import run_pass

    def review(plan: Plan, kept: Mapping[str, str],
               claude_md: Sequence[tuple[str, str]]) -> Decided:
        _say_load_errors(plan)
        if yes:
            return auto_decide(plan, kept, claude_md)
        return review_and_confirm(root, plan, kept, claude_md, options.now)

    return run_pass(root, options, review, snapshot_dir=snapshot_dir, ask_kept=ask_kept,
                    planning=lambda: stage_progress(console()), notes=_say_notes)


def _say_load_errors(plan: Plan) -> None:
    from prune_memory.model import LoadError

    report_load_errors([LoadError(**e) for e in plan.errors], exit_now=False)


def _say_notes(notes: list[str]) -> None:
    for note in notes:
        warn(f"prune-memory: {note}")


def _exit(report: PassReport, errors: tuple[JSON, ...]) -> None:
    """2 only when nothing changed; a pass that applied changes but passed over unreadable
    files says so and exits 1 (findings need attention), as the README defines."""
    for item in report.skipped:
        warn(f"prune-memory: skipped {item.file}: {item.reason}")
    if report.undo_problem:
        warn(f"prune-memory: {report.undo_problem}")
    if errors:  # the pass wrote its audit at least: not "nothing changed"
        warn(f"prune-memory: passed over {len(errors)} unreadable file(s) listed above; the "
             "rest of the pass was applied — fix them and run again")
        raise typer.Exit(ExitCode.FINDINGS)
    if report.undo_problem or any(s.code == ExitCode.REFUSED for s in report.skipped):
        raise typer.Exit(ExitCode.REFUSED)
