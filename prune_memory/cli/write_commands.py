"""The commands that make one change: snapshot, withdraw, inoculate, protect, unprotect,
flag, unflag, recover.

Each command calls one core function and renders its result; refusals surface as exit 4
through the boundary. Withdraw and inoculate are passes of their own
(`procedure/run_pass.py: step_pass`): a verified snapshot first, then the change, its audit
and its record, which `restore --pass` undoes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from prune_memory.cli.common import (
    JsonOpt,
    MemoryDirArg,
    NowOpt,
    ProjectOpt,
    RepoOpt,
    app,
    console,
    emit_json,
    parse_now,
    snapshot_dir_path,
    warn,
)
from prune_memory.cli.targets import require_memory_dir, resolve_memory_dir
from prune_memory.errors import BadInputError, RefusedError

if TYPE_CHECKING:
    from prune_memory.engine.results import ApplyResult
    from prune_memory.plan import Inoculation

FileArg = Annotated[str, typer.Argument(help="The memory file (a path, or a name inside "
                                              "--memory-dir / --project).", show_default=False)]
MemoryDirOpt = Annotated[Path | None, typer.Option(
    "--memory-dir", help="Memory directory FILE is in (default: FILE's folder, else the git "
                         "root's memory directory).")]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why, in a sentence; it is logged.")]
SnapshotDirOpt = Annotated[str | None, typer.Option(
    "--snapshot-dir", help="Folder for snapshots (outside the memory directory). Default: "
                           "$XDG_STATE_HOME/prune-memory/snapshots/<dir-key>/.")]
RuleOpt = Annotated[str, typer.Option("--rule", help="Decision-tree rule id, e.g. "
                                                     "4-stale-subject-gone.")]
ExpectOpt = Annotated[str | None, typer.Option(
    "--expect-sha256", help="Refuse (exit 4) unless FILE still has this sha256.")]


@app.command()
def snapshot(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
             dir_opt: MemoryDirOpt = None,
             snapshot_dir: SnapshotDirOpt = None, json: JsonOpt = False,
             now: NowOpt = None) -> None:
    """Copy the memory directory outside itself and verify the copy (MANIFEST.sha256).

    Example: prune-memory snapshot ~/.claude/projects/-home-me-app/memory
    """
    from prune_memory.store.snapshot import take_snapshot

    root = resolve_memory_dir(memory_dir, project, dir_opt)
    snap = take_snapshot(root, parse_now(now), snapshot_dir_path(snapshot_dir))
    if json:
        emit_json(snap.to_json(), "snapshot")
        return
    console().print(f"snapshot of {snap.files} files verified: {snap.manifest}")
    for link in snap.links:
        warn(f"symlink copied as a link, not followed: {link}")


@app.command()
def withdraw(file: FileArg, *, reason: ReasonOpt, rule: RuleOpt = "manual",
             memory_dir: MemoryDirOpt = None, project: ProjectOpt = None,
             snapshot_dir: SnapshotDirOpt = None, expect_sha256: ExpectOpt = None,
             json: JsonOpt = False, now: NowOpt = None) -> None:
    """Move one memory into deaccessioned/ (tombstone), drop its index line, log it.

    Example: prune-memory withdraw project_old_ci.md --memory-dir ./memory --reason "CI moved"
    """
    from prune_memory.engine import withdraw as withdrawing
    from prune_memory.engine.results import WithdrawRequest
    from prune_memory.procedure.run_pass import step_pass

    root, name = _locate(file, memory_dir, project)
    when = parse_now(now)
    request = WithdrawRequest(name, reason, rule, expected_sha256=expect_sha256)
    result, pass_id = step_pass(
        root, when, f"withdraw {name}",
        lambda snap: withdrawing.withdraw(root, request, snapshot=snap, now=when),
        snapshot_dir=snapshot_dir_path(snapshot_dir), notes=warn_all)
    render_result(result, json)
    _undo_hint(root, pass_id, json)


@app.command()
def inoculate(file: FileArg, *,
              pattern: Annotated[str, typer.Option(help="What was tried: the conclusion.")],
              evidence: Annotated[str, typer.Option(help="What happened, concretely.")],
              reason: Annotated[str, typer.Option(help="Why it was abandoned.")],
              do_not_rederive: Annotated[str, typer.Option(
                  "--do-not-rederive", help="Signals that led there before.")],
              period: Annotated[str | None, typer.Option(help="'<start> to <end>'.")] = None,
              slug: Annotated[str | None, typer.Option(help="Name part of the file.")] = None,
              withdraw: Annotated[bool, typer.Option(
                  "--withdraw", help="Also tombstone FILE (one register row names both).")]
              = False,
              rule: RuleOpt = "5i-abandoned-strategy", memory_dir: MemoryDirOpt = None,
              project: ProjectOpt = None, repo: RepoOpt = None,
              snapshot_dir: SnapshotDirOpt = None,
              expect_sha256: ExpectOpt = None, json: JsonOpt = False,
              now: NowOpt = None) -> None:
    """Write a SUPERSEDED counter-memory (and its index line) so FILE's pattern is not re-derived.

    Example: prune-memory inoculate feedback_retry.md --pattern "retry forever" --evidence
    "3 outages" --reason "hid real failures" --do-not-rederive "timeouts in CI" --withdraw
    """
    from prune_memory.claude.locate import git_root
    from prune_memory.engine import inoculate as inoculating
    from prune_memory.engine.results import WithdrawRequest
    from prune_memory.plan import Inoculation
    from prune_memory.procedure.run_pass import step_pass

    root, name = _locate(file, memory_dir, project)
    when = parse_now(now)
    ino = Inoculation(pattern=pattern, evidence=evidence, abandonment_reason=reason,
                      do_not_rederive=do_not_rederive, period=period or "", slug=slug)
    _check_note(ino, repo or git_root(project or Path.cwd()))
    request = WithdrawRequest(name, reason, rule, expected_sha256=expect_sha256) \
        if withdraw else None
    result, pass_id = step_pass(
        root, when, f"inoculate {name}",
        lambda snap: inoculating.inoculate(root, name, ino, snapshot=snap, now=when,
                                           withdraw=request, expected_sha256=expect_sha256),
        snapshot_dir=snapshot_dir_path(snapshot_dir), opens=withdraw, notes=warn_all)
    render_result(result, json)
    _undo_hint(root, pass_id, json)


@app.command()
def protect(file: FileArg, *, reason: ReasonOpt, memory_dir: MemoryDirOpt = None,
            project: ProjectOpt = None, json: JsonOpt = False, now: NowOpt = None) -> None:
    """Put FILE on the protected list of pruning-log.md: no command withdraws it.

    Example: prune-memory protect decision_flat_layout.md --reason "rationale is not in git"
    """
    from prune_memory.engine import protect

    root, name = _locate(file, memory_dir, project)
    render_result(protect.protect(root, name, reason, now=parse_now(now)), json)


@app.command()
def unprotect(file: FileArg, *, reason: ReasonOpt, memory_dir: MemoryDirOpt = None,
              project: ProjectOpt = None, json: JsonOpt = False, now: NowOpt = None) -> None:
    """Take FILE off the protected list; the change and its reason are logged.

    Example: prune-memory unprotect decision_flat_layout.md --reason "layout was replaced"
    """
    from prune_memory.engine import protect

    root, name = _locate(file, memory_dir, project)
    render_result(protect.unprotect(root, name, reason, now=parse_now(now)), json)


@app.command()
def recover(memory_dir: MemoryDirArg = None, *, project: ProjectOpt = None,
            dir_opt: MemoryDirOpt = None,
            json: JsonOpt = False) -> None:
    """Finish or roll back a step a crash interrupted; remove leftover temp files.

    Example: prune-memory recover ~/.claude/projects/-home-me-app/memory
    """
    from prune_memory.engine import session

    root = resolve_memory_dir(memory_dir, project, dir_opt)
    done, notes = session.recover(root)
    if json:
        emit_json({"steps": [vars(s) for s in done.steps],
                   "temps_removed": list(done.temps_removed), "notes": notes}, "recover")
        return
    for note in notes:
        warn(note)
    out = console()
    for step in done.steps:
        out.print(f"{step.op} {step.file}: {step.status}. {step.message}".strip())
    for temp in done.temps_removed:
        out.print(f"removed leftover temp file {temp}")
    if done.clean:
        out.print("nothing to recover")


def _check_note(ino: Inoculation, repo: Path | None) -> None:
    """No SUPERSEDED note of pasted-together fields, none that contradicts CLAUDE.md."""
    from prune_memory.analysis.inoculation_check import claude_md_conflict, field_problem
    from prune_memory.analysis.instruction_files import read_claude_md

    if (problem := field_problem(ino)) is not None:
        raise BadInputError(problem)
    if (conflict := claude_md_conflict(ino, read_claude_md(repo, Path.home()))) is not None:
        raise RefusedError(conflict)


def _locate(file: str, memory_dir: Path | None, project: Path | None) -> tuple[Path, str]:
    """(memory directory, file name) from FILE and the optional directory options."""
    path = Path(file)
    if memory_dir is not None or project is not None:
        return resolve_memory_dir(None, project, memory_dir), path.name
    if path.parent != Path(".") or path.exists():
        folder = path.parent if path.parent != Path("") else Path(".")
        return require_memory_dir(folder), path.name
    return resolve_memory_dir(None, None), file


def warn_all(notes: list[str]) -> None:
    for note in notes:
        warn(note)


def _undo_hint(root: Path, pass_id: str, as_json: bool) -> None:
    if pass_id and not as_json:
        console().print(f"undo this pass: prune-memory restore --pass {pass_id} "
                        f"--memory-dir {root}", soft_wrap=True)


def render_result(result: ApplyResult, as_json: bool) -> None:
    for note in result.warnings:
        warn(f"warning: {note}")
    for finding in result.findings:
        warn(f"finding: {finding.message}")
    if as_json:
        emit_json(result.to_json(), "change")
        return
    out = console()
    for done in result.applied:
        where = f" → {done.tombstone}" if done.tombstone and done.op == "withdraw" else ""
        rid = f" [{done.register_id}]" if done.register_id else ""
        out.print(f"{done.op} {done.file}{rid}{where}: {done.message}")
        if done.superseded and done.op == "withdraw":
            out.print(f"counter-memory {done.superseded} added to the index")


@app.command()
def flag(file: FileArg, *, reason: ReasonOpt, memory_dir: MemoryDirOpt = None,
         project: ProjectOpt = None, json: JsonOpt = False, now: NowOpt = None) -> None:
    """Flag FILE for a person: every pass keeps it flagged, and applies nothing to it, until
    someone runs `unflag`.

    Example: prune-memory flag project_vendor_contacts.md --reason "holds phone numbers"
    """
    from prune_memory.engine.flag import flag as flag_entry

    root, name = _locate(file, memory_dir, project)
    render_result(flag_entry(root, name, reason, now=parse_now(now)), json)


@app.command()
def unflag(file: FileArg, *, reason: ReasonOpt, memory_dir: MemoryDirOpt = None,
           project: ProjectOpt = None, json: JsonOpt = False, now: NowOpt = None) -> None:
    """Clear the flag of FILE (a pass flagged it, or someone did); the reason is logged.

    Example: prune-memory unflag project_deploy.md --reason "token rotated and removed"
    """
    from prune_memory.engine.flag import unflag as unflag_entry

    root, name = _locate(file, memory_dir, project)
    render_result(unflag_entry(root, name, reason, now=parse_now(now)), json)
