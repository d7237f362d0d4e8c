"""Read-only views: inventory, scan, where, status."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from prune_memory.cli.common import (
    JsonOpt,
    MemoryDirArg,
    NowOpt,
    ProjectOpt,
    app,
    console,
    emit_json,
    parse_now,
    report_load_errors,
    resolve_memory_dir,
)
from prune_memory.errors import ExitCode
from prune_memory.report import views
from prune_memory.stages.access import Access
from prune_memory.stages.inventory import take_inventory
from prune_memory.stages.reachability import scan as scan_reachability
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.locate import locate


@app.command()
def inventory(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
              json: JsonOpt = False, now: NowOpt = None) -> None:
    """Step 1: list every memory with its class, age, size and access frequency.

    Example: prune-memory inventory ~/.claude/projects/-home-me-app/memory --json
    """
    memdir = load_memory_dir(resolve_memory_dir(memory_dir, project))
    inv = take_inventory(memdir, parse_now(now), reads=_measured_reads(memdir.root))
    if json:
        emit_json(inv.to_json())
    else:
        console().print(views.inventory_view(inv))
    report_load_errors(memdir.errors)


@app.command()
def scan(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
         json: JsonOpt = False) -> None:
    """Step 9: dangling and degraded index links, orphans, broken [[name]] links, tombstones.

    Exit 1 when anything is found. Example: prune-memory scan --project ~/code/app
    """
    memdir = load_memory_dir(resolve_memory_dir(memory_dir, project))
    reach = scan_reachability(memdir, _register(memdir.root))
    if json:
        emit_json(reach.to_json())
    else:
        console().print(views.scan_view(reach))
    report_load_errors(memdir.errors)
    if not reach.clean:
        raise typer.Exit(ExitCode.FINDINGS)


@app.command()
def where(path: Annotated[Path | None, typer.Argument(help="Project path (default: here).")] = None,
          *, json: JsonOpt = False) -> None:
    """Show the memory directory Claude Code uses for a project.

    Example: prune-memory where ~/code/my.app
    """
    loc = locate(path or Path.cwd())
    if json:
        emit_json({"project": str(loc.project), "git_root": str(loc.git_root or ""),
                   "name": loc.name, "memory_dir": str(loc.memory_dir), "source": loc.source,
                   "exists": loc.exists})
    else:
        console().print(views.where_view(loc))


def _register(root: Path) -> list[tuple[str, str]]:
    return []


def _measured_reads(root: Path) -> dict[str, Access]:
    return {}
