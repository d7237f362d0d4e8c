"""`run`: the whole pass — plan, review, apply, audit, scan — with a summary at the end."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from prune_memory.cli.common import (
    MemoryDirArg,
    NowOpt,
    ProjectOpt,
    RepoOpt,
    app,
    console,
    report_load_errors,
    resolve_memory_dir,
    snapshot_dir_path,
)
from prune_memory.cli.passes import ConfigOpt, pass_options, render_plan
from prune_memory.cli.progress import stage_progress
from prune_memory.cli.review_ui import run_review
from prune_memory.errors import BadInputError, ExitCode
from prune_memory.model import JSON, LoadError
from prune_memory.pipeline import PassOptions, build_plan
from prune_memory.plan import Plan
from prune_memory.report.formats import Format
from prune_memory.report.summary import summary_view
from prune_memory.stages.apply_session import writing
from prune_memory.stages.passrun import PassReport, finish_pass, link_repairs, save_decisions
from prune_memory.stages.review import ReviewSession, Verdict, auto_verdicts
from prune_memory.stages.snapshot import take_snapshot
from prune_memory.store.loader import load_memory_dir

YesOpt = Annotated[bool, typer.Option(
    "--yes", "-y", help="Apply withdrawals and inoculations without asking; updates, flags "
    "and reviews stay pending.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Stop after the plan.")]
SnapshotOpt = Annotated[str | None, typer.Option(
    "--snapshot-dir", help="Where the pre-prune snapshot goes (outside the memory dir).")]


@app.command()
def run(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None, repo: RepoOpt = None,
        yes: YesOpt = False, dry_run: DryRunOpt = False, snapshot_dir: SnapshotOpt = None,
        now: NowOpt = None, config: ConfigOpt = None) -> None:
    """The whole pass: snapshot, classify, probe, check, decide, review, apply, log, scan.

    Example: prune-memory run --project ~/code/app --yes
    """
    root = resolve_memory_dir(memory_dir, project)
    if not (yes or dry_run or sys.stdin.isatty()):
        raise BadInputError("the review needs a terminal; use --yes to apply withdrawals "
                            "without asking, or --dry-run to see the plan")
    options = pass_options(root, repo, project, now, config)
    chosen_snapshot_dir = snapshot_dir_path(snapshot_dir)
    if dry_run:
        plan = _plan(root, options)
        render_plan(plan, Format.TABLE)
        if plan.errors:
            raise typer.Exit(ExitCode.BAD_INPUT)
        return
    with writing(root) as notes:  # one writer for the whole pass; interrupted steps settled
        _say_notes(notes)
        plan = _plan(root, options)
        verdicts, repairs = _decide(plan, root, yes)
        snapshot = take_snapshot(root, options.now, chosen_snapshot_dir)
        report = finish_pass(root, plan, verdicts, repairs, snapshot=snapshot,
                             now=options.now)
    console().print(summary_view(report))
    _exit(report, plan.errors)


def _plan(root: Path, options: PassOptions) -> Plan:
    with stage_progress(console()) as progress:
        plan = build_plan(root, options, progress)
    report_load_errors([LoadError(**e) for e in plan.errors], exit_now=False)
    return plan


def _decide(plan: Plan, root: Path, yes: bool) -> tuple[list[Verdict], list[JSON]]:
    memdir = load_memory_dir(root)
    repairs = list(plan.reachability.get("repairs", []))
    if yes:
        verdicts = auto_verdicts(plan)[0]
        return verdicts, repairs + link_repairs(plan, memdir, verdicts)
    out = console()
    session = ReviewSession.of(plan)
    run_review(session, {e.file: e.body for e in memdir.entries}, out)
    out.print(f"Decisions saved to {save_decisions(root, plan, session.decided())}")
    verdicts = [v for v in session.decided() if v.writes]
    repairs += link_repairs(plan, memdir, verdicts)
    if repairs and not _confirm(out, f"Also apply {len(repairs)} reachability repairs?"):
        repairs = []
    if not (verdicts or repairs) or not _confirm(
            out, f"Apply {len(verdicts)} decisions and {len(repairs)} repairs now?"):
        out.print("Nothing applied.")
        raise typer.Exit(ExitCode.OK)
    return verdicts, repairs


def _confirm(out: Console, question: str) -> bool:
    return out.input(f"{question} [y/N] ").strip().lower().startswith("y")


def _say_notes(notes: list[str]) -> None:
    for note in notes:
        print(f"prune-memory: {note}", file=sys.stderr)


def _exit(report: PassReport, errors: tuple[JSON, ...]) -> None:
    for item in report.skipped:
        print(f"prune-memory: skipped {item.file}: {item.reason}", file=sys.stderr)
    if errors:
        raise typer.Exit(ExitCode.BAD_INPUT)
    if any(s.code == ExitCode.REFUSED for s in report.skipped):
        raise typer.Exit(ExitCode.REFUSED)
