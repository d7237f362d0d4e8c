"""A deletion is proof only where git looked for renames.

Past its rename limit, git stops pairing files that were both moved and edited: in one big
reorganising commit each shows up as a deletion plus an addition. Such a deletion may be a
move, so it never counts as "deleted"; the path is only "not tracked now". The limit is
pinned, so a user's `diff.renameLimit` cannot change what the history says.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from prune_memory.evidence.githistory import (
    RENAME_LIMIT,
    Change,
    CommitInfo,
    LoggedCommit,
    build_history,
)
from prune_memory.evidence.gitrepo import read_repo_facts
from tests.evidence.probes.gitbuild import GitRepo

FILES = RENAME_LIMIT + 1  # deletions × additions just past the limit squared


def _text(n: int, edited: bool = False) -> str:
    return "".join(f"module {n} line {k}\n" for k in range(30)) + ("edited\n" if edited else "")


def test_a_move_git_could_not_pair_is_not_a_deletion(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({f"old/m{n}.txt": _text(n) for n in range(FILES)}).commit("add")
    for n in range(FILES):
        repo.mv(f"old/m{n}.txt", f"new/renamed{n}.txt")
    repo.write({f"new/renamed{n}.txt": _text(n, edited=True) for n in range(FILES)})
    repo.commit("reorganise and edit every module")
    facts = read_repo_facts(repo.root)
    assert "old/m0.txt" in facts.seen
    assert "old/m0.txt" not in facts.deletions and "old" not in facts.deleted_under_dir


def test_the_users_rename_limit_changes_nothing(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({f"m{n}.txt": _text(n) for n in range(20)}).commit("add")
    for n in range(20):
        repo.mv(f"m{n}.txt", f"pkg/renamed{n}.txt")
    repo.write({f"pkg/renamed{n}.txt": _text(n, edited=True) for n in range(20)})
    repo.commit("move and edit")
    repo.git("config", "diff.renameLimit", "2")
    facts = read_repo_facts(repo.root)
    assert facts.renames["m0.txt"].current == "pkg/renamed0.txt"
    assert not facts.deletions


def _commit(n: int, changes: list[Change]) -> LoggedCommit:
    info = CommitInfo(sha=f"{n:040x}", short=f"{n:07x}",
                      date=datetime(2026, 1, n, tzinfo=UTC), message="x")
    return LoggedCommit(info, tuple(changes))


def test_a_small_commit_still_proves_a_deletion() -> None:
    add = _commit(1, [Change("A", "a.txt"), Change("A", "b.txt")])
    delete = _commit(2, [Change("D", "a.txt"), Change("A", "c.txt")])
    history = build_history([add, delete], tracked=frozenset({"b.txt", "c.txt"}))
    assert history.deletions["a.txt"].sha == f"{2:040x}"
