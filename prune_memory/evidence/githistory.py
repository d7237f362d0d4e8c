"""Pure parsing of one `git log -z -M --name-status` pass into rename and delete facts.

Nothing here runs git: `evidence/gitrepo.py` feeds it the raw text, which keeps the rules
(rename chains, latest event wins, a rename is never a deletion) testable on strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime

COMMIT_MARK = "\x1e"
FIELD_MARK = "\x1f"
LOG_FORMAT = "%x1e%H%x1f%h%x1f%cI%x1f%B%x1f"
MAX_HOPS = 64
# Passed to git as -l, so a user's diff.renameLimit cannot change the answer. Past it git
# stops pairing files that were both moved and edited (see `_renames_checked`).
RENAME_LIMIT = 1000


@dataclass(frozen=True)
class CommitInfo:
    """One commit: full and short sha, committer date, whole message."""

    sha: str
    short: str
    date: datetime
    message: str

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()

    @property
    def day(self) -> str:
        return self.date.date().isoformat()


@dataclass(frozen=True)
class Change:
    """One line of `--name-status`: A, M, D, T, R or C, with the old path for R and C."""

    status: str
    path: str
    old_path: str | None = None
    similarity: int | None = None  # a rename's or copy's score, 0-100


@dataclass(frozen=True)
class LoggedCommit:
    info: CommitInfo
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class RenameHop:
    """`old` became `new` in a commit (`commit` short, `sha` full)."""

    old: str
    new: str
    commit: str
    date: datetime
    sha: str = ""
    similarity: int = 100  # how much of the file git found unchanged across the move


@dataclass(frozen=True)
class DeletionFact:
    path: str
    commit: str
    date: datetime
    sha: str = ""


@dataclass(frozen=True)
class RenameFact:
    """Where a path went: the hops to `current` (tracked now), or to a name later deleted."""

    hops: tuple[RenameHop, ...]
    current: str | None
    deleted: DeletionFact | None = None

    @property
    def commit(self) -> str:
        return self.hops[0].commit

    @property
    def date(self) -> datetime:
        return self.hops[0].date

    @property
    def sha(self) -> str:
        return self.hops[0].sha

    @property
    def last_name(self) -> str:
        return self.hops[-1].new


# A commit starts at the mark followed by a full sha, so a stray mark in a message is harmless.
_COMMIT_START = re.compile(COMMIT_MARK + r"(?=[0-9a-f]{40,64}" + FIELD_MARK + ")")


def parse_log(raw: str) -> list[LoggedCommit]:
    """Parse the log text (newest commit first, as git prints it)."""
    commits: list[LoggedCommit] = []
    for chunk in _COMMIT_START.split(raw)[1:]:
        sha, short, date, rest = chunk.split(FIELD_MARK, 3)
        message, _, status_part = rest.rpartition(FIELD_MARK)
        info = CommitInfo(sha, short, datetime.fromisoformat(date), message.strip())
        commits.append(LoggedCommit(info, tuple(_parse_changes(status_part))))
    return commits


def _parse_changes(text: str) -> Iterator[Change]:
    tokens = text.lstrip("\0\n").split("\0")
    i = 0
    while i < len(tokens):
        status = tokens[i].strip()
        if not status:
            i += 1
            continue
        if status[0] in "RC" and i + 2 < len(tokens):
            score = int(status[1:]) if status[1:].isdigit() else None
            yield Change(status[0], tokens[i + 2], tokens[i + 1], score)
            i += 3
        elif i + 1 < len(tokens):
            yield Change(status[0], tokens[i + 1])
            i += 2
        else:
            break


@dataclass(frozen=True)
class History:
    """What the log says about paths, with every event numbered in commit order."""

    renames: Mapping[str, RenameFact]
    deletions: Mapping[str, DeletionFact]
    seen_paths: frozenset[str]
    moves_out_of_dir: Mapping[str, tuple[RenameHop, ...]]
    deleted_under_dir: Mapping[str, DeletionFact]


@dataclass
class _Events:
    renamed_from: dict[str, tuple[int, RenameHop]]
    deleted: dict[str, tuple[int, DeletionFact]]
    added: dict[str, int]


def build_history(commits_oldest_first: Iterable[LoggedCommit], tracked: frozenset[str], *,
                  exact_only: bool = False) -> History:
    """Fold the log into rename and delete facts for every path not tracked now.
    `exact_only`: the log paired only unchanged files, so a deletion in a commit that adds
    a file may be a move with an edit, and proves nothing."""
    events = _Events({}, {}, {})
    dir_moves: dict[str, list[RenameHop]] = {}
    dir_deletes: dict[str, DeletionFact] = {}
    for seq, commit in enumerate(commits_oldest_first):
        checked = _renames_checked(commit, exact_only=exact_only)
        for change in commit.changes:
            if checked or change.status != "D":
                _record(events, seq, commit.info, change, dir_moves, dir_deletes)
            else:  # maybe a move git did not pair: the path was there, its fate unknown
                events.added.setdefault(change.path, seq)
    renames: dict[str, RenameFact] = {}
    deletions: dict[str, DeletionFact] = {}
    for path in sorted(set(events.renamed_from) | set(events.deleted)):  # not set order
        if path in tracked:
            continue
        fate = _fate(events, path, -1, tracked)
        if isinstance(fate, RenameFact):
            renames[path] = fate
        elif isinstance(fate, DeletionFact):
            deletions[path] = fate
    seen = frozenset(events.added) | frozenset(events.deleted) | frozenset(events.renamed_from)
    return History(renames, deletions, seen,
                   {d: tuple(h) for d, h in dir_moves.items()}, dir_deletes)


def _renames_checked(commit: LoggedCommit, *, exact_only: bool = False) -> bool:
    """Whether git looked for renames among this commit's deletions. It skips the search
    when the unpaired deletions times additions pass RENAME_LIMIT squared, and then a file
    moved and edited in a big reorganisation shows as a deletion it is not; with only exact
    renames looked for, any commit that also adds a file may hide such a move."""
    deleted = sum(1 for change in commit.changes if change.status == "D")
    added = sum(1 for change in commit.changes if change.status == "A")
    if exact_only:
        return added == 0
    return deleted * added <= RENAME_LIMIT * RENAME_LIMIT


def _record(events: _Events, seq: int, info: CommitInfo, change: Change,
            dir_moves: dict[str, list[RenameHop]], dir_deletes: dict[str, DeletionFact]) -> None:
    if change.status == "R" and change.old_path is not None:
        hop = RenameHop(change.old_path, change.path, info.short, info.date, info.sha,
                        change.similarity if change.similarity is not None else 100)
        events.renamed_from[change.old_path] = (seq, hop)
        events.added[change.path] = seq
        for parent in parents(change.old_path):
            dir_moves.setdefault(parent, []).append(hop)
    elif change.status == "D":
        fact = DeletionFact(change.path, info.short, info.date, info.sha)
        events.deleted[change.path] = (seq, fact)
        for parent in parents(change.path):
            dir_deletes[parent] = DeletionFact(parent, info.short, info.date, info.sha)
    else:
        events.added.setdefault(change.path, seq)
        if change.status in "AC":
            events.added[change.path] = seq


def _fate(events: _Events, path: str, after: int,
          tracked: frozenset[str]) -> RenameFact | DeletionFact | None:
    """Follow a path forward in time: at each name, the next rename or deletion wins."""
    hops: list[RenameHop] = []
    current, since = path, after
    for _ in range(MAX_HOPS):
        event = _next_event(events, current, since)
        if event is None:
            break
        seq, what = event
        if isinstance(what, DeletionFact):
            return RenameFact(tuple(hops), None, what) if hops else what
        hops.append(what)
        current, since = what.new, seq
        if current in tracked and not _leaves_after(events, current, seq):
            return RenameFact(tuple(hops), current)
    return RenameFact(tuple(hops), None) if hops else None


def _next_event(events: _Events, path: str,
                since: int) -> tuple[int, RenameHop | DeletionFact] | None:
    found: list[tuple[int, RenameHop | DeletionFact]] = []
    renamed = events.renamed_from.get(path)
    deleted = events.deleted.get(path)
    if renamed is not None and renamed[0] > since:
        found.append(renamed)
    if deleted is not None and deleted[0] > since:
        found.append(deleted)
    return max(found, key=lambda event: event[0]) if found else None


def _leaves_after(events: _Events, path: str, seq: int) -> bool:
    renamed = events.renamed_from.get(path)
    deleted = events.deleted.get(path)
    later = [e[0] for e in (renamed, deleted) if e is not None and e[0] > seq]
    return bool(later) and max(later) > events.added.get(path, -1)


def parents(path: str) -> Iterator[str]:
    """Every ancestor directory of a slash path, nearest first (`a/b/c` → `a/b`, `a`)."""
    parts = path.split("/")[:-1]
    for depth in range(len(parts), 0, -1):
        yield "/".join(parts[:depth])
