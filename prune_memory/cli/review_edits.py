"""The keys that show more or take typed text: the whole diff, the view through the pager,
an edit in $EDITOR, and a SUPERSEDED note whose every field the reviewer types."""

from __future__ import annotations

from prune_memory.cli import review_screen as screen
from prune_memory.cli.external import EditorFailed, edit_text
from prune_memory.cli.review import Review
from prune_memory.cli.review_proposed import default_verdicts, withdraw_verdicts
from prune_memory.engine.entries import is_index_line
from prune_memory.engine.preview import unified
from prune_memory.model import Action
from prune_memory.plan import Inoculation, PlanEntry
from prune_memory.procedure.review import Choice, Proposal, Verdict, offered
from prune_memory.secrets.mask import mask_text

_NO_NOTE = "No SUPERSEDED note written."


def show_diff(item: Proposal, review: Review, keys: list[str]) -> None:
    if item.partner is not None and item.entry is not None:
        one, two = item.entry.file, item.partner.file
        text = unified(review.texts.get(one, "").encode(), review.texts.get(two, "").encode(),
                       f"{one} → {two}")
        review.show(screen.diff_lines(text or "(the same text)\n", review.width, None))
        return
    found = default_verdicts(item, review)
    if isinstance(found, str) and item.entry is not None:
        found, heading = withdraw_verdicts(item.entry), ["What w (withdraw) would write:"]
    else:
        heading = []
    shown = review.preview(found, item) if not isinstance(found, str) else None
    diff = shown.diff if shown is not None else ""
    review.show([*heading, *screen.diff_lines(diff or "(nothing changes)\n", review.width,
                                              None)])


def edit(item: Proposal, review: Review, keys: list[str]) -> None:
    entry = item.entry
    assert entry is not None
    if item.partner is not None:
        which = review.ask("Edit which one, 1 or 2? ").strip()
        if which not in ("1", "2"):
            review.say("Nothing edited.")
            return
        entry = item.entry if which == "1" else item.partner
        assert entry is not None
    now = review.bodies.get(entry.file, "")
    start = entry.proposed_text if item.partner is None and entry.proposed_text else now
    try:
        text = edit_text(mask_text(start))
    except EditorFailed as failed:
        review.say(f"{failed}; nothing changed — set $EDITOR, or pick another key.")
        return
    if is_index_line(entry.file):
        text = text.strip("\r\n")
        if "\n" in text or not text.strip():
            review.say("A fact in MEMORY.md is one line: nothing changed.")
            return
    if text.strip() == now.strip():
        review.say("No change made.")
        return
    verdict = Verdict(entry.file, Choice.UPDATE, text=text, reason="edited in review")
    shown = review.preview([verdict], Proposal(entry=entry))
    review.say(screen.diff_lines(shown.diff if shown else "", review.width, None))
    others = [Verdict(f, Choice.KEEP) for f in item.files if f != entry.file]
    review.session.decide(verdict, *others)


_FIELDS = (("pattern", "Pattern: the conclusion that no longer holds"),
           ("evidence", "Evidence: what showed it wrong"),
           ("abandonment_reason", "Abandonment reason"),
           ("do_not_rederive", "Do not re-derive from: what would lead there again"))


def superseded(item: Proposal, review: Review, keys: list[str]) -> None:
    """A SUPERSEDED note, every field typed by the reviewer (an empty one stops)."""
    entry = item.entry
    assert entry is not None
    values: dict[str, str] = {}
    for name, label in _FIELDS:
        values[name] = review.ask(f"{label} (empty: no note): ").strip()
        if not values[name]:
            review.say(_NO_NOTE)
            return
    period = review.ask("Period, such as 2026-03 to 2026-06 (empty: unknown): ").strip()
    ino = Inoculation(period=period, **values)
    if (problem := review.check(ino)) is not None:
        review.say(f"{_NO_NOTE} {problem}.")
        return
    withdraw = is_index_line(entry.file) or _also_withdraw(entry, review)
    choice = Choice.WITHDRAW_INOCULATE if withdraw else Choice.INOCULATE
    review.session.decide(Verdict(entry.file, choice, inoculation=ino, reason=entry.reason))


def _also_withdraw(entry: PlanEntry, review: Review) -> bool:
    usual = offered(entry) is not Action.INOCULATE
    answer = review.ask(f"Withdraw {entry.file} as well? [{'Y/n' if usual else 'y/N'}] ")
    return answer.strip().lower().startswith("y") if answer.strip() else usual


def view(item: Proposal, review: Review, keys: list[str]) -> None:
    lines: list[str] = []
    for file in item.files:
        lines += screen.view_lines(file, review.texts.get(file, ""), review.width)
    review.show(lines)
