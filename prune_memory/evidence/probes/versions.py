"""version-drift: tools that left the manifests (naming the successor) and versions that moved."""

from __future__ import annotations

import re

from prune_memory.analysis.text import (
    entry_sentences,
    has_standalone,
    match_case,
    mentions_change,
    short_quote,
    told_as_past,
)
from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    Correction,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.evidence.probes.evidence import commit_fields, said, subject_note
from prune_memory.evidence.probes.semver import exact, parse_version, satisfies, shown
from prune_memory.evidence.probes.tools import display_name
from prune_memory.evidence.probes.versionfacts import (
    Declared,
    Departure,
    VersionState,
    needs_marking,
    resolve,
    version_state,
)
from prune_memory.model import Entry, FindingCode

KIND = "version"
# A version right after a tool's name ("React 17", "Python 3.12", "@2"); "hashbrown 2×"
# counts copies, "syn 1.x" names a range and "eslint 0 errors" a tally: no version claim.
VERSION_AFTER = re.compile(r"^(?:\s*(?:@|version\s+|v(?=\d))(\d+(?:\.\d+){0,2})"
                           r"|\s+v?(\d+(?:\.\d+){0,2}))(?![\w.]*\d)(?![×]|\.x\b|x\b)"
                           r"(?!\s*(?:errors?|warnings?|problems?|issues?|failures?|failed|"
                           r"passed|passing|tests?|files?|findings?|violations?|vulnerabilit"
                           r"(?:y|ies)|hits?|matches|occurrences?|%)(?![\w-]))")
NEGATED = re.compile(r"\b(?:not|never|don'?t|do\s+not|avoid|instead\s+of|rather\s+than|without"
                     r"|unlike|except)\b", re.IGNORECASE)


class VersionProbe:
    code = FindingCode.VERSION_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        if not ctx.facts.available:
            return EMPTY
        state = ctx.memo("version.state", lambda: version_state(ctx.facts))
        if state.mentions is None:
            return EMPTY
        result = EMPTY
        seen: set[tuple[str, str]] = set()
        for sentence in entry_sentences(entry):
            if NEGATED.search(sentence):
                continue
            for match in state.mentions.finditer(sentence):
                result = result + _mention(entry, sentence, match, ctx, seen)
        return result


def _mention(entry: Entry, sentence: str, match: re.Match[str], ctx: ProbeContext,
             seen: set[tuple[str, str]]) -> ProbeResult:
    state: VersionState = ctx.memo("version.state", lambda: version_state(ctx.facts))
    written = match.group(0)
    kind, name = resolve(written)
    version_match = VERSION_AFTER.match(sentence[match.end():])
    version = (version_match.group(1) or version_match.group(2)) if version_match else None
    phrase = written + (sentence[match.end():match.end() + version_match.end()]
                        if version_match else "")
    marked = version is not None or f"`{written}" in sentence
    scoped = state.scopes.get(name) if kind == "package" else None
    if scoped is not None:  # a scope is a plain word too: only with its version
        if version is None:
            return EMPTY
        name = scoped
    if (needs_marking(written) and not marked) or (kind, name) in seen:
        return EMPTY
    seen.add((kind, name))
    if kind == "runtime":
        return _runtime(phrase, version, state.runtimes.get(name, ()), ctx) if version else EMPTY
    declared = state.packages.get(name)
    if declared:
        return _package_version(phrase, version, declared, state, name, ctx) if version else \
            _claim(written, Verdict.CONFIRMED, f"declared in {declared[0].path}")
    departure = state.departed.get(name)
    if departure is None:
        return EMPTY
    return _departed(entry, sentence, written, phrase, departure, ctx)


