"""`lint` and `filters init`: the store lint and the retention policy file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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
    resolve_memory_dir,
)
from prune_memory.errors import ExitCode
from prune_memory.model import LoadError
from prune_memory.stages.lint import DEFAULT_MAX_AGE_DAYS, LintOptions, LintReport

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
RequireSourceOpt = Annotated[bool, typer.Option(
    "--require-source", help="Report entries with no source/origin/trace_id frontmatter.")]
MaxAgeOpt = Annotated[int, typer.Option(
    "--max-age-days", min=0, help="Entries last written longer ago than this are stale.")]
MaxEntriesOpt = Annotated[int | None, typer.Option(
    "--max-entries", min=0, help="Size cap: more entries than this is a violation.")]
SuggestOpt = Annotated[bool, typer.Option(
    "--suggest", help="Also say what to do: flag secrets, withdraw or archive noise, review.")]


@app.command()
def lint(target: TargetArg = None, *, project: ProjectOpt = None, json: JsonOpt = False,
         now: NowOpt = None, require_source: RequireSourceOpt = False,
         max_age_days: MaxAgeOpt = DEFAULT_MAX_AGE_DAYS, max_entries: MaxEntriesOpt = None,
         suggest: SuggestOpt = False) -> None:
    """Check provenance, freshness, secrets, poison, exact duplicates and the size cap.

    Exit 0 when clean, 1 on any violation, 2 when the store is missing or unreadable.

    Example: prune-memory lint memories.jsonl --require-source --max-age-days 90 --json
    """
    options = LintOptions(require_source=require_source, max_age_days=max_age_days,
                          max_entries=max_entries)
    when = parse_now(now)
    errors: tuple[LoadError, ...] = ()
    if target is not None and project is None and _is_store(target):
        from prune_memory.jsonstore.records import load_store
        from prune_memory.stages.lint import lint_store

        report = lint_store(load_store(target), target=str(target), now=when, options=options)
    else:
        from prune_memory.stages.lint import lint_memory_dir
        from prune_memory.store.loader import load_memory_dir

        memdir = load_memory_dir(resolve_memory_dir(target, project))
        report, errors = lint_memory_dir(memdir, now=when, options=options), memdir.errors
    if json:
        emit_json(report.to_json(with_suggestions=suggest))
    else:
        for line in render_lint(report, with_suggestions=suggest):
            print(line)
    report_load_errors(errors)
    if not report.clean:
        raise typer.Exit(ExitCode.FINDINGS)


@filters_app.command("init")
def filters_init(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
                 dir_opt: MemoryDirOpt = None,
                 force: Annotated[bool, typer.Option(
                     "--force", help="Replace an existing retention-policy.md.")] = False) -> None:
    """Write retention-policy.md (prose plus the rules the tool reads) into a memory directory.

    Refuses to replace an existing policy unless --force is given.

    Example: prune-memory filters init --project ~/code/app
    """
    from prune_memory.stages.filters import init_policy

    written = init_policy(resolve_memory_dir(memory_dir, project, dir_opt), force=force)
    print(f"wrote {written}; add your own [[never_persist]] rules to its policy block")


def render_lint(report: LintReport, *, with_suggestions: bool) -> list[str]:
    """Plain lines for the terminal (no markup: messages hold masked values in brackets)."""
    verdict = "clean" if report.clean else f"{len(report.violations)} violation(s)"
    lines = [f"lint {report.target} ({report.kind}, {report.entries} entries): {verdict}"]
    width = max((len(v.item) for v in report.violations), default=0)
    lines += [f"  {v.check.value:<14} {v.item:<{width}}  {v.message}" for v in report.violations]
    if with_suggestions:
        lines.append("suggestions:" if report.suggestions else "suggestions: none")
        lines += [f"  {s.action:<9} {s.item}  ({'; '.join(s.reasons)})"
                  for s in report.suggestions]
        if any(s.action == "archive" for s in report.suggestions):
            lines.append("  (archive = withdraw to deaccessioned/, restorable with `restore`)")
    return lines


def _is_store(target: Path) -> bool:
    return target.suffix.lower() in STORE_SUFFIXES or target.is_file()
