"""Recount from the tracked tree, and find the commit where a file count last changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prune_memory.gitrepo import RepoFacts
from prune_memory.probes.countrules import CountSpec, counts_toward, under

MAX_DIR_DEPTH = 2


@dataclass(frozen=True)
class Counted:
    """The true number, how it was counted, and (for file counts) which paths count."""

    total: int
    how: str
    counts: Callable[[str], bool] | None = None


def recount(facts: RepoFacts, spec: CountSpec) -> Counted | None:
    """The true number and how it was counted; None when the tree cannot answer."""
    if spec.scope and spec.scope not in facts.directories:
        return None
    where = f" under `{spec.scope}/`" if spec.scope else ""
    test = _file_test(spec)
    if test is not None:
        return Counted(sum(1 for p in facts.tracked if test(p)), _how(spec, where), test)
    if spec.what == "subdirs":
        return Counted(len(subdirs(facts, spec.scope)), f"directories directly{where}")
    if spec.what == "rule" and spec.rule is not None:
        return Counted(sum(1 for p in facts.directories if spec.rule.matches(p)), spec.rule.how())
    if spec.what == "members":
        return _members(facts, spec.scope, spec.arg)
    if spec.what == "children":
        homes = [d for d in facts.directories if d.rsplit("/", 1)[-1].lower() == spec.arg[0]
                 and d.count("/") < MAX_DIR_DEPTH]
        return _members(facts, homes[0], ()) if len(homes) == 1 else None
    return None


def _file_test(spec: CountSpec) -> Callable[[str], bool] | None:
    scope, arg = spec.scope, spec.arg
    if spec.what == "basename":
        return lambda p: p.rsplit("/", 1)[-1] == arg[0] and under(p, scope)
    if spec.what == "extension":
        return lambda p: p.endswith(arg) and under(p, scope)
    if spec.what == "files":
        return lambda p: under(p, scope)
    if spec.what == "rule" and spec.rule is not None and not spec.rule.counts_directories:
        return spec.rule.matches
    return None


def _how(spec: CountSpec, where: str) -> str:
    if spec.what == "basename":
        return f"tracked files named `{spec.arg[0]}`{where}"
    if spec.what == "extension":
        return f"tracked {'/'.join(spec.arg)} files{where}"
    if spec.rule is not None:
        return spec.rule.how()
    return f"tracked files{where}"


def _members(facts: RepoFacts, home: str, extensions: tuple[str, ...]) -> Counted | None:
    """The entries directly in `home`, if they are all files or all directories."""
    def direct(path: str) -> bool:
        return (path.startswith(home + "/") and "/" not in path[len(home) + 1:]
                and counts_toward(path.rsplit("/", 1)[-1])
                and (not extensions or path.endswith(extensions)))
    files = [p for p in facts.tracked if direct(p)]
    dirs = subdirs(facts, home)
    if extensions or (files and not dirs):
        kinds = "/".join(extensions) + " " if extensions else ""
        return Counted(len(files), f"{kinds}files directly under `{home}/` (README, index and "
                                   "dotfiles left out)", direct)
    if dirs and not files:
        return Counted(len(dirs), f"directories directly under `{home}/`")
    return None


def subdirs(facts: RepoFacts, scope: str) -> list[str]:
    prefix = scope + "/" if scope else ""
    return [d for d in facts.directories
            if d.startswith(prefix) and "/" not in d[len(prefix):]]


def last_change(facts: RepoFacts, counted: Counted) -> tuple[str, int, int] | None:
    """(full sha, count before, count after) of the last commit that changed a file count."""
    test = counted.counts
    if test is None:
        return None
    total, found = 0, None
    for commit in facts.history:
        before = total
        for change in commit.changes:
            total += _delta(change.status, change.path, change.old_path, test)
        if total != before:
            found = (commit.info.sha, before, total)
    return found


def _delta(status: str, path: str, old_path: str | None, test: Callable[[str], bool]) -> int:
    if status in ("A", "C"):
        return int(test(path))
    if status == "D":
        return -int(test(path))
    if status == "R" and old_path is not None:
        return int(test(path)) - int(test(old_path))
    return 0
