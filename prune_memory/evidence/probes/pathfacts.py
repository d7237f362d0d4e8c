"""Where a path a memory names stands: present, ignored, gone with a history, or unknown.

Only history proves a path stale: it existed in a commit and was deleted or renamed. A path
is present when git tracks it, when it is the tail of a tracked path (memories often drop a
long prefix: `Core/Scripts/X.cs` for `client/App/Assets/Core/Scripts/X.cs`), or when it is
on the user's disk uncommitted. An ignored path lives on a disk, not in git; a path git
never saw is something else — a placeholder, an endpoint, a file in another repo.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from prune_memory.evidence.gitrepo import DeletionFact, RenameFact, RepoFacts, ignored_paths
from prune_memory.evidence.probes.base import ProbeContext
from prune_memory.evidence.probes.dirfate import directory_fate
from prune_memory.evidence.probes.pathclaims import PathMention, memory_names, path_mentions
from prune_memory.model import Entry

Fate = RenameFact | DeletionFact
# Names people write when they mean "some file": `FILE.py`, `foo/bar.md`, `batch-NN`.
_PLACEHOLDER_PART = re.compile(
    r"^(?:foo|bar|baz|qux|xxx+|yyy+|example|sample|placeholder|something|whatever|thing|"
    r"your[-_]\w+|my[-_]\w+|name|path|file|dir|folder|nn+|n|x|y|yyyy)(?:\.\w+)?$|"
    r"[-_](?:NN+|XX+|YYYY|MM|DD)(?:\.\w+)?$|\.\.\.|^<.*>$", re.IGNORECASE)
_MAX_SUFFIX_PARTS = 12


def is_placeholder(path: str) -> bool:
    """A path made of stand-in words: an example of a shape, not a claim about a file."""
    return any(_PLACEHOLDER_PART.search(part) for part in path.split("/"))


def entry_mentions(entry: Entry, ctx: ProbeContext) -> list[PathMention]:
    """The paths `entry` names (`pathclaims.path_mentions`), found once per pass however
    many probes ask."""
    known: dict[str, list[PathMention]] = ctx.memo("path.mentions", dict)
    found = known.get(entry.file)
    if found is None:
        skip = ctx.memo("path.memory-names", lambda: memory_names(ctx.memdir))
        found = known[entry.file] = path_mentions(entry, ctx.facts.root, ctx.facts.seen, skip)
    return found


def present(path: str, ctx: ProbeContext) -> str | None:
    """Why `path` exists now (tracked, the tail of a tracked path, on disk), or None;
    worked out once per path and pass (the disk is asked at most once)."""
    known: dict[str, str | None] = ctx.memo("path.present", dict)
    if path not in known:
        known[path] = _present(path, ctx)
    return known[path]


def _present(path: str, ctx: ProbeContext) -> str | None:
    facts = ctx.facts
    if path in facts.tracked:
        return "tracked file"
    if path in facts.directories:
        return "tracked directory"
    tails = tracked_tails(path, ctx)
    if (full := unique(tails)) is not None:
        return f"tracked as `{full}`"
    if tails:  # the name is there, in more than one place: one of them is meant
        return f"tracked in several places (`{tails[0]}`, `{tails[1]}`)"
    if facts.root is not None and _on_disk(facts.root, path):
        return "in the working tree, not committed"
    return None


def ignored(path: str, ctx: ProbeContext) -> bool:
    """The repo's ignore rules cover `path` (asked once per pass, for every memory)."""
    return path in ctx.memo("path.ignored", lambda: _ignored_everywhere(ctx))


def fate(path: str, ctx: ProbeContext) -> Fate | None:
    """What history did to `path`: its own rename or deletion, its directory's, or those of
    the one historical path it is the tail of."""
    facts = ctx.facts
    found: Fate | None = facts.renames.get(path) or facts.deletions.get(path)
    if found is None:
        found = directory_fate(facts, path)
    if found is None:  # the tail of one historical path, a bare file name included
        history = suffixes(ctx, "history", lambda: [*facts.renames, *facts.deletions])
        full = unique(history.get(path, ()))
        if full is not None:
            found = facts.renames.get(full) or facts.deletions.get(full)
    if found is None:
        found = _gone_everywhere(path, ctx)
    return found


