"""Staleness commands: `sweep`, the read-only check after a rename."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from prune_memory.cli.common import (
    JsonOpt,
    MemoryDirArg,
    MemoryDirOpt,
    ProjectOpt,
    app,
    console,
    emit_json,
    report_load_errors,
    resolve_memory_dir,
)
from prune_memory.errors import ExitCode
from prune_memory.stages.sweep import SweepReport, parse_rename, sweep
from prune_memory.store.loader import load_memory_dir

RenameOpt = Annotated[
    list[str],
    typer.Option("--rename", metavar="OLD=NEW", show_default=False,
                 help="A name or path that changed. Repeat for several."),
]
IgnoreCaseOpt = Annotated[
    bool, typer.Option("--ignore-case", "-i", help="Match OLD in any letter case.")
]


@app.command("sweep")
def sweep_command(memory_dir: MemoryDirArg = None, *, rename: RenameOpt,
                  project: ProjectOpt = None, dir_opt: MemoryDirOpt = None,
                  ignore_case: IgnoreCaseOpt = False, json: JsonOpt = False) -> None:
    """After a rename: list every memory and index line that still says OLD, with the fix.

    Matches whole words, OLD inside paths, and OLD with dashes, underscores or dots swapped.
    Changes nothing; exit 1 when anything is found.

    Example: prune-memory sweep --rename pebble=cairn --rename api/auth.py=api/auth/session.py
    """
    memdir = load_memory_dir(resolve_memory_dir(memory_dir, project, dir_opt))
    report = sweep(memdir, [parse_rename(r) for r in rename], ignore_case=ignore_case)
    if json:
        emit_json({"memory_dir": str(memdir.root), **report.to_json()})
    else:
        console().print(_table(report))
    report_load_errors(memdir.errors)
    if report.hits:
        raise typer.Exit(ExitCode.FINDINGS)


def _table(report: SweepReport) -> Table | str:
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
