"""Recount from the tracked tree, and find the commit where a file count last changed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from prune_memory.evidence.githistory import parents
from prune_memory.evidence.gitrepo import RepoFacts
from prune_memory.evidence.probes.base import ProbeContext
from prune_memory.evidence.probes.countrules import CountSpec, counts_toward, under

MAX_DIR_DEPTH = 2


@dataclass(frozen=True)
class TreeIndex:
    """Tracked files grouped once per pass, so each recount reads a small group."""

    by_name: dict[str, list[str]]
    by_extension: dict[str, list[str]]
    files_under: Counter[str]
    events: list[tuple[int, int, str]]
    directories_by_name: dict[str, list[str]]  # lower-cased last part -> the directories

    @classmethod
    def build(cls, facts: RepoFacts) -> TreeIndex:
        by_name: dict[str, list[str]] = {}
        by_extension: dict[str, list[str]] = {}
        files_under: Counter[str] = Counter()
        for path in facts.tracked:
            name = path.rsplit("/", 1)[-1]
            by_name.setdefault(name, []).append(path)
            if "." in name:
                by_extension.setdefault("." + name.rsplit(".", 1)[-1], []).append(path)
            files_under.update(parents(path))
        files_under[""] = len(facts.tracked)
        directories: dict[str, list[str]] = {}
        for directory in facts.directories:
            directories.setdefault(directory.rsplit("/", 1)[-1].lower(), []).append(directory)
        return cls(by_name, by_extension, files_under, _events(facts), directories)


def tree_index(ctx: ProbeContext) -> TreeIndex:
    """The pass's one `TreeIndex`, built the first time a probe asks."""
    return ctx.memo("count.tree", lambda: TreeIndex.build(ctx.facts))


def _events(facts: RepoFacts) -> list[tuple[int, int, str]]:
    """Every add (+1) and removal (-1) of a path, numbered by commit, oldest first."""
    events: list[tuple[int, int, str]] = []
    for seq, commit in enumerate(facts.history):
        for change in commit.changes:
            if change.status in ("A", "C", "R"):
                events.append((seq, 1, change.path))
            if change.status == "D":
                events.append((seq, -1, change.path))
            if change.status == "R" and change.old_path is not None:
                events.append((seq, -1, change.old_path))
    return events


@dataclass(frozen=True)
class Counted:
    """The true number, how it was counted, and (for file counts) which paths count."""

    total: int
    how: str
    counts: Callable[[str], bool] | None = None


def recount(facts: RepoFacts, tree: TreeIndex, spec: CountSpec) -> Counted | None:
    """The true number and how it was counted; None when the tree cannot answer."""
    if spec.scope and spec.scope not in facts.directories:
        return None
    where = f" under `{spec.scope}/`" if spec.scope else ""
    test = _file_test(spec)
    if test is not None:
        return Counted(_count_files(facts, tree, spec, test), _how(spec, where), test)
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


def _count_files(facts: RepoFacts, tree: TreeIndex, spec: CountSpec,
                 test: Callable[[str], bool]) -> int:
    if spec.what == "files":
        return tree.files_under[spec.scope]
    if spec.what == "basename":
        return sum(1 for p in tree.by_name.get(spec.arg[0], ()) if test(p))
    if spec.what == "extension":
        return sum(1 for ext in spec.arg for p in tree.by_extension.get(ext, ()) if test(p))
    return sum(1 for p in facts.tracked if test(p))


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


def last_change(facts: RepoFacts, tree: TreeIndex,
                counted: Counted) -> tuple[str, int, int] | None:
    """(full sha, count before, count after) of the last commit that changed a file count.

    Walks the add/remove events backwards and stops at the first commit with a net change.
    """
    test = counted.counts
    if test is None:
        return None
    net: dict[int, int] = {}
    found: int | None = None
    current: int | None = None
    for seq, sign, path in reversed(tree.events):
        if seq != current:
            if current is not None and net.get(current):
                found = current
                break
            current = seq
        if test(path):
            net[seq] = net.get(seq, 0) + sign
    else:
        found = current if current is not None and net.get(current) else None
    if found is None:
        return None
    # Every later commit left the count as it was, so the count after `found` is today's.
    return facts.history[found].info.sha, counted.total - net[found], counted.total
