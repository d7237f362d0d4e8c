"""From plan to decisions: `--yes`, or the review — offered for resuming, saved when it
stops, and confirmed once (every change, every file it writes, the index's growth, then
`Apply 7 withdrawals, 2 updates…? [y,n,d,?]`) before anything is written."""

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
from prune_memory.engine.preview import Preview, preview
from prune_memory.engine.results import Skipped
from prune_memory.errors import ExitCode
from prune_memory.model import INDEX_FILE, JSON, TOMBSTONE_DIR, EntryKind, MemoryDir
from prune_memory.plan import Plan
from prune_memory.procedure.apply import as_changes
from prune_memory.procedure.review import (
    Choice,
    Proposal,
    ReviewSession,
    Verdict,
    auto_verdicts,
    tally,
)
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
    """`--yes`: every withdrawal and inoculation, but no SUPERSEDED note that fails its check;
    every index repair but the ones a person kept as they are."""
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
    repairs = [r for r in plan.reachability.get("repairs", [])
               if kept.get((p := Proposal(repair=r)).key) != p.sha256]
    return Decided(verdicts, repairs, refused=refused)


def review_and_confirm(root: Path, plan: Plan, kept: Mapping[str, str],
                       claude_md: Sequence[tuple[str, str]], now: dt.datetime) -> Decided:
    """Review, then one confirmation; a review that stops is saved and the command ends."""
    out = console(wrap=True)
    session = _session(root, plan, kept, out)
    memdir = load_memory_dir(root)
    review = Review(session=session, texts={e.file: e.text for e in memdir.entries},
                    bodies=_bodies(memdir), console=out,
                    check=lambda ino: inoculation_problem(ino, claude_md), plan=plan,
                    root=root, now=now, dates=_dates(memdir))
    for line in screen.legend(len(session.items), out.width, _kept_here(plan, kept)):
        out.print(line, soft_wrap=True)
    try:
        run_review(review)
        return _confirm(root, plan, session, review, now)
    except (KeyboardInterrupt, EOFError) as stop:
        out.print()  # the answer line was never ended: Ctrl-D and Ctrl-C echo no newline
        _saved(root, session, out, now, "Stopped.")
        raise typer.Exit(INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0) from None


def _bodies(memdir: MemoryDir) -> dict[str, str]:
    """What an update of each entry rewrites: a topic's body, or a fact's whole line."""
    lines = {f"{INDEX_FILE}#L{ln.number}": ln.text for ln in memdir.index.lines} \
        if memdir.index is not None else {}
    return {e.file: lines.get(e.file, e.body) if e.kind is EntryKind.INDEX_LINE else e.body
            for e in memdir.entries}


def _dates(memdir: MemoryDir) -> dict[str, str]:
    """When each memory was written, as a reviewer reads it: `2026-08-05 (modified:)`."""
    out: dict[str, str] = {}
    for entry in memdir.entries:
        when, source = entry.written_at
        if when is not None:
            out[entry.file] = f"{when.date().isoformat()} ({source})"
    return out


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


def _confirm(root: Path, plan: Plan, session: ReviewSession, review: Review,
             now: dt.datetime) -> Decided:
    """Every change and every file it touches, the index's growth near its cap, then one
    question: y applies, n saves the review, d shows the whole diff."""
    out = review.console
    verdicts, repairs = session.to_apply(), session.repairs()
    if not (verdicts or repairs):
        remember_keeps(root, session.kept(), now)
        _done_with(root, session, now)
        out.print("Nothing to apply.")
        raise typer.Exit(ExitCode.OK)
    shown = preview(root, now, as_changes(plan, verdicts), repairs)
    for line in confirm_lines(verdicts, repairs, shown, out.width):
        out.print(line, soft_wrap=True)
    while True:
        answer = ask(out, f"Apply {describe(verdicts, len(repairs))}? [y,n,d,?] ")
        key = answer.strip().lower()
        if key in ("y", "yes"):
            return Decided(verdicts, repairs, keeps=session.kept())
        if key in ("d", "diff"):
            review.show(screen.diff_lines(shown.diff, out.width, None))
        elif key in ("?", "help"):
            review.say("y applies every change listed, n applies nothing and saves the review "
                       "for the next run, d shows the whole diff of what y writes.")
        else:
            _saved(root, session, out, now, "Nothing applied.")
            raise typer.Exit(ExitCode.OK)


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


def confirm_lines(verdicts: Sequence[Verdict], repairs: Sequence[JSON], shown: Preview,
                  width: int) -> list[str]:
    """The confirmation: each change, every file the pass writes, and MEMORY.md's growth."""
    items = [(v.choice.value, v.file + _linked(shown.linked.get(v.file, ()))) for v in verdicts]
    items += [("repair", f"{r.get('kind')}: {r.get('why', '')}") for r in repairs]
    lines = ["To apply:", *labelled(items, width)]
    lines += wrap(f"Files it writes: {_files(shown.touched)}", width, hang="  ")
    lines += _growth(shown, width)
    lines += [line for file, why in shown.refused
              for line in wrap(f"Left as it is: {file} — {why}", width, hang="  ")]
    return lines


def _linked(files: Sequence[str]) -> str:
    return f" (and unlinks it in {', '.join(files)})" if files else ""


def _files(touched: Sequence[str]) -> str:
    tombs = [t for t in touched if t.startswith(f"{TOMBSTONE_DIR}/")]
    named = [t for t in touched if not t.startswith(f"{TOMBSTONE_DIR}/")]
    if tombs:
        named.append(f"{TOMBSTONE_DIR}/ ({_n(len(tombs), 'tombstone')})")
    return ", ".join(named)


def _growth(shown: Preview, width: int) -> list[str]:
    """MEMORY.md against its load cap, when the changes make it grow: lines and characters
    (the cap is whichever Claude Code reaches first)."""
    before, after = shown.cap_before, shown.cap_after
    if after is None or not shown.index_grows:
        return []
    lines = f"{before.lines} → {after.lines}" if before is not None else f"{after.lines}"
    chars = f"{before.chars:,} → {after.chars:,}" if before is not None else f"{after.chars:,}"
    near = " — near the load cap: lines past it are never loaded" if after.near_cap else ""
    return wrap(f"{INDEX_FILE} grows: {lines} of {after.line_cap} lines, {chars} of "
                f"{after.char_cap:,} characters, {after.usage:.0%} of its load cap{near}",
                width, hang="  ")


def _kept_here(plan: Plan, kept: Mapping[str, str]) -> int:
    return sum(1 for e in plan.entries
               if e.action.value != "keep" and kept.get(e.file) == e.sha256)
