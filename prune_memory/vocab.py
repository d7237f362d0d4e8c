"""Names every layer shares: file names, finding codes, the JSON alias.

Kept free of dataclasses so the write-time gate, which runs once per tool call, can import
it cheaply; `model` re-exports everything here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

JSON = dict[str, Any]

INDEX_FILE = "MEMORY.md"
LOG_FILE = "pruning-log.md"
POLICY_FILE = "retention-policy.md"
TOMBSTONE_DIR = "deaccessioned"
OWN_FILES = frozenset({LOG_FILE, POLICY_FILE})
MEMORY_TYPES = frozenset({"user", "feedback", "project", "reference"})


class FindingCode(StrEnum):
    EPHEMERAL = "ephemeral"
    PATH_DRIFT = "path-drift"
    COUNT_DRIFT = "count-drift"
    STATE_DRIFT = "state-drift"
    VERSION_DRIFT = "version-drift"
    NAME_DRIFT = "name-drift"
    DECISION_REVERSAL = "decision-reversal"
    DUPLICATE = "duplicate"
    NEAR_DUPLICATE = "near-duplicate"
    CONTRADICTION = "contradiction"
    CLAUDE_MD_DUPLICATE = "claude-md-duplicate"
    SECRET = "secret"
    NOISE = "noise"
    POISON = "poison"
    NO_PROVENANCE = "no-provenance"
    STALE = "stale"
    UNVERIFIABLE = "unverifiable"
    SUPERSEDED_CANDIDATE = "superseded-candidate"
    LOW_UTILITY = "low-utility"
    MALFORMED = "malformed"
