"""Compression loss (step 3): a short decision memory whose source commit gave a reason the
memory dropped.

The procedure searches `git log --grep` for a memory's key terms to find the discussion it
summarises. Here the one log pass the repo reader already made serves as that search: the
commit messages are indexed once per pass, a memory's rarest words pick the commit it most
likely came from, and when that message explains *why* ("because…", "to avoid…") while the
memory only names *what*, the memory kept the topic label and lost the insight. The finding
is a utility signal for a person, not a contradiction: nothing in the memory is wrong.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from prune_memory.analysis.classify import classify
from prune_memory.analysis.contradictions import FILLER, stem
from prune_memory.analysis.similarity import tokens
from prune_memory.analysis.text import short_quote
from prune_memory.evidence.gitrepo import CommitInfo
from prune_memory.evidence.probes.base import EMPTY, Flagged, ProbeContext, ProbeResult
from prune_memory.evidence.probes.base import flag as flagged
from prune_memory.model import Entry, FindingCode, MemoryClass

KIND = "compression-loss"
MAX_MEMORY_CHARS = 400  # longer memories are not compressed summaries
MIN_SHARED = 2  # rare words a memory and its source commit must share
RARE_SHARE = 0.05  # a key term is in at most this share of commits (and at most 3 anyway)
MIN_TERM = 4
_REASON = re.compile(
    r"\b(?:because|since\s+(?:the|it|we|they|our|this)|so\s+that|to\s+avoid|to\s+prevent|"
    r"in\s+order\s+to|instead\s+of|rather\s+than|due\s+to|trade-?off|the\s+reason|"
    r"otherwise|motivation|why:)", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class CommitIndex:
    """Commit messages by stemmed word, built once per pass from the one log pass."""

    commits: tuple[CommitInfo, ...]
    by_word: dict[str, frozenset[int]]

    @classmethod
    def build(cls, commits: Sequence[CommitInfo]) -> CommitIndex:
        found: dict[str, set[int]] = defaultdict(set)
        for number, commit in enumerate(commits):
            for word in _words(commit.message):
                found[word].add(number)
        return cls(tuple(commits), {w: frozenset(n) for w, n in found.items()})

    def source(self, words: set[str]) -> tuple[CommitInfo, list[str]] | None:
        """The commit sharing most of the memory's rare words (`git log --grep … --all-match`
        on the best pair of terms), or None when no commit shares enough of them."""
        limit = max(1, min(3, int(len(self.commits) * RARE_SHARE)))
        rare = [w for w in words if 0 < len(self.by_word.get(w, ())) <= limit]
        hits: dict[int, list[str]] = defaultdict(list)
        for word in rare:
            for number in self.by_word[word]:
                hits[number].append(word)
        best = max(hits.items(), key=lambda item: (len(item[1]), -item[0]), default=None)
        if best is None or len(best[1]) < MIN_SHARED:
            return None
        return self.commits[best[0]], sorted(best[1])


class CompressionProbe:
    """Flags a decision or pattern memory that dropped the reason its source commit gave."""

    code = FindingCode.LOW_UTILITY

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        text = entry.body or entry.description
        if not ctx.facts.available or len(text) > MAX_MEMORY_CHARS or _REASON.search(text):
            return EMPTY
        if classify(entry).cls not in (MemoryClass.DECISION, MemoryClass.PATTERN):
            return EMPTY
        index = ctx.memo("compression.index", lambda: CommitIndex.build(ctx.facts.commits))
        found = index.source(_words(entry.text))
        if found is None:
            return EMPTY
        commit, shared = found
        reason = _reason(commit.message)
        if reason is None or len(commit.message) < len(text) * 1.5:
            return EMPTY
        return ProbeResult((), (_finding(commit, shared, reason),))


def _words(text: str) -> set[str]:
    return {stem(w) for w in tokens(text)
            if len(w) >= MIN_TERM and w not in FILLER and not w.isdigit()}


def _reason(message: str) -> str | None:
    """The first sentence of the message that gives a reason."""
    return next((s.strip() for s in _SENTENCE.split(message) if _REASON.search(s)), None)


def _finding(commit: CommitInfo, shared: list[str], reason: str) -> Flagged:
    quote = short_quote(reason, 140)
    return flagged(
        FindingCode.LOW_UTILITY,
        f"summarises commit {commit.short} (\"{short_quote(commit.subject, 70)}\") but drops "
        f"the reason it gave: \"{quote}\"; add the reason, or check that it still holds",
        {"kind": KIND, "commit": commit.sha, "short": commit.short, "date": commit.day,
         "subject": short_quote(commit.subject, 120), "reason": quote, "key_terms": shared})
