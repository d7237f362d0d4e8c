"""The interactive review, one question at a time, with the keys of `git add -p`.

Line-based input (a key or its word, then Enter) so it works in any terminal, with or
without colour. Each question shows what is proposed and the exact diff it writes; `y`
accepts it, `n` keeps the memory as it is, `a` accepts every remaining one of its class.
Ctrl-C and Ctrl-D propagate to the caller, which saves the review so the next run resumes.
"""

from __future__ import annotations

from prune_memory.cli import review_screen as screen
from prune_memory.cli.review import Review
from prune_memory.cli.review_keys import MENU, key_of, keys_for
from prune_memory.cli.review_proposed import default_verdicts
from prune_memory.procedure.review import Proposal

__all__ = ["Review", "handle", "run_review"]


def run_review(review: Review) -> None:
    """Ask each question until every one is decided or the reviewer quits."""
    session = review.session
    shown: int | None = None
    while (item := session.current) is not None:
        keys = keys_for(item, review)
        if shown != session.position:  # after ?, v, d or a message only the prompt again
            review.say("")
            review.say(screen.item_lines(item, review.width, review.dates))
            review.say(_diff_on_screen(item, review))
            shown = session.position
        answer = review.ask(screen.prompt(item, session.position + 1, len(session.items),
                                          session.left, keys))
        handle(answer, item, review, keys)


def _diff_on_screen(item: Proposal, review: Review) -> list[str]:
    found = default_verdicts(item, review)
    if isinstance(found, str):
        return []
    shown = review.preview(found, item)
    if shown is None or not shown.diff:
        return []
    return screen.diff_lines(shown.diff, review.width)


def handle(answer: str, item: Proposal, review: Review, keys: list[str] | None = None) -> None:
    """What one answer does to the question on screen."""
    keys = keys if keys is not None else keys_for(item, review)
    key = key_of(answer)
    if key is None:
        review.say("Type a key, then Enter (? explains each key)." if not answer.strip()
                   else f"{answer.strip()!r} is not a key here. Keys: {', '.join(keys)} "
                        "(? explains each).")
        return
    if key not in keys:
        review.say(f"{key} does not apply to this question. Keys: {', '.join(keys)} "
                   "(? explains each).")
        return
    MENU[key](item, review, keys)

