"""Plans git shows were carried out: a cleanup whose files are gone, a rename that happened.

A memory that records a plan ("D75 code cleanup", "start.sh removal plan", a roadmap)
names the files the plan is about. When history shows the very change the plan is about —
its own subject file gone, or a commit whose message speaks of what the plan's title does —
the plan is carried out. When only some file it mentions changed, the plan is overtaken: a
person reads what is left of it. A plan's sentences are not claims about the repo as it
is, so the path probe leaves them to this one.
"""

from __future__ import annotations

import re

from prune_memory.analysis.text import first_heading
from prune_memory.evidence.gitrepo import DeletionFact, RenameFact
from prune_memory.evidence.probes.base import EMPTY, Claim, ProbeContext, ProbeResult, Verdict, flag
from prune_memory.evidence.probes.evidence import commit_fields
from prune_memory.evidence.probes.pathfacts import (
    entry_mentions,
    fate,
    ignored,
    is_placeholder,
    present,
    untracked_only,
)
from prune_memory.evidence.probes.planbuilt import built_since, done_since
from prune_memory.model import JSON, Entry, FindingCode

KIND = "plan"
_PLAN_WORDS = re.compile(
    r"\b(?:plan|plans|planned|planning|roadmap|to-?do|todos|clean-?up|removal|to remove|"
    r"proposal|proposed|next steps?|follow-?ups?|backlog|wish ?list|ideas)\b|计划|待办|待做|"
    r"后续|规划|路线图|geplant|vorhaben|pendientes?|planificad[oa]", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]{3,}")
# Words every plan and every commit message share; an echo needs words that say what.
_COMMON = frozenset({"plan", "the", "and", "for", "with", "from", "into", "once", "after",
                     "remove", "removal", "delete", "drop", "add", "code", "file", "files",
                     "new", "old", "move", "update", "cleanup", "clean"})


# A file or folder the head names (`testing-plan.md`, docs/plans/): what it lists, not what
# the memory is.
_NAMED_FILE = re.compile(r"`[^`]*`|\S*/\S*|\S+\.[A-Za-z][A-Za-z0-9]{0,9}\b")


def plan_head(entry: Entry) -> str:
    """Where a memory says what it is: name, file name, description, first heading."""
    said = " ".join((entry.name, entry.description, first_heading(entry.body)))
    return " ".join((entry.file.replace("_", " ").replace("-", " "), _NAMED_FILE.sub(" ", said)))


def plan_word(entry: Entry) -> str | None:
    """The word that makes the memory a plan, looked for in its name, description and
    first heading (not its body, where any memory may mention a plan in passing). A
    reference note points at a plan; it is not one."""
    if entry.memory_type == "reference":
        return None
    found = _PLAN_WORDS.search(plan_head(entry))
    return found.group(0) if found else None


def plan_document(path: str) -> bool:
    """The file that holds a plan (`docs/plans/rollout.md`): its move is a stale pointer,
    not the plan carried out."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    return name.lower().endswith((".md", ".txt", ".rst", ".org")) and (
        _PLAN_WORDS.search(name.replace("_", " ").replace("-", " ")) is not None
        or _PLAN_WORDS.search(folder.replace("_", " ").replace("-", " ")) is not None)


class PlanProbe:
    """Finds plans whose named files history deleted or renamed since, or (`planbuilt`)
    added since."""

    code = FindingCode.LOW_UTILITY

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        word = plan_word(entry)
        if word is None or not ctx.facts.available:
            return EMPTY
        done: list[tuple[str, RenameFact | DeletionFact]] = []
        for mention in entry_mentions(entry, ctx):
            path = mention.path
            if is_placeholder(path) or present(path, ctx) or ignored(path, ctx) \
                    or plan_document(path):
                continue
            found = fate(path, ctx)
            if found is not None and not untracked_only(found, ctx):
                done.append((mention.raw, found))
        if done:
            return _carried_out(entry, word, done, ctx)
        built = built_since(entry, ctx) or done_since(entry, ctx)
        return _built(entry, word, built) if built else EMPTY


def _carried_out(entry: Entry, word: str, done: list[tuple[str, RenameFact | DeletionFact]],
                 ctx: ProbeContext) -> ProbeResult:
    steps = [_step(raw, found, ctx) for raw, found in done]
    head = plan_head(entry)
    own = [s for s in steps if _about(head, s)]
    steps = own + [s for s in steps if s not in own]
    told = "; ".join(f"`{s['path']}` {s['what']} in {s['short']} on {s['date']}"
                     + (f" (\"{s['subject']}\")" if s.get("subject") else "") for s in steps[:3])
    more = f"; and {len(steps) - 3} more" if len(steps) > 3 else ""
    kind, said = ("plan-carried-out", "git shows carried out") if own else \
        ("plan-overtaken", "mentions files git has changed since; read what is left of it")
    message = f"a plan (its title says {word!r}) that {said}: {told}{more}"
    evidence: JSON = {"kind": kind, "plan_word": word, "done": steps,
                      "commit": steps[0]["commit"], "date": steps[0]["date"]}
    claims = tuple(Claim(KIND, s["path"], Verdict.CONTRADICTED, f"plan target {s['what']}")
                   for s in steps)
    return ProbeResult(claims, (flag(FindingCode.LOW_UTILITY, message, evidence),))


def _built(entry: Entry, word: str, built: list[JSON]) -> ProbeResult:
    when = entry.written_at[0].date().isoformat()
    told = "; ".join(
        (f"{b['named']!r} done in {b['short']} on {b['date']} (\"{b['subject']}\")"
         if b["path"] is None else
         (f"`{b['named']}` is `{b['path']}`," if b["named"].strip("`") != b["path"]
          else f"`{b['path']}`") + f" added in {b['short']} on {b['date']}") for b in built[:3])
    more = f"; and {len(built) - 3} more" if len(built) > 3 else ""
    message = (f"a plan (its title says {word!r}) that git shows built since it was last "
               f"written ({when}): {told}{more}")
    evidence: JSON = {"kind": "plan-built", "plan_word": word, "written": when,
                      "built": built, "commit": built[0]["commit"], "date": built[0]["date"]}
    claims = tuple(Claim(KIND, b["path"] or b["named"], Verdict.CONTRADICTED,
                         "planned, added since" if b["path"] else "to do, done since")
                   for b in built)
    return ProbeResult(claims, (flag(FindingCode.LOW_UTILITY, message, evidence),))


def _about(head: str, step: JSON) -> bool:
    """The change is the plan's own: the file is its subject (its name's words are in the
    plan's title), or the commit says what the title says (two telling words in common)."""
    said = {w.lower() for w in _WORD.findall(head)} - _COMMON
    name = str(step["path"]).rstrip("/").rsplit("/", 1)[-1]
    stem = {w.lower() for w in _WORD.findall(name.rsplit(".", 1)[0])} - _COMMON
    if stem and stem <= said:
        return True
    subject = {w.lower() for w in _WORD.findall(str(step.get("subject") or ""))} - _COMMON
    return len(said & subject) >= 2


def _step(raw: str, found: RenameFact | DeletionFact, ctx: ProbeContext) -> JSON:
    if isinstance(found, DeletionFact):
        return {"path": raw.strip("`"), "what": "was deleted",
                **commit_fields(ctx, found.sha or found.commit)}
    last = found.deleted or found.hops[-1]
    what = (f"was renamed to `{found.current}`" if found.current
            else "was renamed, then removed")
    return {"path": raw.strip("`"), "what": what, **commit_fields(ctx, last.sha or last.commit)}
