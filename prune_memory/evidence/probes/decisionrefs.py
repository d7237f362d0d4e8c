"""How one memory names another, and what the repo did between two memories' dates."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta

from prune_memory.evidence.gitrepo import CommitInfo
from prune_memory.evidence.probes.base import ProbeContext
from prune_memory.evidence.probes.evidence import commit_fields
from prune_memory.evidence.probes.pathfacts import entry_mentions
from prune_memory.model import JSON, TOMBSTONE_DIR, Entry, MemoryDir

SUPERSEDED_TYPE = "superseded"
WIKI = re.compile(r"\[\[([^\[\]|#\n]+)(?:[#|][^\[\]\n]*)?\]\]")
MD_LINK = re.compile(r"\]\(<?([^()<>\s]+\.md)>?\)")
BARE_MD = re.compile(r"(?<![\w/.-])([\w.-]+\.md)\b")
SUPERSEDES_LINE = re.compile(r"^\s*\**Supersedes\**\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
SLACK = timedelta(days=1)


def later(newer: Entry, older: Entry) -> bool:
    """`newer` was written strictly after `older` (by `modified:`, else file mtime)."""
    return newer.written_at[0] > older.written_at[0]


@dataclass(frozen=True)
class Topics:
    """The topic files of a memory directory, by file and by the names links use."""

    by_file: Mapping[str, Entry]
    by_name: Mapping[str, str]

    @classmethod
    def of(cls, memdir: MemoryDir) -> Topics:
        topics = memdir.topics
        by_name = {e.name: e.file for e in topics}
        by_name.update({e.file.removesuffix(".md"): e.file for e in topics})
        return cls({e.file: e for e in topics}, by_name)


def named_entries(text: str, topics: Topics) -> list[tuple[str, int]]:
    """Topic files named in `text` (wiki name, link or file name), with where they appear."""
    found: list[tuple[str, int]] = []
    for match in WIKI.finditer(text):
        target = topics.by_name.get(match.group(1).strip())
        if target:
            found.append((target, match.start()))
    for pattern in (MD_LINK, BARE_MD):
        for match in pattern.finditer(text):
            name = match.group(1).removeprefix("./")
            if name in topics.by_file and not name.startswith(TOMBSTONE_DIR):
                found.append((name, match.start()))
    return found


def superseded_targets(record: Entry, topics: Topics) -> Iterator[tuple[str, str]]:
    """Active entries a SUPERSEDED record points at, with the line that names them."""
    lines = [m.group(0).strip() for m in SUPERSEDES_LINE.finditer(record.body)]
    for line in lines:
        for target, _ in named_entries(line, topics):
            yield target, line
    for target, start in named_entries(record.body, topics):
        if target != record.file:
            yield target, record.body[max(0, start - 60):start + 60].strip()


def repo_agreement(older: Entry, newer: Entry, ctx: ProbeContext) -> JSON | None:
    """The last commit between the two memories' dates that touched a path both name."""
    facts = ctx.facts
    if not facts.available:
        return None
    def tracked_paths(entry: Entry) -> set[str]:
        return {m.path for m in entry_mentions(entry, ctx) if m.path in facts.tracked}
    shared = tracked_paths(older) & tracked_paths(newer)
    start, end = older.written_at[0], newer.written_at[0] + SLACK
    best: tuple[CommitInfo, str] | None = None
    for path in sorted(shared):
        for commit in _touching(ctx, path):
            if start <= commit.date <= end and (best is None or commit.date > best[0].date):
                best = (commit, path)
    if best is None:
        return None
    return {**commit_fields(ctx, best[0].sha), "path": best[1]}


def _touching(ctx: ProbeContext, path: str) -> list[CommitInfo]:
    def build() -> list[CommitInfo]:
        return [c.info for c in ctx.facts.history
                if any(ch.path == path for ch in c.changes)]
    return ctx.memo(f"decision.touching.{path}", build)