def _gone_everywhere(path: str, ctx: ProbeContext) -> DeletionFact | None:
    """`paypal/` for `convex/paypal/` and `src/pages/paypal/`, both deleted: a directory
    name no tracked directory ends in now, and every directory that ended in it deleted
    (none moved: the one moved may be the one meant). Whichever was meant is gone; the
    last deletion is the evidence."""
    facts = ctx.facts
    places = suffixes(ctx, "left-dirs", lambda: sorted(
        {*facts.deleted_under_dir, *facts.moves_out_of_dir}), keep=None).get(path, ())
    deleted: list[DeletionFact] = []
    for place in places:
        found = directory_fate(facts, place)
        if not isinstance(found, DeletionFact):
            return None
        deleted.append(dataclasses.replace(found, path=place))
    return max(deleted, key=lambda d: d.date, default=None)


_UNTRACKING = re.compile(
    r"untrack|stop tracking|from (?:git|the repo(?:sitory)?|version control|tracking)"
    r"|rm --cached|local[- ]only|exclude .{0,40} from|do not commit|don't commit",
    re.IGNORECASE)


def untracked_only(found: Fate, ctx: ProbeContext) -> bool:
    """The "deletion" only took the file out of git (its commit says so): it may well
    still be on the user's disk, so it proves nothing about the file. A commit that only
    mentions .gitignore says nothing of the kind: what the ignore rules cover now, every
    caller has already set aside as `ignored`."""
    deletion = found if isinstance(found, DeletionFact) else found.deleted
    if deletion is None:
        return False
    commit = next((c for c in ctx.facts.commits
                   if c.sha == deletion.sha or c.short == deletion.commit), None)
    return commit is not None and _UNTRACKING.search(commit.message) is not None


def suffixes(ctx: ProbeContext, key: str, paths: Callable[[], Iterable[str]], *,
             keep: int | None = 2) -> Mapping[str, tuple[str, ...]]:
    """Every tail of every path (`a/b/c` → `b/c`, `c`), mapped to the paths that end so
    (the first `keep` of them: two are enough to know a tail is ambiguous; None keeps
    all); `paths` is called only the first time `key` is asked for in a pass."""
    def build() -> dict[str, tuple[str, ...]]:
        table: dict[str, list[str]] = {}
        for full in paths():
            parts = full.split("/")
            for start in range(1, min(len(parts), _MAX_SUFFIX_PARTS)):
                bucket = table.setdefault("/".join(parts[start:]), [])
                if keep is None or len(bucket) < keep:
                    bucket.append(full)
        return {tail: tuple(fulls) for tail, fulls in table.items()}
    return ctx.memo(f"path.suffixes.{key}", build)


def tracked_tails(path: str, ctx: ProbeContext) -> tuple[str, ...]:
    """The tracked files and directories `path` is the tail of (two at most)."""
    return suffixes(ctx, "tracked", lambda: _current(ctx.facts)).get(path, ())


def unique(candidates: tuple[str, ...]) -> str | None:
    return candidates[0] if len(candidates) == 1 else None


def _current(facts: RepoFacts) -> list[str]:
    return [*facts.tracked, *facts.directories]


def _on_disk(root: Path, path: str) -> bool:
    try:
        candidate = (root / path).resolve()
        return candidate.is_relative_to(root.resolve()) and candidate.exists()
    except (OSError, ValueError):
        return False


def _ignored_everywhere(ctx: ProbeContext) -> frozenset[str]:
    """Ask git once about every path any memory names that is not present now."""
    asked: set[str] = set()
    for entry in ctx.memdir.entries:
        for mention in entry_mentions(entry, ctx):
            if present(mention.path, ctx) is None:
                asked.add(mention.path)
    queries = sorted(asked) + sorted(p + "/" for p in asked)  # dir rules need the slash
    hits = ignored_paths(ctx.facts.root, queries)
    return frozenset(h.rstrip("/") for h in hits)
