"""`restore`: bring back one register id, list what can be restored, or undo a whole pass."""

from __future__ import annotations

import re
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
)
from prune_memory.cli.targets import resolve_memory_dir
from prune_memory.cli.write_commands import render_result
from prune_memory.errors import BadInputError, ExitCode

if TYPE_CHECKING:
    from prune_memory.engine.undo import Restorable, Undone

RegisterIdArg = Annotated[str | None, typer.Argument(
    help="Register id, YYYY-MM-DD-NN (a withdrawal or an update).", show_default=False)]
DirArg = Annotated[Path | None, typer.Argument(
    metavar="[MEMORY_DIR]", help="Memory directory (or --memory-dir DIR). With --pass or "
    "--list, the only argument.", show_default=False)]
ListOpt = Annotated[bool, typer.Option("--list", help="Show what can be restored: register "
                                                       "ids not restored yet, and each pass "
                                                       "with its id.")]
PassOpt = Annotated[str | None, typer.Option(
    "--pass", metavar="PASS_ID|last|YYYY-MM-DD", help="Undo one pass back to the bytes and "
    "times it started from: its id (the summary prints it; `--list` shows them), `last`, "
    "or a day that had only one pass.")]
_REGISTER_ID = re.compile(r"\d{4}-\d{2}-\d{2}-\d+")


@app.command()
def restore(register_id: RegisterIdArg = None, directory: DirArg = None, *,
            dir_opt: MemoryDirOpt = None, project: ProjectOpt = None,
            list_: ListOpt = False, pass_: PassOpt = None,
            reason: Annotated[str, typer.Option(help="Why it comes back (logged).")] = "",
            json: JsonOpt = False, now: NowOpt = None) -> None:
    """Bring back a withdrawn or updated memory byte for byte, or undo one pass.

    A restore is the inverse of the whole action: the file, its index line, the SUPERSEDED
    note the withdrawal wrote, and the links to it that it unlinked in kept memories. An
    undone pass names every later pass that changed the same files: those stay applied.

    Example: prune-memory restore 2026-11-29-03 --project ~/code/app

    Example: prune-memory restore --pass 20261129T120000Z --project ~/code/app

    Example: prune-memory restore --pass last ~/.claude/projects/-home-me-app/memory
    """
    from prune_memory.engine import restore
    from prune_memory.engine.undo import restorable, undo_passes

    first = register_id
    if (pass_ is not None or list_) and first is not None and directory is None \
            and not _REGISTER_ID.fullmatch(first):
        register_id, directory = None, Path(first)  # `restore --pass X DIR`, as `run DIR`
    if directory is not None and dir_opt is not None:
        raise BadInputError("name the memory directory once: MEMORY_DIR or --memory-dir")
    root = resolve_memory_dir(directory, project, dir_opt)
    chosen = [x for x in (register_id, pass_, list_ or None) if x is not None]
    if len(chosen) != 1:
        raise BadInputError("give one of: a REGISTER_ID, --pass PASS_ID|last, or --list")
    if list_:
        _show(restorable(root), json, root)
    elif pass_ is not None:
        _undone(root, undo_passes(root, pass_, now=parse_now(now)), json)
    else:
        render_result(restore.restore(root, str(register_id), now=parse_now(now),
                                    reason=reason), json)


def _show(found: Restorable, as_json: bool, root: Path) -> None:
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
        out.print(f"pass {record.stamp}  {record.command or 'a pass'} on {record.date}: "
                  f"{len(record.after)} file(s) changed, {ids} — undo with: prune-memory "
                  f"restore --pass {record.stamp} --memory-dir {root}", soft_wrap=True)


def _undone(root: Path, results: list[Undone], as_json: bool) -> None:
    from prune_memory.procedure.review_state import forget_keeps

    forgotten = {done.stamp: forget_keeps(root, done.stamp) for done in results
                 if done.exact or done.applied}
    if as_json:
        emit_json({"schema": "prune-memory/undo@1",
                   "passes": [{**u.to_json(), "keeps_forgotten": forgotten.get(u.stamp, [])}
                              for u in results]})
    else:
        out = console(wrap=True)
        for done in results:
            for line in _undone_lines(done, forgotten.get(done.stamp, [])):
                out.print(line, soft_wrap=True)
    if any(not d.exact for d in results):
        raise typer.Exit(ExitCode.FINDINGS)


def _undone_lines(done: Undone, forgotten: list[str]) -> list[str]:
    if done.exact:
        lines = [f"pass {done.stamp} undone: {len(done.files)} file(s) back to the bytes and "
                 f"times the pass started from; what it wrote is kept in {done.archive}"]
    else:
        lines = [f"pass {done.stamp}: changed since ({', '.join(done.conflicts)}), so each "
                 "register id was restored on its own"]
        lines += [f"  restored {item.register_id} {item.file}: {item.message}"
                  for item in done.applied]
        lines += [f"  not restored {skip.file}: {skip.reason}" for skip in done.skipped]
    lines += [f"  still applied: pass {later.stamp} ({later.command or 'a later pass'}) "
              f"changed {', '.join(later.files)} after it; undo it on its own with "
              f"`restore --pass {later.stamp}`" for later in done.later]
    if forgotten:
        lines.append(f"  {len(forgotten)} keep decision(s) of this pass forgotten, so the "
                     f"next run asks about them again: {', '.join(forgotten)}")
    return lines
