"""Evidence every probe shares: the commit behind a fact, in the same keys everywhere.

Keys: `memory_says` (and `claim`, the same text), `repo_says`, `commit` (full sha),
`short`, `date` (YYYY-MM-DD) and `subject` (the commit's first line).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prune_memory.evidence.gitrepo import CommitInfo
from prune_memory.evidence.probes.base import ProbeContext
from prune_memory.model import JSON


def commits_by_id(ctx: ProbeContext) -> Mapping[str, CommitInfo]:
    """Every commit under its full and its short sha."""
    def build() -> dict[str, CommitInfo]:
        table: dict[str, CommitInfo] = {}
        for commit in ctx.facts.commits:
            table[commit.sha] = commit
            table[commit.short] = commit
        return table
    return ctx.memo("evidence.commits", build)


def commit_fields(ctx: ProbeContext, commit_id: str | None) -> JSON:
    """commit / short / date / subject for a sha (full or short); nulls when unknown."""
    commit = commits_by_id(ctx).get(commit_id or "")
    if commit is None:
        return {"commit": commit_id, "short": commit_id, "date": None, "subject": None}
    return {"commit": commit.sha, "short": commit.short, "date": commit.day,
            "subject": commit.subject}


def last_commit_on(path: str, ctx: ProbeContext) -> JSON | None:
    """commit / short / date / subject of the last commit that changed `path`."""
    def build() -> dict[str, str]:
        table: dict[str, str] = {}
        for commit in ctx.facts.history:  # oldest first: the newest change wins
            for change in commit.changes:
                table[change.path] = commit.info.sha
        return table
    sha = ctx.memo("evidence.last-change", build).get(path)
    return commit_fields(ctx, sha) if sha else None


def arrivals(ctx: ProbeContext) -> Mapping[str, tuple[CommitInfo, ...]]:
    """Path → every commit that added it, or moved or copied it there, oldest first."""
    def build() -> dict[str, tuple[CommitInfo, ...]]:
        table: dict[str, list[CommitInfo]] = {}
        for commit in ctx.facts.history:  # oldest first
            for change in commit.changes:
                if change.status[:1] in "ACR":
                    table.setdefault(change.path, []).append(commit.info)
        return {path: tuple(commits) for path, commits in table.items()}
    return ctx.memo("evidence.arrivals", build)


def said(memory_says: Any, repo_says: Any, **extra: Any) -> JSON:
    """The two sides of a finding, plus whatever else the probe knows."""
    return {"memory_says": memory_says, "claim": memory_says, "repo_says": repo_says, **extra}


def subject_note(ctx: ProbeContext, commit_id: str) -> str:
    """` ("subject")` after a commit in a message, or nothing."""
    subject = commit_fields(ctx, commit_id)["subject"]
    return f" (\"{subject}\")" if subject else ""
