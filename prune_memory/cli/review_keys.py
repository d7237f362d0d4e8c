"""What each key of the review does, and which keys a question offers.

The prompt lists exactly the keys that work for the question on screen (`keys_for`); the
words people type for them (`keep`, `yes`, `diff`, …) count as the key. `y` takes what is
proposed — the plan's action, or what the evidence suggests for one held for review —
and `default_verdicts` says what that is, or why there is nothing to take.
"""

from __future__ import annotations

from collections.abc import Callable

from prune_memory.cli import review_screen as screen
from prune_memory.cli.review import Review
from prune_memory.cli.review_edits import edit, show_diff, superseded, view
from prune_memory.cli.review_proposed import (
    default_verdicts,
    redaction,
    secret_in,
    withdraw_verdicts,
)
from prune_memory.engine.entries import is_index_line
from prune_memory.model import Action
from prune_memory.plan import PlanEntry
from prune_memory.procedure.review import Choice, Proposal, Verdict, offered

Handler = Callable[[Proposal, Review, list[str]], None]
_WORDS = {word: key for key, words, _ in screen.KEYS for word in (key, *words)}


def key_of(answer: str) -> str | None:
    """The key an answer stands for: the key itself, or one of its words."""
    return _WORDS.get(answer.strip().lower())


def keys_for(item: Proposal, review: Review) -> list[str]:
    """The keys that work for this question, in the order the prompt lists them."""
    accept = not isinstance(default_verdicts(item, review), str)
    keys = ["y"] if accept else []
    keys.append("n")
    if accept and len(review.session.same_class()) > 1:
        keys.append("a")
    if item.repair is not None:
        keys.append("d")
    elif item.partner is not None:
        keys += ["1", "2", "d", "e", "v"]
    else:
        found = default_verdicts(item, review)
        withdraws = not isinstance(found, str) and found[0].choice is Choice.WITHDRAW
        keys += _entry_keys(item.entry, withdraws)
    keys += ["j", *(["b"] if review.session.position else []), "q", "?"]
    return keys


def _entry_keys(entry: PlanEntry | None, y_withdraws: bool) -> list[str]:
    assert entry is not None
    action = offered(entry)
    keys = ["d", "e", "s"]
    if not y_withdraws:
        keys.append("w")
    if entry.proposed_text is not None and action is not Action.UPDATE:
        keys.append("u")
    if secret_in(entry):
        keys.append("r")
    if not is_index_line(entry.file):
        keys.append("p")
    return [*keys, "v"]


def _yes(item: Proposal, review: Review, keys: list[str]) -> None:
    found = default_verdicts(item, review)
    if isinstance(found, str):
        review.say(f"Nothing to accept: {found}.")
    else:
        review.session.decide(*found)


def _keep(item: Proposal, review: Review, keys: list[str]) -> None:
    review.session.decide(*(Verdict(f, Choice.KEEP) for f in (item.files or (item.key,))))


def _skip(item: Proposal, review: Review, keys: list[str]) -> None:
    review.session.decide(*(Verdict(f, Choice.SKIP) for f in (item.files or (item.key,))))


def _all(item: Proposal, review: Review, keys: list[str]) -> None:
    """This question and every later one of its class, each as `y` would take it."""
    session = review.session
    taken, left = [], []
    for other in session.same_class():
        found = default_verdicts(other, review)
        if isinstance(found, str):
            left.append(other.key)
        else:
            session.settle(other, *found)
            taken.append(other.key)
    session.advance()
    said = f"Accepted {len(taken)} of this class ({item.group_words()})"
    review.say(said + (f"; left to ask: {', '.join(left)}" if left else "") + ".")


def _withdraw(item: Proposal, review: Review, keys: list[str]) -> None:
    assert item.entry is not None
    review.session.decide(*withdraw_verdicts(item.entry))


def _update(item: Proposal, review: Review, keys: list[str]) -> None:
    entry = item.entry
    assert entry is not None and entry.proposed_text is not None
    review.session.decide(Verdict(entry.file, Choice.UPDATE, text=entry.proposed_text,
                                  reason=entry.reason))


def _redact(item: Proposal, review: Review, keys: list[str]) -> None:
    assert item.entry is not None
    found = redaction(item.entry, review)
    if isinstance(found, str):
        review.say(f"Nothing redacted: {found}.")
    else:
        review.session.decide(*found)


def _protect(item: Proposal, review: Review, keys: list[str]) -> None:
    assert item.entry is not None
    reason = review.ask("Why protect it? ").strip() or "protected in review"
    review.session.decide(Verdict(item.entry.file, Choice.PROTECT, reason=reason))


def _one_of_two(number: int) -> Handler:
    def choose(item: Proposal, review: Review, keys: list[str]) -> None:
        assert item.entry is not None and item.partner is not None
        gone, stays = (item.entry, item.partner) if number == 1 else (item.partner, item.entry)
        review.session.decide(*withdraw_verdicts(gone, f"{stays.file} says otherwise; "
                                                       "withdrawn in review"),
                              Verdict(stays.file, Choice.KEEP))
    return choose


MENU: dict[str, Handler] = {
    "y": _yes, "n": _keep, "a": _all, "d": show_diff, "e": edit, "s": superseded,
    "w": _withdraw, "u": _update, "r": _redact, "p": _protect, "1": _one_of_two(1),
    "2": _one_of_two(2), "v": view, "j": _skip,
    "b": lambda item, review, keys: review.session.back(),
    "q": lambda item, review, keys: review.session.stop(),
    "?": lambda item, review, keys: review.say(screen.help_lines(keys, review.width)),
}
