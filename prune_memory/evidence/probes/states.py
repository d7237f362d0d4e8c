"""state-drift: an issue or PR a memory calls open or in progress that a commit has closed.

Only commit messages are read, so silence proves nothing: an open claim with no
closing commit stays unverifiable (the tracker lives outside the repo).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from prune_memory.analysis.text import sentences, short_quote
from prune_memory.evidence.gitrepo import CommitInfo
from prune_memory.evidence.probes.base import EMPTY, Claim, ProbeContext, ProbeResult, Verdict, flag
from prune_memory.evidence.probes.evidence import commit_fields, said
from prune_memory.matching.regexgate import GatedPattern
from prune_memory.model import Entry, FindingCode

KIND = "state"
REF = re.compile(r"(?:\b(?P<kind>issues?|bugs?|tickets?|PRs?|pull\s+requests?|MRs?)\s*)?"
                 r"(?<![\w/])#(?P<num>\d{1,7})\b", re.IGNORECASE)
OPEN = re.compile(
    r"\b(?:open|still\s+open|in[\s-]progress|pending|WIP|working\s+on|currently|debugging"
    r"|investigating|blocked|todo|to\s+do|unresolved|awaiting|in\s+review|under\s+review"
    r"|ongoing|not\s+(?:yet\s+)?(?:fixed|merged|resolved|closed))\b", re.IGNORECASE)
DONE = GatedPattern(r"(?<!not )(?<!not yet )\b(?:fixed|closed|merged|resolved|shipped|landed)\b",
                  re.IGNORECASE)
CLOSING = GatedPattern(
    r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+(?P<refs>#\d+(?:\s*(?:,|and|&)\s*#\d+)*)",
    re.IGNORECASE)
MERGED = GatedPattern(r"^Merge (?:pull|merge) request [!#](?P<num>\d+)|\(#(?P<squash>\d+)\)\s*$",
                    re.IGNORECASE)
PR_WORDS = re.compile(r"^(?:prs?|pull\s+requests?|mrs?)$", re.IGNORECASE)


@dataclass(frozen=True)
class StateClaim:
    number: int
    is_pr: bool
    sentence: str

    @property
    def label(self) -> str:
        return f"{'PR' if self.is_pr else 'issue'} #{self.number}"


@dataclass(frozen=True)
class Closures:
    closed: Mapping[int, CommitInfo]
    merged: Mapping[int, CommitInfo]


class StateProbe:
    code = FindingCode.STATE_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        claims = list(open_claims(entry.description)) + list(open_claims(entry.body))
        if not claims:
            return EMPTY
        closures = ctx.memo("state.closures", lambda: closures_in(ctx.facts.commits))
        result = EMPTY
        for claim in claims:
            result = result + _check(claim, closures, ctx)
        return result


def open_claims(text: str) -> Iterator[StateClaim]:
    """Sentences that call an issue or PR open, pending or in progress."""
    if "#" not in text:
        return  # every reference is `#<number>`: most memories hold none
    seen: set[tuple[int, bool]] = set()
    for sentence in sentences(text):
        if not OPEN.search(sentence) or DONE.search(sentence):
            continue
        for match in REF.finditer(sentence):
            kind = match.group("kind") or ""
            key = (int(match.group("num")), bool(PR_WORDS.match(kind.strip())))
            if key not in seen:
                seen.add(key)
                yield StateClaim(key[0], key[1], sentence)


def closures_in(commits: tuple[CommitInfo, ...]) -> Closures:
    """The newest commit closing each issue number, and merging each PR number."""
    closed: dict[int, CommitInfo] = {}
    merged: dict[int, CommitInfo] = {}
    for commit in reversed(commits):  # oldest first, so the newest wins
        for match in CLOSING.finditer(commit.message):
            for number in re.findall(r"#(\d+)", match.group("refs")):
                closed[int(number)] = commit
        found = MERGED.search(commit.subject)
        if found:
            merged[int(found.group("num") or found.group("squash"))] = commit
    return Closures(closed, merged)


def _check(claim: StateClaim, closures: Closures, ctx: ProbeContext) -> ProbeResult:
    if not ctx.facts.available:
        return _claim(claim, Verdict.UNVERIFIABLE, "no git repository to check against")
    commit = closures.closed.get(claim.number)
    verb = "closes"
    if claim.is_pr and claim.number in closures.merged:
        commit, verb = closures.merged[claim.number], "merges"
    if commit is None:
        return _claim(claim, Verdict.UNVERIFIABLE, "no commit closes it; the tracker may")
    story = f"{verb} it: {commit.short} on {commit.day} (\"{short_quote(commit.subject, 90)}\")"
    message = f"calls {claim.label} open or in progress, but a commit {story}"
    evidence = said(short_quote(clause_with(claim.sentence, f"#{claim.number}")),
                    "merged" if verb == "merges" else "closed", reference=claim.label,
                    **commit_fields(ctx, commit.sha))
    return ProbeResult((Claim(KIND, claim.label, Verdict.CONTRADICTED, story),),
                       (flag(FindingCode.STATE_DRIFT, message, evidence),))


def clause_with(sentence: str, needle: str) -> str:
    """The part of a sentence around `needle`, cut at colons, semicolons and dashes."""
    return next((part.strip() for part in re.split(r"[:;—–]|\s-\s", sentence) if needle in part),
                sentence)


def _claim(claim: StateClaim, verdict: Verdict, note: str) -> ProbeResult:
    return ProbeResult((Claim(KIND, claim.label, verdict, note),))
