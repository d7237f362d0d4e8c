"""`flag` and `unflag`: the persistent flags of `pruning-log.md`."""

from __future__ import annotations

from prune_memory.cli.common import JsonOpt, NowOpt, ProjectOpt, app, parse_now
from prune_memory.cli.engine import FileArg, MemoryDirOpt, ReasonOpt, locate_entry, render_result


@app.command()
def flag(file: FileArg, *, reason: ReasonOpt, memory_dir: MemoryDirOpt = None,
         project: ProjectOpt = None, json: JsonOpt = False, now: NowOpt = None) -> None:
    """Flag FILE for a person: every pass keeps it flagged, and applies nothing to it, until
    someone runs `unflag`.

    Example: prune-memory flag project_vendor_contacts.md --reason "holds phone numbers"
    """
    from prune_memory.engine.flag import flag as flag_entry

    root, name = locate_entry(file, memory_dir, project)
    render_result(flag_entry(root, name, reason, now=parse_now(now)), json)


@app.command()
def unflag(file: FileArg, *, reason: ReasonOpt, memory_dir: MemoryDirOpt = None,
           project: ProjectOpt = None, json: JsonOpt = False, now: NowOpt = None) -> None:
    """Clear the flag of FILE (a pass flagged it, or someone did); the reason is logged.

    Example: prune-memory unflag project_deploy.md --reason "token rotated and removed"
    """
    from prune_memory.engine.flag import unflag as unflag_entry

    root, name = locate_entry(file, memory_dir, project)
    render_result(unflag_entry(root, name, reason, now=parse_now(now)), json)
