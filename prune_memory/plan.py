"""The plan: what the pass proposes for every entry. A contract (`prune-memory/plan@1`).

It is plain data so `plan` and the apply step can run apart: `Plan.from_json` reads back
exactly what `Plan.to_json` wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from prune_memory.model import JSON, Action, Finding, MemoryClass

SCHEMA = "prune-memory/plan@1"


@dataclass(frozen=True)
class Inoculation:
    """The fields of a SUPERSEDED counter-memory (DESIGN §5): drafted by the plan, edited in
    review, written by the engine. An empty `period` is written as "unknown to <date>"."""

    pattern: str
    evidence: str
    abandonment_reason: str
    do_not_rederive: str
    period: str = ""
    slug: str | None = None  # the name part of `superseded_<slug>.md`; default from the entry

    def to_json(self) -> JSON:
        out: JSON = {"pattern": self.pattern, "period": self.period, "evidence": self.evidence,
                     "abandonment_reason": self.abandonment_reason,
                     "do_not_rederive": self.do_not_rederive}
        if self.slug:
            out["slug"] = self.slug
        return out

    @classmethod
    def from_json(cls, data: JSON) -> Inoculation:
        return cls(pattern=data["pattern"], evidence=data["evidence"],
                   abandonment_reason=data["abandonment_reason"],
                   do_not_rederive=data["do_not_rederive"], period=data.get("period", ""),
                   slug=data.get("slug"))


@dataclass(frozen=True)
class PlanEntry:
    file: str
    name: str
    memory_type: str | None
    cls: MemoryClass
    signal: str
    protected: bool
    fidelity: str
    access: JSON
    findings: tuple[Finding, ...]
    action: Action
    rule: str | None
    sha256: str
    proposed_text: str | None = None
    reason: str = ""
    related: tuple[str, ...] = ()
    inoculation: Inoculation | None = None
    size: int = 0
    suggested_action: Action | None = None  # what the evidence points to, held for review
    evidence_class: str | None = None  # the kind of evidence the decision rests on
    strength: int = 0  # how strong that evidence is; the review queue shows strongest first

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(f.code.value for f in self.findings)

    def to_json(self) -> JSON:
        out: JSON = {
            "file": self.file, "name": self.name, "memory_type": self.memory_type,
            "class": self.cls.value, "signal": self.signal, "protected": self.protected,
            "fidelity": self.fidelity, "access": self.access,
            "findings": [f.to_json() for f in self.findings],
            "action": self.action.value, "rule": self.rule, "reason": self.reason,
            "proposed_text": self.proposed_text, "sha256": self.sha256, "size": self.size,
        }
        if self.related:
            out["related"] = list(self.related)
        if self.suggested_action is not None:
            out["suggested_action"] = self.suggested_action.value
        if self.evidence_class is not None:
            out["evidence_class"] = self.evidence_class
            out["strength"] = self.strength
        if self.inoculation:
            out["inoculation"] = self.inoculation.to_json()
        return out

    @classmethod
    def from_json(cls, data: JSON) -> PlanEntry:
        draft = data.get("inoculation")
        return cls(
            file=data["file"], name=data["name"], memory_type=data.get("memory_type"),
            cls=MemoryClass(data["class"]), signal=data.get("signal", ""),
            protected=bool(data["protected"]), fidelity=data["fidelity"],
            access=dict(data.get("access", {})),
            findings=tuple(Finding.from_json(f) for f in data.get("findings", [])),
            action=Action(data["action"]), rule=data.get("rule"), sha256=data["sha256"],
            proposed_text=data.get("proposed_text"), reason=data.get("reason", ""),
            related=tuple(data.get("related", ())),
            inoculation=Inoculation.from_json(draft) if draft else None,
            size=int(data.get("size", 0)),
            suggested_action=Action(data["suggested_action"])
            if data.get("suggested_action") else None,
            evidence_class=data.get("evidence_class"), strength=int(data.get("strength", 0)),
        )


@dataclass(frozen=True)
class Plan:
    memory_dir: str
    repo: str | None
    now: datetime
    index: JSON
    entries: tuple[PlanEntry, ...]
    reachability: JSON
    errors: tuple[JSON, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def entry(self, file: str) -> PlanEntry | None:
        """The first entry for `file` (looked up by name: a pass asks once per verdict)."""
        return self._by_file.get(file)

    @cached_property
    def _by_file(self) -> dict[str, PlanEntry]:
        found: dict[str, PlanEntry] = {}
        for entry in self.entries:
            found.setdefault(entry.file, entry)
        return found

    def with_action(self, *actions: Action) -> tuple[PlanEntry, ...]:
        return tuple(e for e in self.entries if e.action in actions)

    def summary(self) -> dict[str, int]:
        counts = {a.value: 0 for a in Action}
        for e in self.entries:
            counts[e.action.value] += 1
        return counts

    def to_json(self) -> JSON:
        return {
            "schema": SCHEMA, "memory_dir": self.memory_dir, "repo": self.repo,
            "now": self.now.strftime("%Y-%m-%dT%H:%M:%SZ"), "index": self.index,
            "entries": [e.to_json() for e in self.entries],
            "reachability": self.reachability, "errors": list(self.errors),
            "summary": self.summary(), "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: JSON) -> Plan:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a {SCHEMA} plan: schema is {data.get('schema')!r}")
        return cls(
            memory_dir=data["memory_dir"], repo=data.get("repo"),
            now=datetime.fromisoformat(data["now"].replace("Z", "+00:00")),
            index=dict(data["index"]),
            entries=tuple(PlanEntry.from_json(e) for e in data["entries"]),
            reachability=dict(data["reachability"]),
            errors=tuple(data.get("errors", ())), notes=tuple(data.get("notes", ())),
        )
