"""`lint` and `filters init`: the store lint and the retention policy file."""

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
    app,
    emit_json,
    parse_now,
    report_load_errors,
    say,
)
from prune_memory.cli.targets import resolve_memory_dir
from prune_memory.errors import BadInputError, ExitCode
from prune_memory.lint.options import DEFAULT_MAX_AGE_DAYS, DEFAULT_MAX_ENTRIES

if TYPE_CHECKING:
    from datetime import datetime

    from prune_memory.lint.checks import LintReport
    from prune_memory.lint.options import LintOptions
    from prune_memory.lint.suggest import Listing
    from prune_memory.model import LoadError

STORE_SUFFIXES = (".json", ".jsonl")

filters_app = typer.Typer(
    name="filters", no_args_is_help=True, rich_markup_mode=None,
    help="The retention policy: what must never become a memory (procedure step 6).\n\n"
         "Example: prune-memory filters init ~/.claude/projects/-home-me-app/memory",
)
app.add_typer(filters_app, name="filters")

TargetArg = Annotated[Path | None, typer.Argument(
    help="Memory directory, or a .json/.jsonl store. Default: the current git root's "
         "memory directory.", show_default=False)]
StoreOpt = Annotated[Path | None, typer.Option(
    "--store", help="A .json/.jsonl store to lint (the same as giving it as TARGET).")]
RequireSourceOpt = Annotated[bool | None, typer.Option(
    "--require-source/--no-require-source",
    help="Report entries with no source/origin/trace_id. Default: on for a store, off for a "
         "memory directory (Claude Code writes no provenance).", show_default=False)]
MaxAgeOpt = Annotated[int, typer.Option(
    "--max-age-days", min=0, help="Store records last written longer ago than this are stale "
    "(a store's rule: in a memory directory age never decides).")]
MaxEntriesOpt = Annotated[int | None, typer.Option(
    "--max-entries", min=0, help="Size cap: more entries than this is a violation.")]
SuggestOpt = Annotated[bool, typer.Option(
    "--suggest", help="Also say what to do: flag secrets, withdraw or archive noise, review.")]
MinScoreOpt = Annotated[float, typer.Option(
    "--min-score", min=0.0, max=1.0,
    help="List only suggestions with at least this noise score (flags are always listed).")]
LimitOpt = Annotated[int | None, typer.Option(
    "--limit", min=0, help="List at most this many suggestions, highest score first.")]
OffsetOpt = Annotated[int, typer.Option("--offset", min=0,
                                        help="Skip this many suggestions first.")]


@app.command()
def lint(target: TargetArg = None, *, store: StoreOpt = None, project: ProjectOpt = None,
         json: JsonOpt = False, now: NowOpt = None, require_source: RequireSourceOpt = None,
         max_age_days: MaxAgeOpt = DEFAULT_MAX_AGE_DAYS,
         max_entries: MaxEntriesOpt = DEFAULT_MAX_ENTRIES, suggest: SuggestOpt = False,
         min_score: MinScoreOpt = 0.0, limit: LimitOpt = None, offset: OffsetOpt = 0) -> None:
    """Check provenance, freshness, secrets, personal data, poison, duplicates and the size cap.

    Exit 0 when clean, 1 on any violation, 2 when the store is missing or unreadable. A
    record that cannot be used is one violation; the lint carries on with the others.

    Example: prune-memory lint --store memory.json --max-age-days 90 --suggest --limit 20
    """
    from prune_memory.lint.options import LintOptions
    from prune_memory.lint.suggest import Listing

    options = LintOptions(require_source=require_source, max_age_days=max_age_days,
                          max_entries=max_entries)
    if store is not None and target is not None:
        raise BadInputError("give the store either as TARGET or with --store, not both")
    report, errors = _lint_report(store if store is not None else target, project,
                                  as_store=store is not None, when=parse_now(now),
                                  options=options)
    listing = Listing(min_score=min_score, limit=limit, offset=offset)
    if json:
        emit_json(report.to_json(with_suggestions=suggest, listing=listing))
    else:
        for line in render_lint(report, with_suggestions=suggest, listing=listing):
            say(line)
    report_load_errors(errors)
    if not report.clean:
        raise typer.Exit(ExitCode.FINDINGS)


def _lint_report(target: Path | None, project: Path | None, *, as_store: bool, when: datetime,
                 options: LintOptions) -> tuple[LintReport, tuple[LoadError, ...]]:
    """Lint a JSON store, or else a memory directory (with the files it could not read)."""
    if target is not None and project is None and (as_store or _is_store(target)):
        from prune_memory.jsonstore.records import read_store_leniently
        from prune_memory.lint.checks import lint_store

        read = read_store_leniently(target)
        return lint_store(read.records, target=str(target), now=when, options=options,
                          problems=read.problems), ()
    from prune_memory.lint.checks import lint_memory_dir
    from prune_memory.store.loader import load_memory_dir

    memdir = load_memory_dir(resolve_memory_dir(target, project))
    return lint_memory_dir(memdir, now=when, options=options), memdir.errors


@filters_app.command("init")
def filters_init(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
                 dir_opt: MemoryDirOpt = None,
                 force: Annotated[bool, typer.Option(
                     "--force", help="Replace an existing retention-policy.md.")] = False) -> None:
    """Write retention-policy.md (prose plus the rules the tool reads) into a memory directory.

    Refuses to replace an existing policy unless --force is given; then the directory is
    snapshotted first, and `restore --pass` puts the old policy back.

    Example: prune-memory filters init --project ~/code/app
    """
    from prune_memory.procedure.filters import init_policy

    root = resolve_memory_dir(memory_dir, project, dir_opt)
    written = init_policy(root, force=force)
    if written.snapshot is not None:
        say(f"the policy it replaced is kept in the snapshot {written.snapshot}; put it back "
            f"with: prune-memory restore --pass {written.undo} --memory-dir {root}")
    say(f"wrote {written.path}; add your own [[never_persist]] rules to its policy block")


def render_lint(report: LintReport, *, with_suggestions: bool,
                listing: Listing | None = None) -> list[str]:
    """Plain lines for the terminal (no markup: messages hold masked values in brackets)."""
    from prune_memory.lint.suggest import Listing

    verdict = "clean" if report.clean else f"{len(report.violations)} violation(s)"
    lines = [f"lint {report.target} ({report.kind}, {report.entries} entries): {verdict}"]
    width = max((len(v.item) for v in report.violations), default=0)
    lines += [f"  {v.check.value:<14} {v.item:<{width}}  {v.message}" for v in report.violations]
    if with_suggestions:
        shown = report.listed(listing or Listing())
        hidden = len(report.suggestions) - len(shown)
        lines.append("suggestions:" if shown else "suggestions: none")
        lines += [f"  {s.action:<9} {s.item}  ({'; '.join(s.reasons)})" for s in shown]
        if hidden:
            lines.append(f"  ({hidden} more not listed: see --min-score, --limit, --offset)")
        if any(s.action == "archive" for s in shown):
            lines.append("  (archive = withdraw to deaccessioned/, restorable with `restore`)")
    return lines


def _is_store(target: Path) -> bool:
    return target.suffix.lower() in STORE_SUFFIXES or target.is_file()
