"""Names for the kinds of evidence a decision rests on, and how strong each kind is.

The class is what calibration measures and what the automation gate admits; the strength
orders the review queue (safety first, then contradictions, then history, then shapes and
wording). Age is deliberately not a strength: it only breaks ties inside one.
"""

from __future__ import annotations

from enum import IntEnum

from prune_memory.model import Finding, FindingCode

# Every class a decision can name. The gate automates the measured ones
# (`automation.MEASURED`) and any the user trusts in the config (`[automation] trust`).
EVIDENCE_CLASSES = frozenset({
    "path-renamed", "path-moved-edited", "path-deleted", "lone-name-moved",
    "tracked-not-ignored", "line-count-drift", "enum-drift", "count-drift", "release-drift",
    "version-drift", "tool-replaced", "tool-dropped", "identifier-replaced",
    "identifier-removed", "state-drift", "name-drift", "subject-deleted", "subject-closed",
    "plan-carried-out", "plan-overtaken", "plan-built", "marked-done", "done-and-built",
    "redirect-stub", "completed-work", "session-log", "session-chatter", "noise",
    "never-persist", "exact-duplicate", "contained-duplicate", "claude-md-duplicate",
    "claude-md-overlap", "abandoned-strategy", "decision-reversal", "compression-loss",
    "low-importance", "prose-count-drift",
})


# What each kind of evidence is, in a few words a reviewer reads after "the evidence is".
EVIDENCE_WORDS = {
    "path-renamed": "a rename in git of the path it names",
    "path-moved-edited": "a move in git of the path it names, with much of the file rewritten",
    "path-deleted": "the deletion in git of the path it names",
    "lone-name-moved": "a file of that name found elsewhere in the repo",
    "tracked-not-ignored": "a file it calls ignored that git tracks",
    "line-count-drift": "the file's line count as it is now",
    "enum-drift": "the enum's members as the code defines them now",
    "count-drift": "a different count in the repo",
    "prose-count-drift": "a recount of what its prose counts",
    "release-drift": "a newer tagged release",
    "version-drift": "another version in the manifest",
    "tool-replaced": "the tool it names gone from the manifest",
    "tool-dropped": "the deletion in git of the last file of the tool it names",
    "identifier-replaced": "the commit that put a new name where the one it gives stood",
    "identifier-removed": "the commit that took the name it gives out of the code",
    "state-drift": "a commit closing what it calls open",
    "name-drift": "a new name in the manifest",
    "subject-deleted": "the deletion in git of what it is about",
    "subject-closed": "a commit closing what it is about",
    "plan-carried-out": "git showing the plan carried out",
    "plan-overtaken": "git showing files the plan names changed since",
    "plan-built": "git showing what the plan would add added since",
    "completed-work": "wording that describes finished work",
    "marked-done": "a status in its own head that says the work is finished",
    "redirect-stub": "a stub that only points at the memory holding its content",
    "done-and-built": "its own finished status, and every file and name it gives in the repo",
    "session-log": "a dated session log",
    "session-chatter": "session chatter with no lasting rule",
    "noise": "diagnostic output, not knowledge",
    "never-persist": "a never-persist rule that matches it",
    "exact-duplicate": "an exact copy kept elsewhere",
    "contained-duplicate": "a longer memory that holds all of it",
    "claude-md-duplicate": "the same text, in order, in one section of CLAUDE.md",
    "claude-md-overlap": "its rule in a section of the project's instructions",
    "abandoned-strategy": "an abandoned approach whose trigger persists",
    "decision-reversal": "a later decision that overrides it",
    "compression-loss": "a reason its commit gave that it dropped",
    "low-importance": "an importance marked below 0.2",
    "near-duplicate": "another memory in nearly the same words",
    "contradiction": "another memory that says otherwise",
    "secret": "a credential in its text",
    "poison": "untrusted or instruction-like content",
    "public-reference": "a pointer to public documentation only",
}


def evidence_words(evidence_class: str | None) -> str:
    """What the evidence is, for a person: `a dated session log` (two classes joined by
    `+` read as both)."""
    if not evidence_class:
        return "the findings shown"
    return " and ".join(EVIDENCE_WORDS.get(part, part.replace("-", " "))
                        for part in evidence_class.split("+"))


RENAMED_AT = 90  # git's similarity score of a rename that keeps the file what it was


class Strength(IntEnum):
    """How much a kind of evidence proves, strongest last."""

    WORDING = 1  # phrases that suggest, such as "currently" or a docs-only link
    SHAPE = 2  # the form of the memory: a dated session log, a traceback, a near copy
    HISTORY = 3  # git history or an exact copy proves it
    CONFLICT = 4  # two memories disagree: someone must choose
    SAFETY = 5  # a secret or an injected instruction


def drift_class(finding: Finding) -> str:
    """The evidence class of one staleness finding."""
    code, ev = finding.code, finding.evidence
    if code is FindingCode.PATH_DRIFT:
        if ev.get("kind") == "tracked-not-ignored":
            return "tracked-not-ignored"
        if ev.get("ambiguous"):
            return "lone-name-moved"
        if "current_path" not in ev:
            return "path-deleted"
        similarity = ev.get("similarity", 100)
        # moved nearly unchanged: the new path is the same file; moved and much rewritten,
        # what the memory said of it may no longer hold
        return "path-renamed" if not isinstance(similarity, int) or similarity >= \
            RENAMED_AT else "path-moved-edited"
    if code is FindingCode.COUNT_DRIFT:
        if ev.get("kind") == "line-count":
            return "line-count-drift"
        if ev.get("kind") == "enum-members":
            return "enum-drift"
        return "prose-count-drift" if ev.get("kind") == "prose-count" else "count-drift"
    if code is FindingCode.VERSION_DRIFT:
        if ev.get("kind") in ("release", "tool-dropped", "document-version"):
            return {"release": "release-drift", "tool-dropped": "tool-dropped",
                    "document-version": "version-drift"}[str(ev["kind"])]
        return "tool-replaced" if "tool" in ev else "version-drift"
    if code is FindingCode.NAME_DRIFT and ev.get("kind") == "identifier":
        if "moved_to" in ev:
            return "identifier-moved"
        return "identifier-replaced" if ev.get("current") else "identifier-removed"
    return str(code.value)
