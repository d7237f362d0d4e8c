"""githistory: parsing the one log pass, on plain strings."""

from __future__ import annotations

from prune_memory.evidence.githistory import COMMIT_MARK as C
from prune_memory.evidence.githistory import FIELD_MARK as F
from prune_memory.evidence.githistory import build_history, parents, parse_log

SHA1, SHA2, SHA3 = "1" * 40, "2" * 40, "3" * 40


def commit(sha: str, message: str, changes: str) -> str:
    return f"{C}{sha}{F}{sha[:7]}{F}2026-03-02T09:00:00+00:00{F}{message}{F}\0\n{changes}"


def test_messages_may_hold_the_marks_themselves() -> None:
    raw = (commit(SHA2, f"odd {C} and {F} in a message", "R100\0a.py\0b.py\0")
           + commit(SHA1, "first", "A\0a.py\0A\0dir/with space.md\0"))
    newest, oldest = parse_log(raw)
    assert newest.info.message == f"odd {C} and {F} in a message"
    assert [(c.status, c.old_path, c.path) for c in newest.changes] == [("R", "a.py", "b.py")]
    assert [c.path for c in oldest.changes] == ["a.py", "dir/with space.md"]


def test_latest_event_wins_and_chains_follow_time() -> None:
    raw = (commit(SHA3, "re-add", "A\0a.py\0")
           + commit(SHA2, "move", "R100\0a.py\0b.py\0")
           + commit(SHA1, "add", "A\0a.py\0"))
    history = build_history(list(reversed(parse_log(raw))), frozenset({"a.py", "b.py"}))
    assert "a.py" not in history.renames  # tracked again: nothing to report
    raw_gone = commit(SHA3, "drop", "D\0b.py\0") + commit(SHA2, "move", "R090\0a.py\0b.py\0")
    gone = build_history(list(reversed(parse_log(raw_gone))), frozenset())
    assert gone.renames["a.py"].deleted is not None and "a.py" not in gone.deletions


def test_parents() -> None:
    assert list(parents("a/b/c.py")) == ["a/b", "a"] and list(parents("top.py")) == []
