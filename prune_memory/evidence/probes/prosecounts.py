"""Totals stated in prose ("runs 7 services", "12 workflows") recounted where the repo shows
what is being counted.

The built-in count rules (`countrules.py`) need the sentence to say where to count. Here
the noun alone points at one place in the repo — the `services:` of the compose file, the
files of `.github/workflows/`, the one directory of that name — and only then is the
number checked. A differing number is reported with the rule that was inferred and a
proposed correction for a person to accept: the claim stays `unverifiable`, since an
inferred rule is not a measured one, so a differing count never fails an entry on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from prune_memory.analysis.text import NUMBER, parse_number, short_quote
from prune_memory.evidence.gitrepo import RepoFacts
from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    Correction,
    ProbeContext,
    ProbeResult,
    Verdict,
)
from prune_memory.evidence.probes.base import flag as flagged
from prune_memory.evidence.probes.countrules import CountSpec
from prune_memory.evidence.probes.counts import stated_counts
from prune_memory.evidence.probes.evidence import said
from prune_memory.evidence.probes.recount import TreeIndex, recount, tree_index
from prune_memory.model import Entry, FindingCode

KIND = "prose-count"
COMPOSE_FILES = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
COMPOSE_MAX_BYTES = 1_000_000
MAX_DEPTH = 3
_TOTAL = re.compile(rf"(?<![\w.$#/-])(?P<n>{NUMBER})\s+(?P<noun>[a-z][a-z-]{{2,}}s)\b",
                    re.IGNORECASE)
# A number that counts a change, a part or a period is not a total of what exists now.
_NOT_A_TOTAL = re.compile(
    r"\b(?:added|adds|adding|removed|removes|deleted|dropped|new|more|fewer|less|another|"
    r"extra|other|last|first|next|previous|every|each|per|up to|at least|at most|over|"
    r"under|about|around|roughly|some|of the|out of|was|were|used to|had)\s*$", re.IGNORECASE)
_AFTER = re.compile(r"^\s*(?:of|out of|per|each|ago|later|earlier|before|after|a (?:day|week|"
                    r"month|year|user|run)\b)\b|^/[a-z]"  # "3 invoices/month" is a rate
                    # "two examples (a, b)", "five scripts:" and a list: the ones it names,
                    # not all there are
                    r"|^\s*\(\s*[`*]*[\w.-]+[`*]*\s*(?:,|and|&|/)|^[*_]*:[*_]*\s*\n"
                    # "13 pages refactored": what one piece of work touched
                    r"|^\s*(?:refactored|rewritten|rewrote|updated|fixed|converted|touched|"
                    r"changed|aligned|edited|reworked|renamed|ported|migrated|added|removed|"
                    r"deleted|affected)\b", re.IGNORECASE)
# A line, or the heading it sits under, about one part of the work or what was done then:
# "Phase 1 (done): 3 pages" counts what that phase made, not what the tree holds now.
_PART_OF_WORK = re.compile(
    r"\b(?:phase|stage|step|sprint|milestone|iteration|round|wave|week|day|session|"
    r"retro(?:spective)?|recap|changelog|release notes?)\s*\w*|\bv\d+(?:\.\d+)*\b|"
    r"\b(?:built|shipped|created|made|wrote|implemented|delivered|added|migrated|ported|"
    r"finished|completed|did)\b|阶段|第.{1,3}[期轮步]|完成", re.IGNORECASE)


@dataclass(frozen=True)
class Inferred:
    """What a noun counts in this repo, and how that was worked out."""

    total: int
    how: str


class ProseCountProbe:
    """Recounts a total stated in prose when its noun names one countable thing."""

    code = FindingCode.COUNT_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        if not ctx.facts.available:
            return EMPTY
        result = EMPTY
        for phrase, number, number_text, noun in _totals(entry.text, ctx):
            inferred = _inferred(ctx, noun)
            if inferred is not None:
                result = result + _check(phrase, number, number_text, inferred)
        return result


def _inferred(ctx: ProbeContext, noun: str) -> Inferred | None:
    """Worked out once per noun and pass; the tree index is the count probe's own."""
    tree = tree_index(ctx)

    def build() -> Inferred | None:
        return infer(ctx.facts, tree, noun)
    return ctx.memo(f"prose-count.{noun}", build)


