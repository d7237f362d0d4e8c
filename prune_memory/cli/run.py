"""`run`: the whole pass — plan, review, apply, audit, scan — with a summary at the end."""

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
from prune_memory.cli.passes import ConfigOpt, pass_options, render_plan
from prune_memory.cli.targets import resolve_memory_dir
from prune_memory.errors import BadInputError, ExitCode

if TYPE_CHECKING:
    from prune_memory.engine.results import Skipped
    from prune_memory.model import JSON
    from prune_memory.plan import Plan
    from prune_memory.procedure.finish import PassReport
    from prune_memory.procedure.options import PassOptions

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
    plan, report, refused = _reviewed_pass(root, options, yes=yes, ask_kept=ask_kept,
                                           snapshot_dir=chosen_snapshot_dir)
    out = console(wrap=True)
    for line in summary_lines(report, root, out.width, refused=refused, verbose=verbose):
        out.print(line, soft_wrap=True)
    _exit(report, plan.errors)


def _dry_run(root: Path, options: PassOptions) -> None:
    from prune_memory.report.formats import Format

    plan = _plan(root, options)
    render_plan(plan, Format.TABLE)
    if plan.errors:
        raise typer.Exit(ExitCode.BAD_INPUT)


def _reviewed_pass(root: Path, options: PassOptions, *, yes: bool, ask_kept: bool,
                   snapshot_dir: Path | None) -> tuple[Plan, PassReport, list[Skipped]]:
    """Plan, review (or decide automatically with --yes), snapshot, then apply and log — all
    under one writer's lock, so interrupted steps of an earlier pass are settled first."""
    from prune_memory.analysis.instructions import read_claude_md
    from prune_memory.cli.review_flow import auto_decide, review_and_confirm
    from prune_memory.engine.session import writing
    from prune_memory.procedure.finish import RUN, begin_pass, finish_pass
    from prune_memory.procedure.review_state import drop_session, kept_entries, remember_keeps
    from prune_memory.store.snapshot import take_snapshot

    with writing(root) as notes:
        _say_notes(notes)
        plan = _plan(root, options)
        kept = {} if ask_kept else kept_entries(root)
        claude_md = read_claude_md(options.repo, options.home)
        decided = auto_decide(plan, kept, claude_md) if yes else \
            review_and_confirm(root, plan, kept, claude_md, options.now)
        snapshot = begin_pass(root, take_snapshot(root, options.now, snapshot_dir),
                              options.now, RUN)
        report = finish_pass(root, plan, decided.verdicts, decided.repairs,
                             snapshot=snapshot, now=options.now,
                             kept=[v.file for v in decided.keeps])
        if not yes:
            drop_session(root)
            remember_keeps(root, decided.keeps, options.now, report.pass_id)
    return plan, report, decided.refused


def _plan(root: Path, options: PassOptions) -> Plan:
    from prune_memory.cli.progress import stage_progress
    from prune_memory.model import LoadError
    from prune_memory.procedure.pipeline import build_plan

    with stage_progress(console()) as progress:
        plan = build_plan(root, options, progress)
    report_load_errors([LoadError(**e) for e in plan.errors], exit_now=False)
    return plan


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
