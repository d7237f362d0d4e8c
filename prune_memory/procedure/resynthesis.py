"""Step 9 after applying: what the withdrawals broke, and what has gone cold.

Links into withdrawn memories get a proposed fix; topic files that lost most of their text
are flagged; cold entries are split into cold from disuse (keep) and cold from
irrelevance (look again next time), labelled estimate unless reads were measured.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from prune_memory.analysis.coherence import fragment_merges, index_coherence
from prune_memory.engine.results import Applied
from prune_memory.model import JSON, Action, Entry, EntryKind, Fidelity, MemoryDir
from prune_memory.plan import Plan
from prune_memory.secrets.mask import mask_text

COLD_AT = 0.8
FOLD_MAX_CHARS = 300  # longer than this, the remainder is no index line


@dataclass(frozen=True)
class Resynthesis:
    broken_links: tuple[JSON, ...]
    shrunk: tuple[JSON, ...]
    cold_disuse: tuple[JSON, ...]
    cold_irrelevance: tuple[JSON, ...]
    coherence: tuple[JSON, ...] = ()  # index coherence and fragments to merge (review)

    def to_json(self) -> JSON:
        return {"broken_links": list(self.broken_links), "shrunk": list(self.shrunk),
                "cold_from_disuse": list(self.cold_disuse),
                "cold_from_irrelevance": list(self.cold_irrelevance),
                "coherence": list(self.coherence)}


def resynthesize(plan: Plan, after: MemoryDir, applied: Sequence[Applied]) -> Resynthesis:
    """Look at the directory as the pass left it."""
    gone = {a.file: a for a in applied if a.tombstone and a.status == "done"}
    names = {e.name: gone[e.file] for e in plan.entries if e.file in gone}
    cold_disuse, cold_irrelevance = _cold(plan)
    return Resynthesis(tuple(_broken_links(after, names)), tuple(_shrunk(plan, after)),
                       tuple(cold_disuse), tuple(cold_irrelevance),
                       tuple(index_coherence(after) + fragment_merges(after)))


def unlink_text(body: str, name: str, register_id: str | None) -> str:
    """`[[name]]` becomes plain words that say where the memory went."""
    where = f"withdrawn, register {register_id}" if register_id else "withdrawn"
    pattern = re.compile(r"\[\[" + re.escape(name) + r"(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]")
    return pattern.sub(lambda m: f"{m.group(1) or name} ({where})", body)


def _broken_links(after: MemoryDir, names: dict[str, Applied]) -> list[JSON]:
    out: list[JSON] = []
    for entry in after.topics:
        targets = sorted({lk.target for lk in entry.links if lk.target in names})
        body = entry.body
        for name in targets:
            body = unlink_text(body, name, names[name].register_id)
        if targets:
            out.append({"file": entry.file, "names": targets, "sha256": entry.sha256,
                        "proposed_text": body,
                        "why": f"links {', '.join(f'[[{t}]]' for t in targets)}, withdrawn "
                               "in this pass"})
    return out


def _shrunk(plan: Plan, after: MemoryDir) -> list[JSON]:
    """Topic files this pass rewrote to less than half their size (an update, or a link
    repair), each with a proposal to fold what is left into the index."""
    out: list[JSON] = []
    for planned in plan.entries:
        now = after.entry(planned.file)
        if now is None or now.kind is not EntryKind.TOPIC or now.sha256 == planned.sha256:
            continue  # gone, an index fact, or not rewritten in this pass
        if planned.size and now.size < planned.size / 2:
            out.append({"file": planned.file, "before": planned.size, "after": now.size,
                        "why": "lost more than half its content in this pass",
                        **fold_proposal(now, after)})
    return out


def fold_proposal(entry: Entry, memdir: MemoryDir) -> JSON:
    """What is left, as one index line to replace the pointer, if it fits on one; a person
    decides (withdraw the file, then edit the line): never applied by the pass."""
    rest = " ".join(mask_text(entry.body).split())
    if not rest or len(rest) > FOLD_MAX_CHARS:
        return {}
    pointers = [ln.text for ln in memdir.index.lines_linking(entry.file)] \
        if memdir.index is not None else []
    return {"fold": {"proposed_line": f"- {rest}", "replaces": pointers,
                     "how": f"withdraw {entry.file} and put this line in place of its "
                            "pointer (review)"}}


def _cold(plan: Plan) -> tuple[list[JSON], list[JSON]]:
    disuse: list[JSON] = []
    irrelevance: list[JSON] = []
    for entry in plan.entries:
        decay = entry.access.get("decay") or {}
        if entry.action is not Action.KEEP or float(decay.get("score", 0)) < COLD_AT:
            continue
        label = "measured" if entry.access.get("measured") else "estimate"
        item = {"file": entry.file, "staleness": decay.get("score"),
                "days_idle": decay.get("days_idle"), "label": label}
        relevant = entry.fidelity in (Fidelity.HIGH.value, Fidelity.MEDIUM.value)
        (disuse if relevant else irrelevance).append(item)
    return disuse, irrelevance
