"""What happened to a directory the repo no longer has: git tracks files, so infer it from them.

A directory counts as renamed when, in the last commit that moved files out of it,
every moved file kept its path below the directory and all landed under one new
directory. It counts as deleted when its last files were deleted after that.
"""

from __future__ import annotations

from prune_memory.evidence.gitrepo import DeletionFact, RenameFact, RenameHop, RepoFacts

MAX_DIR_HOPS = 16


def directory_fate(facts: RepoFacts, directory: str) -> RenameFact | DeletionFact | None:
    """A RenameFact (hops between directory names) or a DeletionFact; None if never seen."""
    hops: list[RenameHop] = []
    current = directory
    for _ in range(MAX_DIR_HOPS):
        hop = _last_move(facts, current)
        deleted = facts.deleted_under_dir.get(current)
        if deleted is not None and (hop is None or deleted.date > hop.date):
            return RenameFact(tuple(hops), None, deleted) if hops else deleted
        if hop is None:
            break
        hops.append(hop)
        current = hop.new
        if current in facts.directories:
            return RenameFact(tuple(hops), current)
    return RenameFact(tuple(hops), None) if hops else None


def _last_move(facts: RepoFacts, directory: str) -> RenameHop | None:
    prefix = directory + "/"
    leaving = [h for h in facts.moves_out_of_dir.get(directory, ())
               if not h.new.startswith(prefix)]
    if not leaving:
        return None
    last_commit = leaving[-1].commit
    batch = [h for h in leaving if h.commit == last_commit]
    targets = {_target_dir(h, prefix) for h in batch}
    if len(targets) != 1:
        return None
    target = targets.pop()
    if target is None:
        return None
    return RenameHop(directory, target, last_commit, batch[-1].date, batch[-1].sha)


def _target_dir(hop: RenameHop, prefix: str) -> str | None:
    """Where `prefix` went, if the file kept its relative path below it."""
    rest = hop.old[len(prefix):]
    if hop.new.endswith("/" + rest):
        return hop.new[: -len(rest) - 1]
    return None
