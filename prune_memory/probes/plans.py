"""Plans git shows were carried out: a cleanup whose files are gone, a rename that happened.

A memory that records a plan ("D75 code cleanup", "start.sh removal plan", a roadmap)
names the files the plan is about. When history shows those files deleted or renamed, the
plan is done and the memory records work that is finished. A plan's sentences are not
claims about the repo as it is, so the path probe leaves them to this one.
"""

from __future__ import annotations

import re

from prune_memory.gitrepo import DeletionFact, RenameFact
from prune_memory.model import JSON, Entry, FindingCode
from prune_memory.probes.base import EMPTY, Claim, ProbeContext, ProbeResult, Verdict, flag
from prune_memory.probes.evidence import commit_fields
from prune_memory.probes.pathfacts import (
    entry_mentions,
    fate,
    ignored,
    is_placeholder,
    present,
    untracked_only,
)

KIND = "plan"
_PLAN_WORDS = re.compile(
    r"\b(?:plan|plans|planned|planning|roadmap|to-?do|todos|clean-?up|removal|to remove|"
    r"proposal|proposed|next steps?|follow-?ups?|backlog|wish ?list|ideas)\b|计划|待办|待做|"
    r"后续|规划|路线图|geplant|vorhaben|pendientes?|planificad[oa]", re.IGNORECASE)
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)


def plan_word(entry: Entry) -> str | None:
    """The word that makes the memory a plan, looked for in its name, description and
    first heading (not its body, where any memory may mention a plan in passing)."""
    first = _HEADING.search(entry.body)
    head = " ".join((entry.name, entry.file.replace("_", " ").replace("-", " "),
                     entry.description, first.group(1) if first else ""))
    found = _PLAN_WORDS.search(head)
    return found.group(0) if found else None


class PlanProbe:
    """Finds plans whose named files history deleted or renamed since."""

    code = FindingCode.LOW_UTILITY

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        word = plan_word(entry)
        if word is None or not ctx.facts.available:
            return EMPTY
        done: list[tuple[str, RenameFact | DeletionFact]] = []
        for mention in entry_mentions(entry, ctx):
            path = mention.path
            if is_placeholder(path) or present(path, ctx) or ignored(path, ctx):
                continue
            found = fate(path, ctx)
            if found is not None and not untracked_only(found, ctx):
                done.append((mention.raw, found))
        if not done:
            return EMPTY
        return _carried_out(entry, word, done, ctx)


def _carried_out(entry: Entry, word: str, done: list[tuple[str, RenameFact | DeletionFact]],
                 ctx: ProbeContext) -> ProbeResult:
    steps = [_step(raw, found, ctx) for raw, found in done]
    told = "; ".join(f"`{s['path']}` {s['what']} in {s['short']} on {s['date']}"
                     + (f" (\"{s['subject']}\")" if s.get("subject") else "") for s in steps[:3])
    more = f"; and {len(steps) - 3} more" if len(steps) > 3 else ""
    message = f"a plan (its title says {word!r}) that git shows carried out: {told}{more}"
    evidence: JSON = {"kind": "plan-carried-out", "plan_word": word, "done": steps,
                      "commit": steps[0]["commit"], "date": steps[0]["date"]}
    claims = tuple(Claim(KIND, s["path"], Verdict.CONTRADICTED, f"plan target {s['what']}")
                   for s in steps)
    return ProbeResult(claims, (flag(FindingCode.LOW_UTILITY, message, evidence),))


def _step(raw: str, found: RenameFact | DeletionFact, ctx: ProbeContext) -> JSON:
    if isinstance(found, DeletionFact):
        return {"path": raw.strip("`"), "what": "was deleted",
                **commit_fields(ctx, found.sha or found.commit)}
    last = found.deleted or found.hops[-1]
    what = (f"was renamed to `{found.current}`" if found.current
            else "was renamed, then removed")
    return {"path": raw.strip("`"), "what": what, **commit_fields(ctx, last.sha or last.commit)}
