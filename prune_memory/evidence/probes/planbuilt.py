"""Plans git shows were built since: what the plan would add, added by a later session.

A plan that names what it will add ("add a `UsbLinkManager` class", "create
`scripts/setup.sh`") is carried out, at least in part, when history shows that thing
arriving after the memory was last written. The memory still says "planned" while the code
says "done": a person updates it to what exists, or withdraws it. Only arrival in history
counts, never absence; a thing added within a day of the memory may be the very work the
memory was written during, so it proves nothing. A to-do line ("TODO: Core Erlang target")
is built when a later commit's subject says most of its telling words. Rules and
preferences (`feedback`, `user`) talk about planning; they are not plans.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import timedelta

from prune_memory.evidence.githistory import CommitInfo
from prune_memory.evidence.probes.base import ProbeContext
from prune_memory.evidence.probes.pathfacts import entry_mentions, is_placeholder
from prune_memory.model import JSON, Entry

LATER_SESSION = timedelta(days=1)
NOT_PLANS = frozenset({"feedback", "user"})
# A type name in backticks: `UsbLinkManager`, `HTTPServer` (one lower-case letter at least,
# checked apart: one run of letters, never tried two ways).
_TYPE_NAME = re.compile(r"`([A-Z][A-Za-z0-9]*+)`")
_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def built_since(entry: Entry, ctx: ProbeContext) -> list[JSON]:
    """What `entry` names that history added a day or more after it was last written."""
    if entry.memory_type in NOT_PLANS or not ctx.facts.history:
        return []
    arrivals = ctx.memo("plan.arrivals", lambda: _arrivals(ctx))
    after = entry.written_at[0] + LATER_SESSION
    found: dict[str, JSON] = {}
    for named, path in _named_files(entry, ctx):
        commit = arrivals.get(path)
        if commit is not None and commit.date > after and path not in found:
            found[path] = {"named": named, "path": path, "commit": commit.sha,
                           "short": commit.short, "date": commit.day,
                           "subject": commit.subject}
    return list(found.values())


def _named_files(entry: Entry, ctx: ProbeContext) -> Iterator[tuple[str, str]]:
    """Tracked files the entry names: by path, or by a type name whose file is named after
    it (`UsbLinkManager` → the one tracked `usb_link_manager.*` or `UsbLinkManager.*`)."""
    for mention in entry_mentions(entry, ctx):
        if mention.path in ctx.facts.tracked and not is_placeholder(mention.path):
            yield mention.raw, mention.path
    stems = ctx.memo("plan.stems", lambda: _tracked_by_stem(ctx))
    for name in dict.fromkeys(_TYPE_NAME.findall(entry.body)):
        if name.isupper() or name.isdigit():
            continue
        words = _WORD_START.sub("_", name).lower()
        paths = {p for key in (words, words.replace("_", "-"), name.lower())
                 for p in stems.get(key, ())}
        if len(paths) == 1:
            yield name, paths.pop()


def _arrivals(ctx: ProbeContext) -> Mapping[str, CommitInfo]:
    """The commit that first added each path (history is oldest first)."""
    first: dict[str, CommitInfo] = {}
    for commit in ctx.facts.history:
        for change in commit.changes:
            if change.status == "A":
                first.setdefault(change.path, commit.info)
    return first


def _tracked_by_stem(ctx: ProbeContext) -> Mapping[str, tuple[str, ...]]:
    """Tracked files by their lower-cased name without its extension."""
    table: dict[str, list[str]] = {}
    for path in ctx.facts.tracked:
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0].lower()
        table.setdefault(stem, []).append(path)
    return {stem: tuple(paths) for stem, paths in table.items()}


# A to-do line: "TODO: LSP diagnostics, multi-file support", "- [ ] VS Code extension".
_TODO_LINE = re.compile(r"^\W*(?:todo|next|planned|\[ \])\s*[:：-]?\s*(.+)$",
                        re.IGNORECASE | re.MULTILINE)
_ITEM_SPLIT = re.compile(r"[,;]\s+|\s+\+\s+")
_ASIDE = re.compile(r"\([^()]*\)|`[^`]*/[^`]*`")
_TELLING = re.compile(r"[^\W_\d]{3,}")
# Words a commit and a to-do share without saying the same thing.
_SAID_BY_ALL = frozenset({
    "add", "added", "adds", "the", "and", "for", "with", "from", "into", "support", "new",
    "fix", "fixes", "fixed", "update", "updated", "use", "make", "more", "all", "some", "via",
    "task", "tasks", "todo", "next", "initial", "basic", "first", "feat", "chore", "docs",
    "test", "tests", "refactor", "wip", "merge", "branch", "pull", "request", "see", "plan"})
ITEM_WORDS_AT = 2  # telling words an item needs before a commit can say it
ITEM_SHARE_AT = 0.6  # the share of them the commit's subject must say


def done_since(entry: Entry, ctx: ProbeContext) -> list[JSON]:
    """To-do items a commit a day or more after the memory was written says it did:
    "TODO: Core Erlang target" against "Core Erlang compilation target MVP"."""
    if entry.memory_type in NOT_PLANS or not ctx.facts.history:
        return []
    items = [(item.strip(), words) for line in _TODO_LINE.findall(entry.body)
             for item in _ITEM_SPLIT.split(_ASIDE.sub(" ", line))
             if len(words := _telling(item)) >= ITEM_WORDS_AT]
    if not items:
        return []
    after = entry.written_at[0] + LATER_SESSION
    commits = ctx.memo("plan.subjects", lambda: [(c.info, _telling(c.info.subject))
                                                 for c in ctx.facts.history])
    found: list[JSON] = []
    for item, words in items:
        need = max(ITEM_WORDS_AT, -(-len(words) * ITEM_SHARE_AT // 1))
        hit = next((info for info, said in commits
                    if info.date > after and len(words & said) >= need), None)
        if hit is not None:
            found.append({"named": item, "path": None, "commit": hit.sha, "short": hit.short,
                          "date": hit.day, "subject": hit.subject})
    return found


def _telling(text: str) -> frozenset[str]:
    return frozenset(w.lower().removesuffix("s") for w in _TELLING.findall(text)
                     if w.lower() not in _SAID_BY_ALL)
