"""Step 9's index edits find their line by its text when earlier edits moved it."""

from __future__ import annotations

import pytest

from prune_memory.errors import RefusedError
from prune_memory.store.index_edit import drop_line, retarget_line

DANGLING = "- [Gone](gone.md) — a memory deleted by hand"
INDEX = ("# Memory index\n"
         "- [A](a.md) — first\n"
         "- [B](b.md) — second\n"
         f"{DANGLING}\n"
         "- [C](c.md) — third\n").encode()


def test_a_line_moved_up_by_a_withdrawal_above_it_is_still_dropped() -> None:
    after_withdrawal = INDEX.replace(b"- [A](a.md) \xe2\x80\x94 first\n", b"")
    dropped = drop_line(after_withdrawal, 4, DANGLING)
    assert dropped == after_withdrawal.replace(f"{DANGLING}\n".encode(), b"")


def test_of_two_identical_lines_the_one_nearest_the_plan_goes() -> None:
    twice = INDEX + f"{DANGLING}\n".encode()
    lines = twice.splitlines(keepends=True)
    assert drop_line(twice, 6, DANGLING) == b"".join(lines[:5])
    assert drop_line(twice, 4, DANGLING) == b"".join(lines[:3] + lines[4:])


def test_a_line_that_is_gone_is_refused() -> None:
    without = INDEX.replace(f"{DANGLING}\n".encode(), b"")
    with pytest.raises(RefusedError, match="no longer has the line planned at 4"):
        drop_line(without, 4, DANGLING)


def test_a_retarget_follows_the_moved_line_and_touches_nothing_else() -> None:
    after_withdrawal = INDEX.replace(b"- [A](a.md) \xe2\x80\x94 first\n", b"")
    fixed = retarget_line(after_withdrawal, 3, "- [B](b.md) — second", "b.md", "b2.md")
    assert fixed == after_withdrawal.replace(b"](b.md)", b"](b2.md)")
