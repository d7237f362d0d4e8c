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
from prune_memory.evidence.probes.evidence import arrivals, commit_fields, said
from prune_memory.evidence.probes.pathfacts import entry_mentions, present
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
        result = _uncommitted(entry, ctx)
        claims = list(open_claims(entry.description)) + list(open_claims(entry.body))
        if not claims:
            return result
        closures = ctx.memo("state.closures", lambda: closures_in(ctx.facts.commits))
        for claim in claims:
            result = result + _check(claim, closures, ctx)
        return result


# "NOT committed", "uncommitted", "未提交": a status the memory gives its own work.
# Said as a status: opening its clause ("Not committed (user owns git)"), shouted ("source
# edits, NOT committed"), or labelled ("Status: uncommitted"); not a rule about uncommitted
# work in general.
UNCOMMITTED = re.compile(
    r"(?:^|[(\[;:.!?—–]|\*\*|\bstatus\s*[:：])\s*\**\s*(?:(?i:not (?:yet )?committed|uncommitted))"
    r"|\bNOT (?:YET )?(?:committed|COMMITTED)\b|\bUNCOMMITTED\b|未提交|尚未提交",
    re.MULTILINE)
MIN_NAMED_FILES = 1


def _uncommitted(entry: Entry, ctx: ProbeContext) -> ProbeResult:
    """The memory calls its work not committed, yet git has every file it names: the
    status is stale. The commit that first added one of them is the evidence."""
    if not ctx.facts.available or entry.memory_type in ("feedback", "user"):
        return EMPTY  # a rule may speak of uncommitted work; it has no status of its own
    status = UNCOMMITTED.search(entry.text)
    if status is None:
        return EMPTY
    named = [m.path for m in entry_mentions(entry, ctx) if "." in m.path.rsplit("/", 1)[-1]]
    tracked = {p: full for p in named if (full := _tracked_as(p, ctx)) is not None}
    if len(tracked) < MIN_NAMED_FILES or 2 * len(tracked) < len(named):
        return EMPTY  # much of what it names is not in git: it may well be uncommitted
    added = arrivals(ctx)
    path = max(tracked.values(), key=lambda p: (_first_date(added.get(p)), p))
    commit = added[path][0].sha if path in added else ""
    fields = commit_fields(ctx, commit) if commit else {"commit": None, "date": None}
    when = f" (`{path}` added in {fields.get('short')} on {fields.get('date')})" if commit else ""
    message = (f"says its work is {status.group(0)!r}, but git has all {len(tracked)} files "
               f"it names{when}")
    evidence = said(status.group(0), "committed", kind="uncommitted-status",
                    files=sorted(tracked.values())[:10], **fields)
    claim = Claim(KIND, status.group(0), Verdict.CONTRADICTED, "committed since")
    return ProbeResult((claim,), (flag(FindingCode.STATE_DRIFT, message, evidence),))


def _tracked_as(path: str, ctx: ProbeContext) -> str | None:
    """The tracked file `path` names: itself, or the one tracked file it is the tail of."""
    if path in ctx.facts.tracked:
        return path
    where = present(path, ctx) or ""
    return where.removeprefix("tracked as `").removesuffix("`") \
        if where.startswith("tracked as `") else None


def _first_date(added: tuple[CommitInfo, ...] | None) -> str:
    """When a path first arrived (ISO), or "" when git never added it."""
    return added[0].date.isoformat() if added else ""


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
