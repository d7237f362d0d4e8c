"""The interactive review, one proposal at a time, like `git add -p`.

Line-based input (a key, then Enter) so it works in any terminal, with or without colour.
Ctrl-C and Ctrl-D propagate to the caller, which saves the review so the next run resumes it.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from rich.console import Console

from prune_memory.cli import review_screen as screen
from prune_memory.cli.common import ask
from prune_memory.engine.build_line import is_index_line
from prune_memory.model import Action
from prune_memory.plan import Inoculation, PlanEntry
from prune_memory.procedure.review import Choice, ReviewSession, Verdict, proposed_verdict
from prune_memory.report.wrapping import wrap
from prune_memory.secrets.mask import mask_text

FIELDS = (("pattern", "Pattern"), ("period", "Period"), ("evidence", "Evidence"),
          ("abandonment_reason", "Abandonment reason"),
          ("do_not_rederive", "Do not re-derive from"))


class EditorFailed(Exception):
    """$EDITOR could not run, or gave up: a message for the reviewer, never a crash."""


@dataclass
class Review:
    """What the keys need besides the session: the memories' text, the terminal, and how
    to draft and check a SUPERSEDED note."""

    session: ReviewSession
    texts: Mapping[str, str]  # file → the memory's text (body and description)
    bodies: Mapping[str, str]  # file → body alone (what an update rewrites)
    console: Console
    draft: Callable[[PlanEntry], Inoculation]
    check: Callable[[Inoculation], str | None]

    def say(self, lines: list[str] | str) -> None:
        """Print lines already wrapped, or one message wrapped here."""
        for line in wrap(lines, self.width) if isinstance(lines, str) else lines:
            self.console.print(line, soft_wrap=True, highlight=False)

    def ask(self, text: str) -> str:
        return ask(self.console, text)

    @property
    def width(self) -> int:
        return self.console.width


def run_review(review: Review) -> None:
    """Ask about each proposal until every one is decided or the reviewer quits."""
    session = review.session
    shown: int | None = None
    while (entry := session.current) is not None:
        if shown != session.position:  # after ?, v or a message only the prompt comes again
            review.say("")
            review.say(screen.entry_lines(entry, review.width))
            review.say(_extras(entry, review))
            shown = session.position
        key = review.ask(screen.prompt(entry, session.position + 1, len(session.items)))
        handle(key.strip().lower(), entry, review)


def _extras(entry: PlanEntry, review: Review) -> list[str]:
    lines = screen.side_by_side(entry, review.width) if entry.action is Action.REVIEW else []
    if entry.proposed_text is not None:
        lines += screen.diff_lines(review.bodies.get(entry.file, ""), entry.proposed_text,
                                   review.width)
    return lines


def handle(key: str, entry: PlanEntry, review: Review) -> None:
    """What one key does to the proposal on screen."""
    session = review.session
    simple = {"w": Choice.WITHDRAW, "k": Choice.KEEP, "s": Choice.SKIP}
    if key in simple:
        session.decide(Verdict(entry.file, simple[key], reason=entry.reason))
    elif key in ("a", "y"):
        _accept(entry, review)
    elif key in ("i", "n"):
        _inoculate(entry, review, Choice.WITHDRAW_INOCULATE if key == "i" else Choice.INOCULATE)
    elif key == "u":
        _update(entry, review)
    elif key == "e":
        _edit(entry, review)
    elif key == "p":
        _protect(entry, review)
    elif key in ("v", "b", "q", "?"):
        _other(key, entry, review)
    elif not key:
        review.say("Type a key, then Enter (? explains each key).")
    else:
        review.say(f"Unknown key {key[:1]!r}. Keys: {', '.join(screen.keys_for(entry))} "
                   "(? explains each).")


def _other(key: str, entry: PlanEntry, review: Review) -> None:
    if key == "v":
        review.say(screen.view_lines(entry.file, review.texts.get(entry.file, ""),
                                     review.width))
    elif key == "b":
        review.session.back()
    elif key == "q":
        review.session.stop()
    else:
        review.say(screen.help_lines(review.width))


def _accept(entry: PlanEntry, review: Review) -> None:
    verdict = proposed_verdict(entry)
    if verdict.choice is Choice.SKIP:
        review.say("This proposal asks a question rather than proposing a change: pick w, k "
                   "or e (? explains each).")
    elif verdict.choice in (Choice.WITHDRAW_INOCULATE, Choice.INOCULATE):
        _inoculate(entry, review, verdict.choice)
    elif verdict.choice is Choice.UPDATE:
        _update(entry, review)
    else:
        review.session.decide(verdict)


def _inoculate(entry: PlanEntry, review: Review, choice: Choice) -> None:
    if choice is Choice.INOCULATE and is_index_line(entry.file):
        review.say("A fact written in MEMORY.md is inoculated together with its withdrawal: "
                   "use i.")
        return
    ino = ask_inoculation(entry.inoculation or review.draft(entry), review)
    problem = review.check(ino)
    if problem is not None:
        review.say(f"Not written: {problem}.")
        return
    review.session.decide(Verdict(entry.file, choice, inoculation=ino, reason=entry.reason))


def _update(entry: PlanEntry, review: Review) -> None:
    if entry.proposed_text is None:
        review.say("No proposed text here: e lets you write it yourself.")
    elif is_index_line(entry.file) or _in_place(entry, review):  # a fact's line is swapped
        review.session.decide(Verdict(entry.file, Choice.UPDATE, text=entry.proposed_text,
                                      reason=entry.reason))


def _edit(entry: PlanEntry, review: Review) -> None:
    if not _in_place(entry, review):
        return
    start = mask_text(entry.proposed_text or review.bodies.get(entry.file, ""))
    try:
        text = edit_text(start)
    except EditorFailed as failed:
        review.say(f"{failed}; nothing changed — set $EDITOR, or pick another key.")
        return
    if text.strip() == review.bodies.get(entry.file, "").strip():
        review.say("No change made.")
        return
    review.say(screen.diff_lines(review.bodies.get(entry.file, ""), text, review.width,
                                 ("now", "your edit")))
    review.session.decide(Verdict(entry.file, Choice.UPDATE, text=text,
                                  reason="edited in review"))


def _in_place(entry: PlanEntry, review: Review) -> bool:
    if is_index_line(entry.file):
        review.say("This is a fact written in MEMORY.md itself: edit MEMORY.md by hand, or "
                   "withdraw it (w).")
        return False
    return True


def _protect(entry: PlanEntry, review: Review) -> None:
    if is_index_line(entry.file):
        review.say("A fact written in MEMORY.md cannot be protected: keep it (k) instead.")
        return
    reason = review.ask("Why protect it? ").strip() or "protected in review"
    review.session.decide(Verdict(entry.file, Choice.PROTECT, reason=reason))


def ask_inoculation(draft: Inoculation, review: Review) -> Inoculation:
    """Prompt for each SUPERSEDED field, the drafted value shown and taken on Enter."""
    values: dict[str, str] = {}
    for key, label in FIELDS:
        default = mask_text(getattr(draft, key))
        answer = review.ask(f"{label} [{default}]: ").strip()
        values[key] = answer or default
    return replace(draft, **values)


def edit_text(text: str) -> str:
    """Open $VISUAL / $EDITOR (else vi) on a private temporary copy, outside memory."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="prune-memory-") as folder:
        path = Path(folder) / "entry.md"
        path.write_text(text, encoding="utf-8")
        try:
            done = subprocess.run([*shlex.split(editor), str(path)], check=False)
        except (OSError, ValueError) as err:
            raise EditorFailed(f"could not start the editor {editor!r} ({err})") from err
        if done.returncode != 0:
            raise EditorFailed(f"the editor {editor!r} exited with code {done.returncode}")
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise EditorFailed(f"the edited text could not be read back ({err})") from err
