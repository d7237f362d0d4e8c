"""From plan to decisions: `--yes`, or the review — offered for resuming, saved when it
stops, and confirmed once (`Apply 7 withdrawals, 2 updates…? [y/N]`) before anything is
written."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import typer
from rich.console import Console

from prune_memory.analysis.inoculation_check import inoculation_problem
from prune_memory.cli import review_screen as screen
from prune_memory.cli.common import ask, console
from prune_memory.cli.review_ui import Review, run_review
from prune_memory.engine.results import Skipped
from prune_memory.errors import ExitCode
from prune_memory.model import JSON
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.review import Choice, ReviewSession, Verdict, auto_verdicts, tally
from prune_memory.procedure.review_state import (
    drop_session,
    load_session,
    remember_keeps,
    save_session,
)
from prune_memory.report.wrapping import labelled, wrap
from prune_memory.store.loader import load_memory_dir

INTERRUPTED = 130  # Ctrl-C, as shells report it


@dataclass(frozen=True)
class Decided:
    verdicts: list[Verdict]
    repairs: list[JSON]
    keeps: list[Verdict] = field(default_factory=list)
    refused: list[Skipped] = field(default_factory=list)


def auto_decide(plan: Plan, kept: Mapping[str, str],
                claude_md: Sequence[tuple[str, str]]) -> Decided:
    """`--yes`: every withdrawal and inoculation, but no SUPERSEDED note that fails its check."""
    verdicts, refused = [], []
    for verdict in auto_verdicts(plan, kept)[0]:
        problem = inoculation_problem(verdict.inoculation, claude_md) \
            if verdict.inoculation is not None and verdict.choice is not Choice.WITHDRAW \
            else None
        if problem is None:
            verdicts.append(verdict)
        else:
            refused.append(Skipped(verdict.file, f"not inoculated: {problem}",
                                   int(ExitCode.FINDINGS)))
    return Decided(verdicts, list(plan.reachability.get("repairs", [])), refused=refused)


def review_and_confirm(root: Path, plan: Plan, kept: Mapping[str, str],
                       claude_md: Sequence[tuple[str, str]], now: dt.datetime) -> Decided:
    """Review, then one confirmation; a review that stops is saved and the command ends."""
    out = console(wrap=True)
    session = _session(root, plan, kept, out)
    memdir = load_memory_dir(root)
    review = Review(session=session, texts={e.file: e.text for e in memdir.entries},
                    bodies={e.file: e.body for e in memdir.entries}, console=out,
                    draft=_fallback_draft,
                    check=lambda ino: inoculation_problem(ino, claude_md))
    for line in screen.legend(len(session.items), out.width, _kept_here(plan, kept)):
        out.print(line, soft_wrap=True)
    try:
        run_review(review)
        return _confirm(root, plan, session, out, now)
    except (KeyboardInterrupt, EOFError) as stop:
        _saved(root, session, out, now, "Stopped.")
        raise typer.Exit(INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0) from None


def _session(root: Path, plan: Plan, kept: Mapping[str, str], out: Console) -> ReviewSession:
    saved = load_session(root)
    if saved is None:
        return ReviewSession.of(plan, kept)
    resumed = ReviewSession.resume(plan, saved.verdicts, kept)
    counts = ", ".join(f"{n} {choice}" for choice, n in sorted(_choices(resumed).items()))
    question = (f"You stopped a review on {saved.saved_at[:10]} with {len(resumed.verdicts)} "
                f"decision(s) still current ({counts or 'none'}). Resume it? [Y/n] ")
    try:
        answer = ask(out, question).strip().lower()
    except (KeyboardInterrupt, EOFError):
        raise typer.Exit(INTERRUPTED) from None
    if answer in ("", "y", "yes"):
        return resumed
    drop_session(root)
    return ReviewSession.of(plan, kept)


def _choices(session: ReviewSession) -> dict[str, int]:
    found: dict[str, int] = {}
    for verdict in session.verdicts.values():
        found[verdict.choice.value] = found.get(verdict.choice.value, 0) + 1
    return found


def _confirm(root: Path, plan: Plan, session: ReviewSession, out: Console,
             now: dt.datetime) -> Decided:
    verdicts = session.to_apply()
    repairs = list(plan.reachability.get("repairs", []))
    if not (verdicts or repairs):
        remember_keeps(root, session.kept(), now)
        _done_with(root, session, now)
        out.print("Nothing to apply.")
        raise typer.Exit(ExitCode.OK)
    for line in _changes(verdicts, repairs, out.width):
        out.print(line, soft_wrap=True)
    answer = ask(out, f"Apply {describe(verdicts, len(repairs))}? [y/N] ").strip().lower()
    if not answer.startswith("y"):
        _saved(root, session, out, now, "Nothing applied.")
        raise typer.Exit(ExitCode.OK)
    return Decided(verdicts, repairs, keeps=session.kept())


def _done_with(root: Path, session: ReviewSession, now: dt.datetime) -> None:
    if session.finished:
        drop_session(root)
    else:
        save_session(root, session.decided(), now)


def _saved(root: Path, session: ReviewSession, out: Console, now: dt.datetime,
           what: str) -> None:
    decided = session.decided()
    if not decided:
        out.print(f"{what} No decisions to save.")
        return
    try:
        path = save_session(root, decided, now)
    except OSError as err:
        out.print(f"{what} Your decisions could not be saved ({err.strerror or err}).")
        return
    for line in wrap(f"{what} Your {len(decided)} decision(s) are saved in {path}; "
                     "the next `prune-memory run` offers to resume them.", out.width):
        out.print(line, soft_wrap=True)


def describe(verdicts: Sequence[Verdict], repairs: int) -> str:
    """`7 withdrawals, 2 updates, 1 inoculation and 2 index repairs`."""
    counts = tally(verdicts)
    parts = [_n(counts[kind], kind) for kind in ("withdrawal", "update", "inoculation",
                                                 "protection") if counts[kind]]
    if repairs:
        parts.append(_n(repairs, "index repair"))
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _n(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def _changes(verdicts: Sequence[Verdict], repairs: Sequence[JSON], width: int) -> list[str]:
    items = [(v.choice.value, v.file) for v in verdicts]
    items += [("repair", f"{r.get('kind')}: {r.get('why', '')}") for r in repairs]
    return ["To apply:", *labelled(items, width)]


def _kept_here(plan: Plan, kept: Mapping[str, str]) -> int:
    return sum(1 for e in plan.entries
               if e.action.value != "keep" and kept.get(e.file) == e.sha256)


def _fallback_draft(entry: PlanEntry) -> Inoculation:
    """Fields for a proposal the plan drafted none for: distinct prompts, never one sentence
    five times, so the reviewer sees what each field is for."""
    return Inoculation(pattern=f"the conclusion {entry.file} recorded",
                       evidence=entry.reason or "see the tombstone",
                       abandonment_reason="no longer holds (say why)",
                       do_not_rederive=f"the notes that led to {entry.file}")
