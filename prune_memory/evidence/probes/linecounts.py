"""count-drift (line counts): "`audio_util.py` (300)" when the file now has 461 lines.

Memories that map a codebase often give each file's size. The number is checked against
the file in the working tree (`wc -l`), with the slack an approximate figure deserves. A
bare number in brackets is read as a line count only when the memory's other bare numbers
after file names match their files: the memory's own convention is the evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    Correction,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.evidence.probes.evidence import last_commit_on, said
from prune_memory.evidence.probes.pathfacts import present, suffixes, unique
from prune_memory.evidence.probes.recount import tree_index
from prune_memory.model import Entry, FindingCode

KIND = "line-count"
# `file.ext` (~1,200) | (300 lines) | — 1,350 LOC | , ~480 lines
_SIZED = re.compile(
    r"`(?P<file>[^`\s]+\.[A-Za-z0-9]{1,8})`[ \t]*(?:\((?P<approx>~|≈|about |around )?"
    r"(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?P<unit>[ \t]*(?:lines?|LOC|loc|行))?\)"
    r"|[ \t]*[—–,:-][ \t]*(?P<approx2>~|≈|about |around )?(?P<num2>\d{1,3}(?:,\d{3})+|\d+)"
    r"[ \t]*(?P<unit2>lines?|LOC|loc|行)\b)")
TOLERANCE = 0.25  # a size written from memory is rarely exact; a quarter off is drift
# A line that reports a change ("**Files:** `a.tsx` (+300 lines), `b.py` (1 line)"): its
# numbers count what the change touched, not how long each file is.
_CHANGE_LINE = re.compile(r"(?<![\w.])[+−-]\d+(?:\s*/\s*[−-]\d+)?\s*(?:lines?|LOC)\b|"
                          r"^\W*(?:files?|changed|changes|diff|touched|modified)\W*[:：]",
                          re.IGNORECASE | re.MULTILINE)
MAX_BYTES = 4_000_000


@dataclass(frozen=True)
class SizeClaim:
    raw: str  # the whole phrase, as written
    file: str
    number_text: str
    number: int
    has_unit: bool


class LineCountProbe:
    """Checks stated file sizes in lines against the files as they are now."""

    code = FindingCode.COUNT_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        if not ctx.facts.available or ctx.facts.root is None:
            return EMPTY
        measured = _measured(entry, ctx)
        bare_ok = ctx.memo("lines.convention", lambda: _convention_holds(
            [pair for e in ctx.memdir.entries for pair in _measured(e, ctx)
             if not pair[0].has_unit]))
        result = EMPTY
        for claim, actual in measured:
            if claim.has_unit or bare_ok:
                result = result + _verdict(claim, actual[0], actual[1], ctx)
        return result


def _measured(entry: Entry, ctx: ProbeContext) -> list[tuple[SizeClaim, tuple[int, str]]]:
    pairs = [(c, _lines_of(c.file, ctx)) for c in _size_claims(entry.text)]
    return [(c, n) for c, n in pairs if n is not None]


def _size_claims(text: str) -> list[SizeClaim]:
    out: list[SizeClaim] = []
    for m in _SIZED.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.end())
        if _CHANGE_LINE.search(text[start:end if end >= 0 else len(text)]):
            continue
        number_text = m.group("num") or m.group("num2")
        out.append(SizeClaim(m.group(0).strip(), m.group("file"), number_text,
                             int(number_text.replace(",", "")),
                             bool(m.group("unit") or m.group("unit2"))))
    return out


def _lines_of(file: str, ctx: ProbeContext) -> tuple[int, str] | None:
    """(line count, repo path) of a tracked file the memory names, by path or unique tail."""
    facts = ctx.facts
    if present(file, ctx) is None or facts.root is None:
        return None
    path = file if file in facts.tracked else unique(
        suffixes(ctx, "tracked", lambda: [*facts.tracked, *facts.directories]).get(file, ()))
    if path is None:
        path = unique(tuple(tree_index(ctx).by_name.get(file, ())))
    if path is None or path not in facts.tracked:
        return None
    return ctx.memo(f"lines.{path}", lambda: _count(facts.root, path))  # type: ignore[arg-type]


def _count(root: Path, path: str) -> tuple[int, str] | None:
    try:
        file = root / path
        if file.stat().st_size > MAX_BYTES:
            return None
        return file.read_bytes().count(b"\n"), path
    except OSError:
        return None


def _convention_holds(bare: list[tuple[SizeClaim, tuple[int, str]]]) -> bool:
    """Bare numbers after file names are line counts when most of those in the directory,
    three at least, fit their files."""
    fits = sum(1 for claim, (actual, _) in bare if _close(claim.number, actual))
    return fits >= 3 and fits * 2 > len(bare)


def _close(stated: int, actual: int) -> bool:
    return stated > 0 and abs(actual - stated) <= TOLERANCE * stated


def _verdict(claim: SizeClaim, actual: int, path: str, ctx: ProbeContext) -> ProbeResult:
    if _close(claim.number, actual):
        return ProbeResult((Claim(KIND, claim.raw, Verdict.CONFIRMED, f"{actual} lines"),))
    change = last_commit_on(path, ctx)
    since = f"; it last changed in {change['short']} on {change['date']}" if change else ""
    message = (f"says `{claim.file}` has {claim.number_text} lines, but `{path}` has "
               f"{actual} now (wc -l){since}")
    evidence = said(claim.raw, actual, kind=KIND, file=path, stated=claim.number,
                    **(change or {"commit": None, "date": None}))
    new = claim.raw.replace(claim.number_text, _like(claim.number_text, actual), 1)
    return ProbeResult((Claim(KIND, claim.raw, Verdict.CONTRADICTED, f"{actual} lines"),),
                       (flag(FindingCode.COUNT_DRIFT, message, evidence,
                             Correction(claim.raw, new)),))


def _like(sample: str, value: int) -> str:
    return f"{value:,}" if "," in sample else str(value)
