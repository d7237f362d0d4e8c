"""count-drift: counts of files and directories that no longer match the tracked tree."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    Correction,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.evidence.probes.countrules import (
    CountClaim,
    CountSpec,
    builtin_claims,
    user_claims,
)
from prune_memory.evidence.probes.evidence import commit_fields, said, subject_note
from prune_memory.evidence.probes.pathfacts import tracked_tails, unique
from prune_memory.evidence.probes.recount import last_change, recount, tree_index
from prune_memory.model import Entry, FindingCode

KIND = "count"


class CountProbe:
    """Recounts what a memory counts; the user's rules are tried before the built-in ones."""

    code = FindingCode.COUNT_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        result = EMPTY
        for claim in _claims(entry.text, ctx):
            result = result + _check(claim, ctx)
        return result


def stated_counts(text: str, ctx: ProbeContext
                  ) -> tuple[tuple[CountClaim, ...], tuple[CountClaim, ...]]:
    """The user's rules' claims and the built-in ones in `text`, read once per pass for
    this probe and the prose-count probe alike."""
    known: dict[str, tuple[tuple[CountClaim, ...], tuple[CountClaim, ...]]] = \
        ctx.memo("count.claims", dict)
    found = known.get(text)
    if found is None:
        found = known[text] = (tuple(user_claims(text, ctx.config.count_rules)),
                               tuple(builtin_claims(text)))
    return found


def _claims(text: str, ctx: ProbeContext) -> Iterator[CountClaim]:
    taken: list[tuple[int, int]] = []
    users, builtin = stated_counts(text, ctx)
    for claim in [*users, *builtin]:
        if claim.number < 0 or any(claim.start < end and start < claim.end
                                   for start, end in taken):
            continue
        taken.append((claim.start, claim.end))
        yield claim


def _check(claim: CountClaim, ctx: ProbeContext) -> ProbeResult:
    facts = ctx.facts
    if not facts.available:
        if claim.spec.what == "children":
            return EMPTY
        return _claim(claim, Verdict.UNVERIFIABLE, "no git repository to check against")
    tree = tree_index(ctx)
    spec = _placed(claim.spec, ctx)
    counted = ctx.memo(f"count.{spec!r}", lambda: recount(facts, tree, spec))
    if counted is None:
        return EMPTY
    note = f"{counted.total}: {counted.how}"
    if counted.total == claim.number:
        return _claim(claim, Verdict.CONFIRMED, note)
    change = ctx.memo(f"count-change.{spec!r}", lambda: last_change(facts, tree, counted))
    commit = change[0] if change else (facts.commits[0].sha if facts.commits else None)
    since = f"; it last changed from {change[1]} to {change[2]}" if change else ""
    where = f" in {commit[:7]}{subject_note(ctx, commit)}" if change and commit else ""
    message = (f"says \"{claim.phrase.strip('` ')}\" but the repo has {counted.total} "
               f"({counted.how}{since}{where})")
    evidence = said(claim.number, counted.total, counted=counted.how, phrase=claim.phrase,
                    previous=change[1] if change else None, **commit_fields(ctx, commit))
    fix = Correction(claim.phrase, _renumber(claim, counted.total))
    return ProbeResult((Claim(KIND, claim.phrase, Verdict.CONTRADICTED, note),),
                       (flag(FindingCode.COUNT_DRIFT, message, evidence, fix),))


def _placed(spec: CountSpec, ctx: ProbeContext) -> CountSpec:
    """The count's directory as the repo holds it: `agent/skills/` is `app/agent/skills/`
    when that is the one tracked directory ending so."""
    directories = ctx.facts.directories
    if not spec.scope or spec.scope in directories:
        return spec
    full = unique(tracked_tails(spec.scope, ctx))
    return replace(spec, scope=full) if full in directories else spec


def _renumber(claim: CountClaim, actual: int) -> str:
    index = claim.phrase.find(claim.number_text)
    if index < 0:
        return claim.phrase
    return claim.phrase[:index] + str(actual) + claim.phrase[index + len(claim.number_text):]


def _claim(claim: CountClaim, verdict: Verdict, note: str) -> ProbeResult:
    return ProbeResult((Claim(KIND, claim.phrase, verdict, note),))
