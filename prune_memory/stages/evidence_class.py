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
    "path-renamed", "path-deleted", "lone-name-moved", "tracked-not-ignored",
    "line-count-drift", "count-drift", "release-drift", "version-drift", "tool-replaced",
    "state-drift", "name-drift", "subject-deleted", "subject-closed", "plan-carried-out",
    "completed-work", "session-log", "session-chatter", "noise", "never-persist",
    "exact-duplicate", "contained-duplicate", "claude-md-duplicate", "abandoned-strategy",
    "decision-reversal", "compression-loss", "low-importance", "prose-count-drift",
})


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
        return "path-renamed" if "current_path" in ev else "path-deleted"
    if code is FindingCode.COUNT_DRIFT:
        if ev.get("kind") == "line-count":
            return "line-count-drift"
        return "prose-count-drift" if ev.get("kind") == "prose-count" else "count-drift"
    if code is FindingCode.VERSION_DRIFT:
        if ev.get("kind") == "release":
            return "release-drift"
        return "tool-replaced" if "tool" in ev else "version-drift"
    return str(code.value)
