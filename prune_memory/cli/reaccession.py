"""`reaccession`: bring back part of a withdrawn memory as a new memory."""

from __future__ import annotations

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
    say,
    snapshot_dir_path,
)
from prune_memory.cli.targets import resolve_memory_dir
from prune_memory.cli.write_commands import ReasonOpt, SnapshotDirOpt, render_result, warn_all
from prune_memory.errors import BadInputError

RegisterIdArg = Annotated[str, typer.Argument(help="Register id of the withdrawal, "
                                                   "YYYY-MM-DD-NN.")]
LinesOpt = Annotated[str | None, typer.Option(
    "--lines", help="Which lines of the withdrawn body to bring back: 4 or 4-6 (see --show).")]
FileOpt = Annotated[str | None, typer.Option("--file", help="Name of the new memory file.")]
DescriptionOpt = Annotated[str, typer.Option(
    "--description", help="Its one-line description (default: the lines themselves).")]
ShowOpt = Annotated[bool, typer.Option(
    "--show", help="Print the withdrawn body with line numbers; change nothing.")]


@app.command()
def reaccession(register_id: RegisterIdArg, memory_dir: MemoryDirArg = None, *,
                lines: LinesOpt = None, file: FileOpt = None, description: DescriptionOpt = "",
                reason: ReasonOpt = "", show: ShowOpt = False, project: ProjectOpt = None,
                dir_opt: MemoryDirOpt = None, snapshot_dir: SnapshotDirOpt = None,
                json: JsonOpt = False, now: NowOpt = None) -> None:
    """Bring back part of a withdrawn memory — one fact — as a new memory, logged.

    The lines are copied from the tombstone into a new topic file with its own index line;
    a change row names the register id they came from, and the tombstone stays as it was.
    Lines holding a secret are refused. Like a withdrawal, it is its own pass, which
    `restore --pass` undoes.

    Example: prune-memory reaccession 2026-11-29-03 --lines 4 --file project_cache_ttl.md
    --reason "the TTL still holds"
    """
    from prune_memory.engine.reaccession import reaccession, request, withdrawn_body
    from prune_memory.procedure.run_pass import step_pass

    root = resolve_memory_dir(memory_dir, project, dir_opt)
    withdrawn = withdrawn_body(root, register_id)
    if show:
        _show(register_id, withdrawn.lines, json)
        return
    if lines is None or file is None:
        raise BadInputError("give --lines and --file (use --show to see the line numbers)")
    req = request(root, withdrawn, lines, file=file, description=description, reason=reason)
    when = parse_now(now)
    done, pass_id = step_pass(root, when, f"reaccession {register_id}",
                              lambda snap: reaccession(root, req, snapshot=snap, now=when),
                              snapshot_dir=snapshot_dir_path(snapshot_dir), audited=None,
                              notes=warn_all)
    render_result(done, json)
    if not json:
        say(f"undo this pass: prune-memory restore --pass {pass_id} --memory-dir {root}")


def _show(register_id: str, lines: tuple[str, ...], as_json: bool) -> None:
    from prune_memory.secrets.mask import mask_text

    shown = [mask_text(line) for line in lines]
    if as_json:
        emit_json({"register_id": register_id, "lines": shown}, "reaccession-lines")
        return
    width = len(str(len(shown)))
    for number, line in enumerate(shown, start=1):
        say(f"{number:>{width}}  {line}")
