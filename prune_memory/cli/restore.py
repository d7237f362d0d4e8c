"""`restore`: bring back one register id, list what can be restored, or undo a whole pass."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prune_memory.cli.common import (
    JsonOpt,
    MemoryDirOpt,
    NowOpt,
    ProjectOpt,
    app,
    console,
    emit_json,
    parse_now,
    resolve_memory_dir,
    warn,
)
from prune_memory.cli.engine import render_result
from prune_memory.errors import BadInputError, ExitCode

if TYPE_CHECKING:
    from prune_memory.engine.undo import Restorable, Undone

RegisterIdArg = Annotated[str | None, typer.Argument(
    help="Register id, YYYY-MM-DD-NN (a withdrawal or an update).", show_default=False)]
LegacyDirArg = Annotated[Path | None, typer.Argument(hidden=True, show_default=False)]
ListOpt = Annotated[bool, typer.Option("--list", help="Show what can be restored: register "
                                                       "ids not restored yet, and passes.")]
PassOpt = Annotated[str | None, typer.Option(
    "--pass", metavar="YYYY-MM-DD|last", help="Undo every change of that day's pass(es) — or "
    "of the last one — back to the bytes the pass started from.")]


@app.command()
def restore(register_id: RegisterIdArg = None, legacy_dir: LegacyDirArg = None, *,
            dir_opt: MemoryDirOpt = None, project: ProjectOpt = None,
            list_: ListOpt = False, pass_: PassOpt = None,
            reason: Annotated[str, typer.Option(help="Why it comes back (logged).")] = "",
            json: JsonOpt = False, now: NowOpt = None) -> None:
    """Bring back a withdrawn or updated memory byte for byte, or undo a whole pass.

    A restore is the inverse of the whole action: the file, its index line, the SUPERSEDED
    note the withdrawal wrote, and the links to it that it unlinked in kept memories.

    Example: prune-memory restore 2026-11-29-03 --project ~/code/app

    Example: prune-memory restore --pass 2026-11-29 --project ~/code/app
    """
    from prune_memory.engine import apply
    from prune_memory.engine.undo import restorable, undo_passes

    if legacy_dir is not None:
        warn("prune-memory: give the directory as --memory-dir DIR (a second argument still "
             "works, but every command names it the same way now)")
    root = resolve_memory_dir(None, project, dir_opt or legacy_dir)
    chosen = [x for x in (register_id, pass_, list_ or None) if x is not None]
    if len(chosen) != 1:
        raise BadInputError("give one of: a REGISTER_ID, --pass YYYY-MM-DD|last, or --list")
    if list_:
        _show(restorable(root), json)
    elif pass_ is not None:
        _undone(undo_passes(root, pass_, now=parse_now(now)), json)
    else:
        render_result(apply.restore(root, str(register_id), now=parse_now(now),
                                    reason=reason), json)


def _show(found: Restorable, as_json: bool) -> None:
    if as_json:
        emit_json(found.to_json())
        return
    out = console(wrap=True)
    if not found.rows and not found.passes:
        out.print("Nothing to restore: no withdrawal or update is waiting, no pass to undo.")
    for row in found.rows:
        out.print(f"{row.register_id}  {row.entry}  ({row.reason})")
    for record in found.passes:
        ids = ", ".join(record.register_ids) or "no register ids"
        out.print(f"pass {record.date} ({record.stamp}): {len(record.after)} file(s) changed, "
                  f"{ids} — undo with: prune-memory restore --pass {record.date}")


def _undone(results: list[Undone], as_json: bool) -> None:
    if as_json:
        emit_json({"schema": "prune-memory/undo@1", "passes": [u.to_json() for u in results]})
    out = console(wrap=True)
    for done in results:
        if as_json:
            break
        if done.exact:
            out.print(f"pass {done.date} ({done.stamp}) undone: {len(done.files)} file(s) back "
                      f"to the bytes the pass started from; what it wrote is kept in "
                      f"{done.archive}")
            continue
        out.print(f"pass {done.date} ({done.stamp}): changed since ({', '.join(done.conflicts)})"
                  f", so each register id was restored on its own")
        for item in done.applied:
            out.print(f"  restored {item.register_id} {item.file}: {item.message}")
        for skip in done.skipped:
            out.print(f"  not restored {skip.file}: {skip.reason}")
    if any(not d.exact for d in results):
        raise typer.Exit(ExitCode.FINDINGS)
