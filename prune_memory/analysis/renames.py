"""The post-rename sweep: every memory that still says OLD, and what it would say with NEW.

Matches whole words only (OLD inside `src/OLD/x.py` counts, OLD inside `OLDER` does
not), case-sensitive unless asked otherwise, and also finds OLD written with dashes,
underscores or dots in place of its separators (`auth-service`, `auth_service`,
`auth.service`). It reads; it never writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from prune_memory.errors import BadInputError
from prune_memory.model import JSON, EntryKind, MemoryDir
from prune_memory.printable import has_break, has_control
from prune_memory.secrets.mask import mask_text

SEPARATORS = "-_."
SPLIT = re.compile(r"[-_.]")
WORD_CHAR = r"[A-Za-z0-9_]"


@dataclass(frozen=True)
class RenameRule:
    old: str
    new: str


@dataclass(frozen=True)
class SweepHit:
    """One place a memory says OLD: which file, where in it, and the line before and after."""

    file: str
    where: str
    line: int
    found: str
    old: str
    replacement: str
    text: str
    proposed_line: str

    def to_json(self) -> JSON:
        return {"file": self.file, "where": self.where, "line": self.line, "found": self.found,
                "old": self.old, "replacement": self.replacement, "text": self.text,
                "proposed_line": self.proposed_line}


@dataclass(frozen=True)
class SweepReport:
    renames: tuple[RenameRule, ...]
    ignore_case: bool
    hits: tuple[SweepHit, ...]
    proposed_text: Mapping[str, str]
    proposed_description: Mapping[str, str]

    @cached_property
    def files(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h.file for h in self.hits))

    def to_json(self) -> JSON:
        entries = [{"file": f, "hits": sum(1 for h in self.hits if h.file == f),
                    **({"proposed_text": self.proposed_text[f]} if f in self.proposed_text
                       else {}),
                    **({"proposed_description": self.proposed_description[f]}
                       if f in self.proposed_description else {})} for f in self.files]
        return {"schema": "prune-memory/sweep@1",
                "renames": [{"old": r.old, "new": r.new} for r in self.renames],
                "ignore_case": self.ignore_case, "total_hits": len(self.hits),
                "entries": entries, "hits": [h.to_json() for h in self.hits]}


def parse_rename(spec: str) -> RenameRule:
    """`OLD=NEW` from the command line; anything else is bad input."""
    old, sep, new = spec.partition("=")
    old, new = old.strip(), new.strip()
    if not sep or not old or not new:
        raise BadInputError(f"--rename wants OLD=NEW, got {spec!r}")
    if old == new:
        raise BadInputError(f"--rename {spec!r}: OLD and NEW are the same")
    if has_break(spec) or has_control(spec):  # NEW goes into index lines, one line each
        raise BadInputError(f"--rename {mask_text(spec)!r}: a name holds a line break or a "
                            "control character, which would split or hide index lines; "
                            "nothing was changed")
    return RenameRule(old, new)


def sweep(memdir: MemoryDir, renames: Sequence[RenameRule], *,
          ignore_case: bool = False) -> SweepReport:
    """Every index line and topic (description and body) that mentions an OLD name."""
    if not renames:
        raise BadInputError("give at least one --rename OLD=NEW")
    matcher = _Matcher(tuple(renames), ignore_case)
    hits: list[SweepHit] = []
    bodies: dict[str, str] = {}
    descriptions: dict[str, str] = {}
    if memdir.index is not None:
        for line in memdir.index.lines:
            hits.extend(matcher.hits(f"{memdir.index.file}#L{line.number}",
                                     f"{memdir.index.file} line {line.number}",
                                     line.number, line.text))
    for entry in memdir.entries:
        if entry.kind is EntryKind.INDEX_LINE:
            continue  # already read above, as the index line it is
        found = list(matcher.hits(entry.file, "description", 0, entry.description))
        for number, text in enumerate(entry.body.splitlines(), 1):
            found.extend(matcher.hits(entry.file, f"body line {number}", number, text))
        if found:
            hits.extend(found)
            bodies[entry.file] = mask_text(matcher.replace(entry.body))
            if entry.description and matcher.replace(entry.description) != entry.description:
                descriptions[entry.file] = mask_text(matcher.replace(entry.description))
    return SweepReport(tuple(renames), ignore_case, tuple(hits), bodies, descriptions)


class _Matcher:
    """One regex over every variant of every OLD, longest first."""

    def __init__(self, renames: tuple[RenameRule, ...], ignore_case: bool) -> None:
        self.ignore_case = ignore_case
        self.targets: dict[str, RenameRule] = {}
        for rule in renames:
            for variant in variants(rule.old):
                self.targets.setdefault(variant.lower() if ignore_case else variant, rule)
        body = "|".join(re.escape(v) for v in sorted(self.targets, key=len, reverse=True))
        flags = re.IGNORECASE if ignore_case else 0
        self.pattern = re.compile(rf"(?<!{WORD_CHAR})(?:{body})(?!{WORD_CHAR})", flags)

    def rule_for(self, found: str) -> RenameRule:
        return self.targets[found.lower() if self.ignore_case else found]

    def replacement(self, found: str) -> str:
        return rewrite(found, self.rule_for(found), self.ignore_case)

    def replace(self, text: str) -> str:
        return self.pattern.sub(lambda m: self.replacement(m.group(0)), text)

    def hits(self, file: str, where: str, line: int, text: str) -> Iterator[SweepHit]:
        matches = list(self.pattern.finditer(text))
        if not matches:
            return
        # The report is shown, never applied: a secret on the line is masked in both texts.
        shown, proposed = mask_text(text), mask_text(self.replace(text))
        for match in matches:
            found = match.group(0)
            yield SweepHit(file, where, line, found, self.rule_for(found).old,
                           self.replacement(found), shown, proposed)


def variants(old: str) -> list[str]:
    """OLD as given, then with each separator style (`a-b` → `a_b`, `a.b`); none for paths."""
    parts = SPLIT.split(old)
    if "/" in old or len(parts) < 2:
        return [old]
    return list(dict.fromkeys([old, *(sep.join(parts) for sep in SEPARATORS)]))


def rewrite(found: str, rule: RenameRule, ignore_case: bool) -> str:
    """NEW in the separator style of what was found, and its case when matching ignored case."""
    new = rule.new
    exact = found.lower() == rule.old.lower() if ignore_case else found == rule.old
    separator = next((ch for ch in found if ch in SEPARATORS), None)
    new_parts = SPLIT.split(new)
    if not exact and separator is not None and len(new_parts) > 1 and "/" not in new:
        new = separator.join(new_parts)
    if ignore_case:
        if found.isupper() and any(ch.isalpha() for ch in found):
            return new.upper()
        if found[:1].isupper() and new[:1].islower():
            return new[:1].upper() + new[1:]
    return new
