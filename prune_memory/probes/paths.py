"""path-drift: paths a memory names that the repo no longer tracks under that name."""

from __future__ import annotations

from prune_memory.gitrepo import DeletionFact, RenameFact, RepoFacts
from prune_memory.model import JSON, Entry, FindingCode
from prune_memory.probes.base import (
    EMPTY,
    Claim,
    Correction,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.probes.dirfate import directory_fate
from prune_memory.probes.evidence import commit_fields, said, subject_note
from prune_memory.probes.pathclaims import PathMention, memory_names, path_mentions
from prune_memory.probes.text import has_standalone, mentions_change, sentence_with

KIND = "path"


class PathProbe:
    """Checks every path-like mention against the tracked tree and the rename history."""

    code = FindingCode.PATH_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        skip = ctx.memo("path.memory-names", lambda: memory_names(ctx.memdir))
        mentions = path_mentions(entry, ctx.facts.root, ctx.facts.seen, skip)
        result = EMPTY
        for mention in mentions:
            result = result + _check_one(entry, mention, ctx)
        return result


def _check_one(entry: Entry, mention: PathMention, ctx: ProbeContext) -> ProbeResult:
    facts = ctx.facts
    if not facts.available:
        if not mention.has_slash:
            return EMPTY
        return _claim(mention, Verdict.UNVERIFIABLE, "no git repository to check against")
    path = mention.path
    if path in facts.tracked or path in facts.directories:
        kind = "directory" if path in facts.directories else "file"
        return _claim(mention, Verdict.CONFIRMED, f"tracked {kind}")
    if not mention.has_slash and path in _basenames(ctx):
        return _claim(mention, Verdict.CONFIRMED, "a tracked file has this name")
    fate: RenameFact | DeletionFact | None = facts.renames.get(path) or facts.deletions.get(path)
    if fate is None:
        fate = directory_fate(facts, path)
    if fate is None and path in facts.seen:
        return _gone_untraced(mention)
    if fate is None:
        return _never_seen(mention, facts) if mention.has_slash else EMPTY
    if _told_as_history(entry, mention, fate):
        return _claim(mention, Verdict.CONFIRMED, "mentioned as history of a rename or removal")
    return _drift(mention, fate, ctx)


def _drift(mention: PathMention, fate: RenameFact | DeletionFact,
           ctx: ProbeContext) -> ProbeResult:
    if isinstance(fate, DeletionFact):
        story = f"deleted in {fate.commit} on {fate.date.date()}"
        evidence = said(mention.path, "deleted", **commit_fields(ctx, fate.sha or fate.commit))
        message = f"`{mention.path}` was {story}{subject_note(ctx, fate.commit)}"
        return _contradicted(mention, story, message, evidence)
    story = _rename_story(fate)
    evidence = said(mention.path, fate.current or "not tracked",
                    **commit_fields(ctx, fate.sha or fate.commit))
    evidence["chain"] = [{"from": h.old, "to": h.new,
                          **commit_fields(ctx, h.sha or h.commit)} for h in fate.hops]
    if fate.deleted is not None:
        evidence["deleted"] = commit_fields(ctx, fate.deleted.sha or fate.deleted.commit)
    message = f"`{mention.path}` was {story}{subject_note(ctx, fate.hops[-1].commit)}"
    if fate.current is None:
        return _contradicted(mention, story, message, evidence)
    evidence["current_path"] = fate.current
    fix = Correction(mention.raw, _rewrite(mention.raw, mention.path, fate.current))
    return _contradicted(mention, story, message, evidence, fix)


def _rename_story(fate: RenameFact) -> str:
    first = fate.hops[0]
    story = f"renamed to `{first.new}` in {first.commit} on {first.date.date()}"
    for hop in fate.hops[1:]:
        story += f", then to `{hop.new}` in {hop.commit} on {hop.date.date()}"
    if fate.deleted is not None:
        story += (f", and `{fate.last_name}` was deleted in {fate.deleted.commit} "
                  f"on {fate.deleted.date.date()}")
    elif fate.current is None:
        story += f"; `{fate.last_name}` is not tracked now"
    return story


def _contradicted(mention: PathMention, story: str, message: str, evidence: JSON,
                  *fixes: Correction) -> ProbeResult:
    claim = Claim(KIND, mention.raw, Verdict.CONTRADICTED, story)
    return ProbeResult((claim,), (flag(FindingCode.PATH_DRIFT, message, evidence, *fixes),))


def _gone_untraced(mention: PathMention) -> ProbeResult:
    story = "not tracked now, though earlier commits had it"
    message = f"`{mention.path}` is {story}; the history does not show one place it went"
    evidence = said(mention.path, "not tracked", commit=None, date=None)
    return _contradicted(mention, story, message, evidence)


def _never_seen(mention: PathMention, facts: RepoFacts) -> ProbeResult:
    shallow = " (the clone is shallow, so older history is missing)" if facts.shallow else ""
    story = "never tracked in this repo's history" + shallow
    message = (f"`{mention.path}` is not in the repo and never was{shallow}; "
               "it may live outside the repo, so it cannot be checked")
    evidence = said(mention.path, story, commit=None, date=None)
    claim = Claim(KIND, mention.raw, Verdict.UNVERIFIABLE, story)
    return ProbeResult((claim,), (flag(FindingCode.UNVERIFIABLE, message, evidence),))


def _told_as_history(entry: Entry, mention: PathMention, fate: RenameFact | DeletionFact) -> bool:
    """The entry itself records the move or removal, so the old name is not a stale claim."""
    if mentions_change(sentence_with(entry, mention.raw)):
        return True
    if isinstance(fate, RenameFact):
        return any(has_standalone(entry.text, hop.new) for hop in fate.hops)
    return False


def _rewrite(raw: str, path: str, current: str) -> str:
    index = raw.find(path)
    return raw[:index] + current + raw[index + len(path):] if index >= 0 else current


def _claim(mention: PathMention, verdict: Verdict, note: str) -> ProbeResult:
    return ProbeResult((Claim(KIND, mention.raw, verdict, note),))


def _basenames(ctx: ProbeContext) -> frozenset[str]:
    return ctx.memo("path.basenames",
                    lambda: frozenset(p.rsplit("/", 1)[-1] for p in ctx.facts.tracked))