def _totals(text: str, ctx: ProbeContext) -> Iterator[tuple[str, int, str, str]]:
    matches = list(_TOTAL.finditer(text))
    if not matches:
        return  # the usual case: no total stated, so no need to know what the count probe reads
    users, builtin = stated_counts(text, ctx)
    taken = [(c.start, c.end) for c in users]
    taken += [(c.start, c.end) for c in builtin if _answered(c.spec, ctx)]
    # "3 invoices/month" once makes "why 3 invoices free" the same rate, not a total
    rates = {(m.group("n").lower(), m.group("noun").lower()) for m in matches
             if _AFTER.match(text[m.end():m.end() + 20])}
    for match in matches:
        start, end = match.span()
        number = parse_number(match.group("n"))
        if number is None or any(start < e and s < end for s, e in taken):
            continue  # the count probe reads these words already
        before = text[max(0, start - 40):start]
        if _NOT_A_TOTAL.search(before) or (match.group("n").lower(),
                                           match.group("noun").lower()) in rates:
            continue
        if _of_a_part(text, start):
            continue
        yield match.group(0), number, match.group("n"), match.group("noun").lower()


def _of_a_part(text: str, at: int) -> bool:
    """The count sits on a line, or under a heading, about one part of the work."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    heading = next((h for h in reversed(text[:line_start].splitlines())
                    if h.lstrip().startswith("#")), "")
    return _PART_OF_WORK.search(line) is not None or _PART_OF_WORK.search(heading) is not None


def _answered(spec: CountSpec, ctx: ProbeContext) -> bool:
    """The count probe can recount these words itself (same memo keys: counted once)."""
    tree = tree_index(ctx)
    return ctx.memo(f"count.{spec!r}", lambda: recount(ctx.facts, tree, spec)) is not None


_NOT_FOLDERS = frozenset({
    "commits", "branches", "tags", "sessions", "changes", "issues", "steps", "times", "days",
    "hours", "minutes", "seconds", "lines", "bytes", "users", "people", "tests", "bugs",
    "fixes", "runs", "calls", "requests", "errors", "rows", "records", "entries", "items",
})


def infer(facts: RepoFacts, tree: TreeIndex, noun: str) -> Inferred | None:
    """The one thing in the repo that `noun` can only mean, counted; None when unsure."""
    if noun in ("services", "containers"):
        found = _compose_services(facts)
        if found is not None:
            return found
    if noun == "workflows":
        flows = [p for p in facts.tracked if p.startswith(".github/workflows/")
                 and "/" not in p[len(".github/workflows/"):] and p.endswith((".yml", ".yaml"))]
        if flows:
            return Inferred(len(flows), "workflow files in `.github/workflows/`")
    if noun in _NOT_FOLDERS:
        return None  # counted in history, time or code, never by files in a folder
    # Only a folder named by the plural itself: `commit/` or `client/` hold one thing each.
    homes = [d for d in tree.directories_by_name.get(noun, ()) if d.count("/") < MAX_DEPTH]
    if len(homes) != 1:
        return None  # none, or several places it could mean
    counted = recount(facts, tree, CountSpec("members", homes[0]))
    return Inferred(counted.total, counted.how) if counted is not None else None


def _compose_services(facts: RepoFacts) -> Inferred | None:
    """The services of the one compose file at the repo root."""
    present = [name for name in COMPOSE_FILES if name in facts.tracked]
    if len(present) != 1 or facts.root is None:
        return None
    path = facts.root / present[0]
    try:
        if path.stat().st_size > COMPOSE_MAX_BYTES:
            return None
        import yaml

        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError):
        return None
    services = data.get("services") if isinstance(data, dict) else None
    if not isinstance(services, dict):
        return None
    return Inferred(len(services), f"services defined in `{present[0]}`")


def _check(phrase: str, number: int, number_text: str, inferred: Inferred) -> ProbeResult:
    note = f"{inferred.total}: {inferred.how} (an inferred count rule)"
    if inferred.total == number:
        return ProbeResult((Claim(KIND, phrase, Verdict.CONFIRMED, note),))
    message = (f"says \"{short_quote(phrase, 60)}\" but the repo has {inferred.total} "
               f"({inferred.how}); the count rule was inferred from the noun, so check it "
               "before accepting the correction")
    evidence = said(number, inferred.total, kind="prose-count", counted=inferred.how,
                    phrase=phrase,
                    inferred=True, review=True)
    fix = Correction(phrase, phrase.replace(number_text, str(inferred.total), 1))
    return ProbeResult((Claim(KIND, phrase, Verdict.UNVERIFIABLE, note),),
                       (flagged(FindingCode.COUNT_DRIFT, message, evidence, fix),))
