"""Turn each entry's evidence into a plan entry, and the pass's findings into one Plan."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from prune_memory.analysis.coherence import fragment_merges, index_coherence
from prune_memory.analysis.decay import Decay
from prune_memory.analysis.inoculation import draft_inoculation
from prune_memory.model import INDEX_FILE, JSON, Action, Finding, MemoryDir
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.decide import Decision, Evidence, decide, grade
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.reachability import Reachability
from prune_memory.procedure.repairs import LEAVING, propose_repairs, within_load_cap
from prune_memory.procedure.rules import DRIFT
from prune_memory.procedure.staleness import StalenessReport
from prune_memory.secrets.mask import mask_text
from prune_memory.store.index import index_entry_id, index_line_number
from prune_memory.store.pruninglog import ProtectedItem

FLAG_RULE = "flagged"


def keep_flagged(entry: PlanEntry, flagged: Mapping[str, ProtectedItem]) -> PlanEntry:
    """A listed entry stays `flag` whatever this pass found, so nothing is applied to it
    until a person clears the flag."""
    item = flagged.get(entry.file)
    if item is None or entry.action is Action.FLAG:
        return entry
    since = f" on {item.since}" if item.since else ""
    why = f"Flagged{since} ({item.reason}); it stays flagged until a person runs " \
          "`prune-memory unflag` with a reason"
    proposed = f"; this pass alone would {entry.action.value}" \
        if entry.action is not Action.KEEP else ""
    return replace(entry, action=Action.FLAG, rule=FLAG_RULE, reason=why + proposed)


def _masked(finding: Finding) -> Finding:
    if finding.proposed_text is None:
        return finding
    return replace(finding, proposed_text=mask_text(finding.proposed_text))


def _masked_draft(draft: Inoculation) -> Inoculation:
    return replace(draft, pattern=mask_text(draft.pattern), period=mask_text(draft.period),
                   evidence=mask_text(draft.evidence),
                   abandonment_reason=mask_text(draft.abandonment_reason),
                   do_not_rederive=mask_text(draft.do_not_rederive))


def plan_entry(ev: Evidence, decision: Decision, decay: Decay, options: PassOptions,
               checked: str, memdir: MemoryDir | None = None) -> PlanEntry:
    """One entry of the plan. Text that quotes the memory is masked: no secret gets in."""
    entry = ev.entry
    draft = draft_inoculation(entry, options.now, ev.findings, memdir) \
        if decision.action is not Action.KEEP else None
    proposed = decision.proposed_text
    return PlanEntry(
        file=entry.file, name=mask_text(entry.name), memory_type=entry.memory_type,
        cls=ev.classification.cls, signal=ev.classification.signal, protected=ev.protected,
        fidelity=grade(ev).value, access={**ev.access.to_json(), "decay": decay.to_json(),
                                          "checked": checked},
        findings=tuple(_masked(f) for f in ev.findings), action=decision.action,
        rule=decision.rule, sha256=entry.sha256,
        proposed_text=mask_text(proposed) if proposed is not None else None,
        reason=mask_text(decision.reason),
        related=decision.related, size=entry.size,
        suggested_action=decision.suggested, evidence_class=decision.evidence_class,
        strength=int(decision.strength),
        # Drafted for every proposal so a reviewer can choose to inoculate with fields prefilled.
        inoculation=_masked_draft(draft) if draft else None,
    )


def assemble_plan(memdir: MemoryDir, options: PassOptions,
                  evidence: Sequence[tuple[Evidence, Decay]], reach: Reachability,
                  staleness: StalenessReport, trusted: frozenset[str] = frozenset(),
                  flagged: Mapping[str, ProtectedItem] | None = None) -> Plan:
    """The plan of one pass: every entry decided, the index figures and reachability.

    `flagged` holds the persistent flags of the pruning log: those entries stay `flag`."""
    entries = tuple(keep_flagged(plan_entry(ev, decide(ev, trusted), decay, options,
                                            staleness.checked(ev.entry.file), memdir),
                                 flagged or {})
                    for ev, decay in evidence)
    entries = follow_parents(entries, memdir)
    leaving = frozenset(e.file for e in entries if e.action in LEAVING)
    repairs, held = within_load_cap(memdir, propose_repairs(memdir, reach, entries))
    reachability = {**reach.to_json(), "repairs": repairs, "held_repairs": held,
                    "coherence": index_coherence(memdir) + fragment_merges(memdir, leaving)}
    return Plan(
        memory_dir=str(memdir.root), repo=str(options.repo) if options.repo else None,
        now=options.now, index=_index_json(memdir, reach), entries=entries,
        reachability=reachability, errors=tuple(e.to_json() for e in memdir.errors),
        notes=_notes(staleness) + rebuild_advice(entries),
    )


def follow_parents(entries: Sequence[PlanEntry], memdir: MemoryDir) -> tuple[PlanEntry, ...]:
    """A sub-bullet the plan would keep leaves with the fact it hangs under, by the same
    evidence and the same hand (the parent's counter-memory, if any, speaks for both):
    "- cycle 148 status" withdrawn takes "  - 7 open issues" with it."""
    index = memdir.index
    if index is None:
        return tuple(entries)
    parent_of = {ln.number: ln.parent for ln in index.lines}
    decided = {e.file: e for e in entries}
    for file in sorted(decided, key=lambda f: index_line_number(f) or 0):
        child, number = decided[file], index_line_number(file)
        if number is None or child.action is not Action.KEEP or child.protected:
            continue
        up = parent_of.get(number)
        while up is not None and index_entry_id(up, index.file) not in decided:
            up = parent_of.get(up)
        parent = decided.get(index_entry_id(up, index.file)) if up is not None else None
        if parent is None or not _leaves(parent):
            continue
        suggested = parent.suggested_action
        decided[file] = replace(
            child, action=_alone(parent.action), rule=parent.rule,
            reason=f"hangs under {parent.file}, which leaves: {parent.reason}",
            related=(parent.file,), suggested_action=suggested and _alone(suggested),
            evidence_class=parent.evidence_class, strength=parent.strength)
    return tuple(decided[e.file] for e in entries)


def _leaves(entry: PlanEntry) -> bool:
    return entry.action in LEAVING or (entry.action is Action.REVIEW
                                       and entry.suggested_action in LEAVING)


def _alone(action: Action) -> Action:
    """The child's part of the parent's action: the counter-memory is the parent's."""
    return Action.WITHDRAW if action is Action.WITHDRAW_INOCULATE else action


def _index_json(memdir: MemoryDir, reach: Reachability) -> JSON:
    if memdir.index is None:
        return {"path": INDEX_FILE, "lines": 0, "chars": 0, "line_cap": 200,
                "char_cap": 25_000, "usage": 0.0, "binding_cap": "lines", "unloaded": []}
    return {"path": memdir.index.file, **memdir.index.cap.to_json(),
            "unloaded": [u["file"] for u in reach.unloaded]}


REBUILD_SHARE = 0.2  # past a fifth of the entries drifted, correcting one by one is the wrong tool


def rebuild_advice(entries: Sequence[PlanEntry]) -> tuple[str, ...]:
    """Step 10's advice when drift is widespread: rebuild rather than correct in place."""
    drifted = [e for e in entries if any(f.code in DRIFT for f in e.findings)]
    if not entries or len(drifted) / len(entries) <= REBUILD_SHARE:
        return ()
    share = f"{100 * len(drifted) / len(entries):.0f}%"
    return (f"{len(drifted)} of {len(entries)} entries ({share}) drifted from the repo, more "
            "than a fifth: consider a rebuild instead of correcting each one — snapshot the "
            "directory, start fresh, and bring back (`reaccession`, `restore`) only what "
            "passes verification",)


def _notes(staleness: StalenessReport) -> tuple[str, ...]:
    repo = staleness.repo
    if repo.get("available", True):
        return ()
    return (f"repo not readable ({repo.get('reason', 'unknown')}): claims are unverifiable",)
