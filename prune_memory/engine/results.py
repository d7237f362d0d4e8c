"""What the engine's operations take and return."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from prune_memory.engine.journal import StepOutcome
from prune_memory.model import JSON, Finding
from prune_memory.store.files import topic_names
from prune_memory.store.pruninglog import PruningLog

PROTECTED_SHARE_LIMIT = 0.30


@dataclass(frozen=True)
class WithdrawRequest:
    """One entry to withdraw. `expected_sha256` is the hash the plan saw (None: take it now)."""

    file: str
    reason: str
    rule: str = "manual"
    expected_sha256: str | None = None
    memory_class: str | None = None
    unlink: bool = True  # turn `[[links]]` to it in kept memories into words, reversibly


@dataclass(frozen=True)
class Applied:
    op: str
    file: str
    status: str
    message: str = ""
    register_id: str | None = None
    tombstone: str | None = None
    superseded: str | None = None
    vault: str | None = None  # where the original went when it held a secret
    linked: tuple[str, ...] = ()  # kept memories whose `[[links]]` to it were unlinked

    def to_json(self) -> JSON:
        return {"op": self.op, "file": self.file, "status": self.status,
                "message": self.message, "register_id": self.register_id,
                "tombstone": self.tombstone, "superseded": self.superseded,
                "vault": self.vault, "linked": list(self.linked)}


@dataclass(frozen=True)
class Skipped:
    """An item refused (exit code 4) or rejected as bad input (2); nothing of it was written."""

    file: str
    reason: str
    code: int

    def to_json(self) -> JSON:
        return {"file": self.file, "reason": self.reason, "code": self.code}


@dataclass(frozen=True)
class ApplyResult:
    applied: tuple[Applied, ...]
    skipped: tuple[Skipped, ...] = ()
    warnings: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = field(default=())

    @property
    def register_ids(self) -> tuple[str, ...]:
        return tuple(a.register_id for a in self.applied if a.register_id)

    def to_json(self) -> JSON:
        return {"applied": [a.to_json() for a in self.applied],
                "skipped": [s.to_json() for s in self.skipped],
                "warnings": list(self.warnings),
                "findings": [f.to_json() for f in self.findings]}


def applied_from(outcome: StepOutcome, **extra: Any) -> Applied:
    return Applied(op=outcome.op, file=outcome.file, status=outcome.status,
                   message=outcome.message, **extra)


def with_vault_note(done: Applied, vault: str | None) -> Applied:
    """A withdrawal whose original held a secret says where the bytes went, and what to do."""
    if not vault:
        return done
    note = (f"; it held a secret, so the tombstone keeps a redacted copy and the original "
            f"bytes are only in the private vault {vault} — rotate that credential: it was "
            "readable in memory")
    return replace(done, message=done.message + note, vault=vault)


def protected_warning(root: Path, log: PruningLog) -> str | None:
    """A warning when more than 30% of the entries are protected."""
    entries = topic_names(root)
    protected = {p.file for p in log.protected} & entries
    if not entries or len(protected) / len(entries) <= PROTECTED_SHARE_LIMIT:
        return None
    share = round(100 * len(protected) / len(entries))
    return (f"{len(protected)} of {len(entries)} entries ({share}%) are protected; protection is "
            "for context that cannot be rebuilt — review the list")


def result(root: Path, log: PruningLog, applied: list[Applied], skipped: list[Skipped],
           notes: list[str], findings: tuple[Finding, ...] = ()) -> ApplyResult:
    warning = protected_warning(root, log)
    return ApplyResult(applied=tuple(applied), skipped=tuple(skipped),
                       warnings=(*notes, *([warning] if warning else [])), findings=findings)
