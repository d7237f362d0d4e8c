"""count-drift (enums): "`ServerEnvironment` enum: Local, Dev" when the code's enum has a
member more, or "the `Stage` enum has three values" when it has four.

The memory's list, or its number, is checked against the one definition of that enum in
the working tree (`enumdefs`). A list the memory marks as partial ("e.g.", "such as",
"…", "etc.") is not a claim about every member and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from prune_memory.analysis.text import NUMBER, parse_number
from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    Correction,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.evidence.probes.enumdefs import EnumDef, enum_definitions
from prune_memory.evidence.probes.evidence import last_commit_on, said
from prune_memory.matching.regexgate import GatedPattern
from prune_memory.model import Entry, FindingCode

KIND = "enum-members"
# Possessive runs (Python 3.11+) keep every part linear: no run of blanks is tried twice.
_MEMBER = r"`?[A-Za-z_]\w*+`?"
_SEPARATOR = (r"[ \t]*+(?:,[ \t]*+(?:(?:and|or)[ \t]++)?|/[ \t]*+|\|[ \t]*+"
              r"|(?<=[ \t])(?:and|or)[ \t]++)")
_LIST = rf"(?P<list>{_MEMBER}(?:{_SEPARATOR}{_MEMBER})++)"
_NAMED = (r"(?:`(?P<name>[A-Z]\w*+)`[ \t]++enum(?:eration)?"
          r"|enum(?:eration)?[ \t]++`(?P<name2>[A-Z]\w*+)`)")
_NOUN = r"(?:values?|members?|cases?)"
_CLAIM = GatedPattern(
    rf"{_NAMED}[ \t]*+(?:(?:has|with|holds)[ \t]++(?:the[ \t]++)?)?(?:{_NOUN}[ \t]*+)?"
    rf"(?:[:=—–-][ \t]*+)?"
    rf"(?:{_LIST}(?=[ \t]*+(?:[.;)\n]|$))"
    rf"|(?P<count>{NUMBER})[ \t]++(?:values|members|cases|states|options))",
    re.IGNORECASE)
_PARTIAL = re.compile(r"\b(?:e\.g|eg|such as|including|includes|among|like|etc)\b|…|\.\.\.",
                      re.IGNORECASE)


@dataclass(frozen=True)
class EnumClaim:
    raw: str
    name: str
    listed: tuple[str, ...]  # empty for a count claim
    list_text: str
    count: int | None


class EnumProbe:
    """Checks an enum's members, as a memory lists or counts them, against the code."""

    code = FindingCode.COUNT_DRIFT

    def prefetch(self, ctx: ProbeContext) -> None:
        root = ctx.facts.root
        if ctx.facts.available and root is not None and (by_file := _claims(ctx)):
            ctx.prefetch("enums.definitions", lambda: _definitions(root, by_file))

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        root = ctx.facts.root
        if not ctx.facts.available or root is None:
            return EMPTY
        by_file = _claims(ctx)
        claims = by_file.get(entry.file, [])
        if not claims:
            return EMPTY
        defs = ctx.memo("enums.definitions", lambda: _definitions(root, by_file))
        result = EMPTY
        for claim in claims:
            found = defs.get(claim.name)
            if found is not None:
                result = result + _verdict(claim, found, ctx)
        return result


def _claims(ctx: ProbeContext) -> dict[str, list[EnumClaim]]:
    """Every memory's claims, read once: one `git grep` then finds every enum they name."""
    return ctx.memo("enums.claims", lambda: {
        e.file: found for e in ctx.memdir.entries if (found := enum_claims(e.text))})


def _definitions(root: Path, by_file: Mapping[str, list[EnumClaim]]) -> Mapping[str, EnumDef]:
    return enum_definitions(root, {c.name for found in by_file.values() for c in found})


def enum_claims(text: str) -> list[EnumClaim]:
    out: list[EnumClaim] = []
    for match in _CLAIM.finditer(text):
        line_end = text.find("\n", match.end())
        rest = text[match.start():line_end if line_end >= 0 else len(text)]
        if _PARTIAL.search(rest):
            continue
        name = match.group("name") or match.group("name2")
        if match.group("list"):
            listed = tuple(m.strip("`") for m in re.findall(_MEMBER, match.group("list"))
                           if m.strip("`").lower() not in ("and", "or"))
            out.append(EnumClaim(match.group(0), name, listed, match.group("list"), None))
        else:
            out.append(EnumClaim(match.group(0), name, (), "", parse_number(match.group("count"))))
    return out


def _verdict(claim: EnumClaim, found: EnumDef, ctx: ProbeContext) -> ProbeResult:
    actual = found.members
    where = f"`{found.path}`:{found.line}"
    if claim.count is not None:
        if claim.count == len(actual):
            return ProbeResult((Claim(KIND, claim.raw, Verdict.CONFIRMED, f"{len(actual)}"),))
        told = f"says `{claim.name}` has {claim.count} members; {where} has {len(actual)}"
        return _drift(claim, found, told, None, ctx)
    said_set = {m.casefold() for m in claim.listed}
    code_set = {m.casefold() for m in actual}
    if said_set == code_set:
        return ProbeResult((Claim(KIND, claim.raw, Verdict.CONFIRMED, ", ".join(actual)),))
    missing = [m for m in actual if m.casefold() not in said_set]
    gone = [m for m in claim.listed if m.casefold() not in code_set]
    parts = ([f"not listed: {', '.join(missing)}"] if missing else []) + \
        ([f"no longer members: {', '.join(gone)}"] if gone else [])
    told = (f"lists `{claim.name}` as {', '.join(claim.listed)}; {where} has "
            f"{', '.join(actual)} ({'; '.join(parts)})")
    plain = re.fullmatch(r"[A-Za-z_]\w*(?:, [A-Za-z_]\w*)+", claim.list_text)
    fix = Correction(claim.list_text, ", ".join(actual)) if plain else None
    return _drift(claim, found, told, fix, ctx)


def _drift(claim: EnumClaim, found: EnumDef, told: str, fix: Correction | None,
           ctx: ProbeContext) -> ProbeResult:
    change = last_commit_on(found.path, ctx)
    if change:
        told += f"; the file last changed in {change['short']} on {change['date']}"
    evidence = said(claim.raw, list(found.members), kind=KIND, enum=claim.name,
                    file=found.path, line_in_file=found.line,
                    **(change or {"commit": None, "date": None}))
    flagged = flag(FindingCode.COUNT_DRIFT, told, evidence, *([fix] if fix else []))
    return ProbeResult((Claim(KIND, claim.raw, Verdict.CONTRADICTED, told),), (flagged,))
