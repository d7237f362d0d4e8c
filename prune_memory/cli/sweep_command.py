"""`sweep`: after a rename, every memory that still says the old name; `--apply` fixes them."""

from __future__ import annotations

from datetime import datetime
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
    console,
    emit_json,
    parse_now,
    report_load_errors,
    show,
    warn,
)
from prune_memory.cli.targets import resolve_memory_dir
from prune_memory.cli.write_commands import render_result, warn_all
from prune_memory.errors import ExitCode

SWEEP = "sweep --apply"  # what names the pass a sweep makes

if TYPE_CHECKING:
    from rich.table import Table

    from prune_memory.analysis.renames import SweepReport
    from prune_memory.model import MemoryDir

RenameOpt = Annotated[
    list[str],
    typer.Option("--rename", metavar="OLD=NEW", show_default=False,
                 help="A name or path that changed. Repeat for several."),
]
IgnoreCaseOpt = Annotated[
    bool, typer.Option("--ignore-case", "-i", help="Match OLD in any letter case.")
]


ApplyOpt = Annotated[bool, typer.Option(
    "--apply", help="Make the replacements: each file is updated (body, description, index "
    "line) with a register id, reversible with `restore`; the sweep is one pass.")]
SnapshotOpt = Annotated[Path | None, typer.Option(
    "--snapshot-dir", help="With --apply: where the snapshot goes (outside the memory dir).")]


@app.command("sweep")
def sweep_command(memory_dir: MemoryDirArg = None, *, rename: RenameOpt,
                  project: ProjectOpt = None, dir_opt: MemoryDirOpt = None,
                  ignore_case: IgnoreCaseOpt = False, apply: ApplyOpt = False,
                  snapshot_dir: SnapshotOpt = None, json: JsonOpt = False,
                  now: NowOpt = None) -> None:
    """After a rename: list every memory and index line that still says OLD, with the fix.

    Matches whole words, OLD inside paths, and OLD with dashes, underscores or dots swapped.
    Changes nothing (exit 1 when anything is found) unless --apply is given.

    Example: prune-memory sweep --rename pebble=cairn --rename api/auth.py=api/auth/session.py

    Example: prune-memory sweep --project . --rename pebble=cairn --apply
    """
    from prune_memory.analysis.renames import parse_rename, sweep
    from prune_memory.store.loader import load_memory_dir

    root = resolve_memory_dir(memory_dir, project, dir_opt)
    memdir = load_memory_dir(root)
    report = sweep(memdir, [parse_rename(r) for r in rename], ignore_case=ignore_case)
    if apply and report.hits:
        _apply(root, memdir, report, snapshot_dir, parse_now(now), json)
        return
    if json:
        emit_json({"memory_dir": str(memdir.root), **report.to_json()})
    else:
        show(_table(report))
    report_load_errors(memdir.errors)
    if report.hits:
        raise typer.Exit(ExitCode.FINDINGS)


def _apply(root: Path, memdir: MemoryDir, report: SweepReport, snapshot_dir: Path | None,
           now: datetime, as_json: bool) -> None:
    from prune_memory.procedure.run_pass import step_pass
    from prune_memory.procedure.sweep import apply_sweep

    done, undo = step_pass(
        root, now, SWEEP,
        lambda snap: apply_sweep(root, memdir, report, snapshot=snap, now=now).result(),
        snapshot_dir=snapshot_dir, audited=len(report.files),
        notes=lambda notes: warn_all([f"prune-memory: {n}" for n in notes]))
    if as_json:
        emit_json({"memory_dir": str(root), **report.to_json(), "applied": done.to_json()})
    else:
        render_result(done, False)
        console().print(f"Undo the sweep: prune-memory restore --pass {undo} --memory-dir {root}",
                        soft_wrap=True)
    for item in done.skipped:
        warn(f"prune-memory: skipped {item.file}: {item.reason}")
    if done.skipped:
        raise typer.Exit(ExitCode.FINDINGS)


def _table(report: SweepReport) -> Table | str:
    from rich.table import Table

    names = ", ".join(f"{r.old} → {r.new}" for r in report.renames)
    if not report.hits:
        return f"No memory mentions {names}."
    table = Table(title=f"{len(report.hits)} mention(s) of {names} in "
                        f"{len(report.files)} file(s) or index line(s)", title_justify="left")
    for column in ("file", "where", "found → becomes", "line after the fix"):
        table.add_column(column, overflow="fold")
    rows: dict[tuple[str, str], list[str]] = {}
    after: dict[tuple[str, str], str] = {}
    for hit in report.hits:
        rows.setdefault((hit.file, hit.where), []).append(f"{hit.found} → {hit.replacement}")
        after[(hit.file, hit.where)] = hit.proposed_line.strip()
    for (file, where), changes in rows.items():
        table.add_row(file, where, "\n".join(dict.fromkeys(changes)), after[(file, where)])
    return table
