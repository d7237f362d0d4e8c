"""Read-only views: inventory, scan, where, status."""

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
    say,
    show,
)
from prune_memory.cli.targets import resolve_memory_dir
from prune_memory.errors import ExitCode


@app.command()
def inventory(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
              dir_opt: MemoryDirOpt = None,
              json: JsonOpt = False, now: NowOpt = None) -> None:
    """Step 1: list every memory with its class, age, size and access frequency.

    Example: prune-memory inventory ~/.claude/projects/-home-me-app/memory --json
    """
    from prune_memory.claude.hooks.recall import measured_reads
    from prune_memory.procedure.inventory import take_inventory
    from prune_memory.report import views
    from prune_memory.store.loader import load_memory_dir

    memdir = load_memory_dir(resolve_memory_dir(memory_dir, project, dir_opt))
    moment = parse_now(now)
    inv = take_inventory(memdir, moment, reads=measured_reads(memdir.root, moment))
    if json:
        emit_json(inv.to_json(), "inventory")
    else:
        show(views.inventory_view(inv))
    report_load_errors(memdir.errors)


@app.command()
def scan(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
         dir_opt: MemoryDirOpt = None,
         json: JsonOpt = False) -> None:
    """Step 9: dangling and degraded index links, orphans, broken [[name]] links, tombstones.

    Exit 1 when anything is found. Example: prune-memory scan --project ~/code/app
    """
    from prune_memory.procedure.reachability import scan as scan_reachability
    from prune_memory.report import views
    from prune_memory.store.loader import load_memory_dir

    memdir = load_memory_dir(resolve_memory_dir(memory_dir, project, dir_opt))
    reach = scan_reachability(memdir, _register(memdir.root))
    if json:
        emit_json(reach.to_json(), "scan")
    else:
        show(views.scan_view(reach))
    report_load_errors(memdir.errors)
    if not reach.clean:
        raise typer.Exit(ExitCode.FINDINGS)


@app.command()
def where(path: Annotated[Path | None, typer.Argument(help="Project path (default: here).")] = None,
          *, json: JsonOpt = False,
          bare: Annotated[bool, typer.Option(
              "--path", help="Print only the memory directory's path (for scripts: "
              "cd \"$(prune-memory where --path)\").")] = False) -> None:
    """Show the memory directory Claude Code uses for a project.

    Example: prune-memory where ~/code/my.app

    Example: ls "$(prune-memory where --path)"
    """
    from prune_memory.claude.locate import locate

    loc = locate(path or Path.cwd())
    if bare:
        say(str(loc.memory_dir))
    elif json:
        emit_json({"project": str(loc.project), "git_root": str(loc.git_root or ""),
                   "name": loc.name, "memory_dir": str(loc.memory_dir), "source": loc.source,
                   "exists": loc.exists}, "where")
    else:
        import sys

        from prune_memory.report import views

        say("\n".join(views.where_lines(loc, aligned=sys.stdout.isatty())))


@app.command()
def status(projects_dir: Annotated[Path | None, typer.Argument(
        help="Claude Code's projects folder (default: ~/.claude/projects).")] = None,
        *, json: JsonOpt = False) -> None:
    """One row per project memory directory: size, cap usage, reachability, last audit.

    Example: prune-memory status ~/.claude/projects
    """
    from prune_memory.claude.locate import projects_dir as projects_folder
    from prune_memory.procedure.status import collect_status
    from prune_memory.report import views

    rows = collect_status(projects_dir or projects_folder())
    if json:
        emit_json({"projects": [r.to_json() for r in rows]}, "status")
    else:
        show(views.status_view(rows))


@app.command()
def due(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
        dir_opt: MemoryDirOpt = None,
        sessions: Annotated[int, typer.Option(help="Sessions that make an audit due.")] = 10,
        days: Annotated[int, typer.Option(help="Days that make an audit due.")] = 30,
        json: JsonOpt = False, now: NowOpt = None) -> None:
    """Is a pruning pass due? Exit 1 when enough sessions or days passed since the last audit.

    Example: prune-memory due --project . --sessions 15
    """
    from prune_memory.procedure.due import check_due

    result = check_due(resolve_memory_dir(memory_dir, project, dir_opt), parse_now(now),
                       sessions=sessions, days=days)
    if json:
        emit_json(result.to_json(), "due")
    else:
        say(("Due: " if result.due else "Not due: ") + result.why)  # one line: no rich
    if result.due:
        raise typer.Exit(ExitCode.FINDINGS)


def _register(root: Path) -> list[tuple[str, str]]:
    from prune_memory.store.pruninglog import read_log

    return [(row.register_id, row.tombstone) for row in read_log(root).rows]

