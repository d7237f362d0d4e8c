"""`jsonl report|prune|verify`: the audit of plain JSON-list and JSONL memory stores."""

from __future__ import annotations

import json as jsonlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prune_memory.analysis.contradictions import NegationSet
from prune_memory.cli.common import JsonOpt, NowOpt, app, emit_json, parse_now, say
from prune_memory.errors import BadInputError, ExitCode
from prune_memory.jsonstore.analysis import NEAR_THRESHOLD
from prune_memory.jsonstore.prune import MIN_AGE_DAYS, STALE_THRESHOLD

if TYPE_CHECKING:
    from prune_memory.jsonstore.recall import CheckResult

jsonl_app = typer.Typer(
    name="jsonl", no_args_is_help=True, rich_markup_mode=None,
    help="Audit, prune and recall-check a JSON-list or JSONL memory store.\n\n"
         "Example: prune-memory jsonl report memories.jsonl --now 2026-10-12",
)
app.add_typer(jsonl_app, name="jsonl")

StoreArg = Annotated[Path, typer.Argument(help="A .json list or .jsonl file of records.",
                                          show_default=False)]
NearOpt = Annotated[float, typer.Option(
    "--near-threshold",
    help="Token-set Jaccard at or above which two records are near duplicates.")]
NegationsOpt = Annotated[NegationSet, typer.Option(
    "--negations",
    help="Negation words for contradiction flags; 'seed' uses only not/no/never/false.")]


@jsonl_app.command("report")
def report_command(store: StoreArg, *, now: NowOpt = None,
                   near_threshold: NearOpt = NEAR_THRESHOLD,
                   negations: NegationsOpt = NegationSet.EXTENDED) -> None:
    """Size, age, duplicates, contradiction flags and staleness of every record, as JSON.

    With the extended negations (the default) a statement denied by another ("resets
    nightly" / "does not reset nightly") is flagged too; `--negations seed` gives the
    original audit's flags exactly.

    Example: prune-memory jsonl report memories.jsonl --now 2026-10-12
    """
    from prune_memory.analysis.contradictions import negation_words
    from prune_memory.jsonstore.analysis import analyse, denial_flags, report
    from prune_memory.jsonstore.records import load_store

    records = load_store(store)
    analysis = analyse(records, parse_now(now), near_threshold=near_threshold,
                       negations=negation_words(negations))
    out = report(records, analysis)
    if negations is NegationSet.EXTENDED:
        out["contradiction_flags"] += denial_flags(records, analysis)
    emit_json(out, "jsonl-report")


@jsonl_app.command("prune")
def prune_command(
    store: StoreArg,
    *,
    out: Annotated[Path, typer.Option("--out", help="Where the kept records go (JSONL).")],
    archive: Annotated[Path, typer.Option("--archive", help="Where archived records go (JSONL).")],
    stale_threshold: Annotated[float, typer.Option(
        "--stale-threshold", help="Archive at or above this staleness score.")] = STALE_THRESHOLD,
    min_age_days: Annotated[int, typer.Option(
        "--min-age-days", help="...and only when idle at least this many days.")] = MIN_AGE_DAYS,
    backup_dir: Annotated[Path | None, typer.Option(
        "--backup-dir", help="Folder for the dated backup of the store (default: beside "
                             "it).")] = None,
    now: NowOpt = None,
) -> None:
    """Split a store into kept and archived records; the store itself is never changed.

    Pinned records stay, later exact copies and stale records are archived with
    `_archive_reason`; near duplicates and contradictions are never archived. Before
    anything is written the store is copied to `<store>.bak-<UTC stamp>`.

    Example: prune-memory jsonl prune memories.jsonl --out kept.jsonl --archive archived.jsonl
    """
    from prune_memory.jsonstore.analysis import analyse
    from prune_memory.jsonstore.prune import backup_path, plan_prune, write_outcome
    from prune_memory.jsonstore.records import load_store

    records = load_store(store)
    when = parse_now(now)
    outcome = plan_prune(records, analyse(records, when),
                         stale_threshold=stale_threshold, min_age_days=min_age_days)
    if backup_dir is not None and not backup_dir.is_dir():
        raise BadInputError(f"--backup-dir is not a folder: {backup_dir}")
    backup = backup_path(store, when, backup_dir)
    write_outcome(outcome, store, out, archive, backup)
    emit_json({**outcome.summary(), "backup": str(backup)}, "jsonl-prune")


@jsonl_app.command("verify")
def verify_command(
    target: Annotated[Path, typer.Argument(
        help="A JSON/JSONL store, or a memory directory.", show_default=False)],
    checks: Annotated[Path, typer.Argument(
        help='JSON list of {"query", "expect_id"} ({"query", "expect_file"} for a directory).',
        show_default=False)],
    *,
    json: JsonOpt = False,
) -> None:
    """Recall checks: each passes when the expected record ranks in the top 3 by shared words.

    Exit 1 when any check fails.

    Example: prune-memory jsonl verify kept.jsonl checks.json
    """
    from prune_memory.jsonstore.recall import (
        load_checks,
        memory_documents,
        run_checks,
        store_documents,
    )
    from prune_memory.jsonstore.records import load_store

    if target.is_dir():
        from prune_memory.store.loader import load_memory_dir

        field, documents = "expect_file", memory_documents(load_memory_dir(target))
    elif target.exists():
        field, documents = "expect_id", store_documents(load_store(target))
    else:
        raise BadInputError(f"store not found: {target}")
    results = run_checks(load_checks(checks, field), documents)
    _print_results(results, field, as_json=json)
    if not all(result.passed for result in results):
        raise typer.Exit(ExitCode.FINDINGS)


def _print_results(results: list[CheckResult], field: str, *, as_json: bool) -> None:
    passed = sum(result.passed for result in results)
    if as_json:
        emit_json({"passed": passed, "total": len(results),
                   "checks": [result.to_json(field) for result in results]}, "jsonl-verify")
        return
    for result in results:
        say(jsonlib.dumps(result.to_json(field), ensure_ascii=False), is_json=True)
    say(f"{passed}/{len(results)} checks passed")