def _departed(entry: Entry, sentence: str, written: str, phrase: str,
              gone: Departure, ctx: ProbeContext) -> ProbeResult:
    successors = [display_name(s) for s in gone.successors]
    if _as_history(entry, sentence, successors):
        return _claim(phrase, Verdict.CONFIRMED, "mentioned as history of a tool change")
    if not successors:
        # A package leaving a manifest says the code stopped importing it; the memory may
        # mean the service of that name (a Redis server, say). Only a named successor in the
        # same change says the project replaced the tool.
        return _claim(phrase, Verdict.UNVERIFIABLE, f"`{gone.package}` left {gone.manifest} "
                                                   f"in {gone.commit}, no successor named")
    story = f"`{gone.package}` left {gone.manifest} in {gone.commit} on {gone.date.date()}"
    if successors:
        story += f", replaced by {', '.join(f'`{s}`' for s in successors)}"
    message = f"says {short_quote(phrase, 60)} but {story}{subject_note(ctx, gone.commit)}"
    evidence = said(phrase, successors[0] if len(successors) == 1 else successors or "absent",
                    tool=gone.package, file=gone.manifest, last_declared=gone.last_spec,
                    sentence=short_quote(sentence), **commit_fields(ctx, gone.commit))
    fixes = [Correction(phrase, match_case(written, successors[0]), residue=gone.package)] \
        if len(successors) == 1 else []
    return ProbeResult((Claim(KIND, phrase, Verdict.CONTRADICTED, story),),
                       (flag(FindingCode.VERSION_DRIFT, message, evidence, *fixes),))


def _as_history(entry: Entry, sentence: str, successors: list[str]) -> bool:
    """The entry tells the change itself, or narrates the old tool in the past tense."""
    if mentions_change(sentence) or told_as_past(sentence):
        return True
    if any(has_standalone(entry.text, s, True) for s in successors):
        return True
    return any(mentions_change(other) for other in entry_sentences(entry))


def _package_version(phrase: str, version: str, declared: tuple[Declared, ...],
                     state: VersionState, name: str, ctx: ProbeContext) -> ProbeResult:
    claimed = parse_version(version)
    source = next((d for d in declared if d.locked), declared[0])
    answer = satisfies(claimed, source.spec) if claimed else None
    if answer is None:
        return _claim(phrase, Verdict.UNVERIFIABLE, f"{source.path} declares {source.spec!r}")
    if answer:
        return _claim(phrase, Verdict.CONFIRMED, f"{source.path} declares {source.spec!r}")
    change = state.last_change(name, declared[0].path)
    return _moved(phrase, version, source, change.commit if change else None, ctx)


def _runtime(phrase: str, version: str, declared: tuple[Declared, ...],
             ctx: ProbeContext) -> ProbeResult:
    claimed = parse_version(version)
    pinned = [d for d in declared if exact(d.spec)] or list(declared)
    answers = [(d, satisfies(claimed, d.spec)) for d in pinned] if claimed else []
    if not answers or all(a is None for _d, a in answers):
        return EMPTY
    if any(a for _d, a in answers):
        source = next(d for d, a in answers if a)
        return _claim(phrase, Verdict.CONFIRMED, f"{source.path} declares {source.spec!r}")
    source = pinned[0]
    return _moved(phrase, version, source, None, ctx)


def _moved(phrase: str, version: str, source: Declared, commit: str | None,
           ctx: ProbeContext) -> ProbeResult:
    where = commit_fields(ctx, commit) if commit else {"commit": None, "date": None}
    story = f"{source.path} declares {source.spec!r}"
    if commit:
        story += f" since {where['short']} on {where['date']}"
    message = f"says {phrase} but {story}"
    evidence = said(phrase, source.spec, file=source.path, **where)
    fixes: list[Correction] = []
    now = shown(source.spec, len(version.split(".")))
    if now and now != version and re.fullmatch(r"\s*(?:[=^~>]=?|==)?\s*v?[\d.]+\s*", source.spec):
        fixes.append(Correction(phrase, phrase[: -len(version)] + now))
        evidence["current"] = now
    return ProbeResult((Claim(KIND, phrase, Verdict.CONTRADICTED, story),),
                       (flag(FindingCode.VERSION_DRIFT, message, evidence, *fixes),))


def _claim(text: str, verdict: Verdict, note: str) -> ProbeResult:
    return ProbeResult((Claim(KIND, text, verdict, note),))
