"""The store lint: provenance, freshness, secrets, poison, exact duplicates and a size cap.

It runs on a memory directory or on a JSON/JSONL store and returns violations (which make
the command exit 1) and, for `--suggest`, what to do about each noisy or failing item.
Freshness (`stale`: older than `--max-age-days`) is a store's rule only: in a memory
directory age never decides, as in the plan — a rule written long ago is not stale for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from prune_memory.analysis.hygiene import (
    PROVENANCE_KEYS,
    entry_secrets,
    poison_findings,
    provenance,
)
from prune_memory.analysis.similarity import exact_groups, normalise
from prune_memory.jsonstore.records import StoreRecord
from prune_memory.lint.items import LintCheck, LintItem, Violation, store_item
from prune_memory.lint.options import LintOptions
from prune_memory.lint.suggest import Listing, Suggestion, ranked, suggest
from prune_memory.model import JSON, MemoryDir
from prune_memory.secrets.mask import describe
from prune_memory.secrets.pii import find_pii
from prune_memory.store.loader import secret_tombstones


@dataclass(frozen=True)
class LintReport:
    target: str
    kind: str  # "memory-dir" or "store"
    now: datetime
    entries: int
    options: LintOptions
    violations: tuple[Violation, ...]
    suggestions: tuple[Suggestion, ...]

    @property
    def clean(self) -> bool:
        return not self.violations

    def listed(self, listing: Listing) -> tuple[Suggestion, ...]:
        return ranked(self.suggestions, listing)

    def to_json(self, *, with_suggestions: bool = False,
                listing: Listing | None = None) -> JSON:
        counts = {check.value: sum(v.check is check for v in self.violations)
                  for check in LintCheck}
        out: JSON = {
            "schema": "prune-memory/lint@1", "target": self.target, "kind": self.kind,
            "now": self.now.isoformat(), "entries": self.entries, "clean": self.clean,
            "options": {"require_source": self.options.require_source,
                        "max_age_days": self.options.max_age_days,
                        "max_entries": self.options.max_entries},
            "counts": counts, "violations": [v.to_json() for v in self.violations],
        }
        if with_suggestions:
            shown = self.listed(listing or Listing())
            out["suggestions"] = [s.to_json() for s in shown]
            out["suggestions_total"] = len(self.suggestions)
        return out


def lint_memory_dir(memdir: MemoryDir, *, now: datetime, options: LintOptions) -> LintReport:
    """Lint every entry of a loaded memory directory, and its index against the load cap."""
    options = options.for_kind("memory-dir")
    items = [LintItem(id=e.file, text=e.text, body=e.body, meta=e.frontmatter,
                      memory_type=e.memory_type, written=e.written_at[0],
                      written_from=e.written_at[1], secrets=entry_secrets(e),
                      pii=find_pii(e.text))
             for e in memdir.entries]
    violations = _item_violations(items, now, options, by_age=False)
    violations.extend(_tombstone_secrets(memdir))
    if memdir.index is not None and memdir.index.cap.usage >= 1.0:
        cap = memdir.index.cap
        unloaded = [ln.number for ln in memdir.index.lines if not ln.loaded]
        violations.append(Violation(
            LintCheck.OVER_CAP, memdir.index.file,
            f"the index is at {cap.usage:.0%} of its load cap ({cap.binding_cap} bind): "
            f"{len(unloaded)} line(s) are never loaded",
            {**cap.to_json(), "unloaded_lines": unloaded}))
    return _report(str(memdir.root), "memory-dir", now, options, items, violations)


def lint_store(records: Sequence[StoreRecord], *, target: str, now: datetime,
               options: LintOptions, problems: Sequence[tuple[str, str]] = ()) -> LintReport:
    """Lint the records of a JSON or JSONL store; `problems` are the records (or fields) the
    reader could not use, one violation each, reported first."""
    options = options.for_kind("store")
    items = [store_item(record) for record in records]
    violations = [Violation(LintCheck.MALFORMED, where, message) for where, message in problems]
    violations += _item_violations(items, now, options)
    return _report(target, "store", now, options, items, violations)


def _report(target: str, kind: str, now: datetime, options: LintOptions,
            items: Sequence[LintItem], violations: list[Violation]) -> LintReport:
    return LintReport(target=target, kind=kind, now=now, entries=len(items), options=options,
                      violations=tuple(violations), suggestions=suggest(items, violations))


def _item_violations(items: Sequence[LintItem], now: datetime, options: LintOptions, *,
                     by_age: bool = True) -> list[Violation]:
    violations: list[Violation] = []
    for item in items:
        violations.extend(_provenance(item, options))
        if by_age:
            violations.extend(_freshness(item, now, options))
        violations.extend(_secrets(item))
        violations.extend(_pii(item))
        violations.extend(Violation(LintCheck.POISON, item.id, f.message, f.evidence)
                          for f in poison_findings(item.text, item.meta, item.memory_type))
    violations.extend(_duplicates(items))
    if options.max_entries is not None and len(items) > options.max_entries:
        violations.append(Violation(
            LintCheck.OVER_CAP, "(store)",
            f"{len(items)} entries exceed the cap of {options.max_entries}: distill and retire",
            {"entries": len(items), "max_entries": options.max_entries}))
    return violations


def _provenance(item: LintItem, options: LintOptions) -> Iterable[Violation]:
    if options.require_source and provenance(item.meta) is None:
        yield Violation(LintCheck.NO_PROVENANCE, item.id,
                        "no source: nothing says where this came from",
                        {"looked_for": list(PROVENANCE_KEYS)})


def _freshness(item: LintItem, now: datetime, options: LintOptions) -> Iterable[Violation]:
    if item.written is None:
        yield Violation(LintCheck.STALE, item.id,
                        "no valid `updated`/`created` date: its age cannot be checked",
                        {"max_age_days": options.max_age_days})
        return
    age = (now - item.written).days
    if age > options.max_age_days:
        yield Violation(
            LintCheck.STALE, item.id,
            f"last written {item.written.date()} ({item.written_from}), {age} days ago: "
            f"re-verify or retire it",
            {"written": item.written.isoformat(), "from": item.written_from, "age_days": age,
             "max_age_days": options.max_age_days})


def _secrets(item: LintItem) -> Iterable[Violation]:
    for part, hit in item.secrets:
        where = f"on line {hit.line} of the {part}" if hit.line and part in ("body", "text") \
            else f"in the {part}"
        yield Violation(LintCheck.SECRET, item.id, f"possible secret {describe(hit)} {where}",
                        {**hit.to_json(), "part": part})


def _tombstone_secrets(memdir: MemoryDir) -> Iterable[Violation]:
    """A tombstone an older version wrote with the secret still in it: Claude can read it."""
    if not memdir.tombstones:
        return
    for path, hits in secret_tombstones(memdir.root):
        for hit in hits:
            yield Violation(LintCheck.SECRET, path,
                            f"withdrawn, but the tombstone still holds a possible secret "
                            f"{describe(hit)} on line {hit.line}: rotate it, then restore and "
                            "withdraw it again to move the original into the private vault",
                            {**hit.to_json(), "part": "tombstone"})


def _pii(item: LintItem) -> Iterable[Violation]:
    for hit in item.pii:
        what = "an e-mail address" if hit.label == "email-address" else "a phone number"
        yield Violation(LintCheck.PII, item.id,
                        f"personal data: {what} {describe(hit)} on line {hit.line}; keep "
                        "who someone is out of memory, or point to where it is kept",
                        hit.to_json())


def _duplicates(items: Sequence[LintItem]) -> Iterable[Violation]:
    keyed = [(i, normalise(item.body)) for i, item in enumerate(items)]
    keyed = [(i, key) for i, key in keyed if key]
    for group in exact_groups([key for _, key in keyed]):
        members = [items[keyed[g][0]].id for g in group]
        for copy in members[1:]:
            yield Violation(LintCheck.DUPLICATE, copy,
                            f"same text as {members[0]} (after normalising case, punctuation "
                            f"and spacing)", {"group": members, "first": members[0]})
