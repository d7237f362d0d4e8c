"""`filters init`: write the bundled retention-policy template into a memory directory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from prune_memory.analysis.policy import template_text
from prune_memory.errors import RefusedError
from prune_memory.vocab import POLICY_FILE


class PolicyWritten(NamedTuple):
    """Where the template went; when it replaced a policy, the snapshot that holds the old
    one and what `restore --pass` takes to put it back."""

    path: Path
    snapshot: Path | None = None
    undo: str | None = None


def init_policy(root: Path, *, force: bool = False, now: datetime | None = None
                ) -> PolicyWritten:
    """Write the template policy into `root`; refuse to replace an existing one unless
    forced. A forced replacement is a pass of its own: the directory is snapshotted first
    and the pass recorded, so the user's policy is never lost (`restore --pass`)."""
    from prune_memory.engine.session import writing
    from prune_memory.procedure.auditlog import begin_pass, record_pass
    from prune_memory.store import atomic
    from prune_memory.store.safe_read import present, require_directory
    from prune_memory.store.snapshot import take_snapshot

    require_directory(root)
    target = root / POLICY_FILE
    data = template_text().encode("utf-8")
    if not present(target):
        atomic.atomic_write(target, data)
        return PolicyWritten(target)
    if not force:
        raise RefusedError(f"{target} already exists; pass --force to replace it")
    when = now or datetime.now(UTC).replace(microsecond=0)
    with writing(root):
        command = "filters init --force"
        snapshot = begin_pass(root, take_snapshot(root, when), when, command)
        atomic.atomic_write(target, data)
        undo = record_pass(root, snapshot, when, [], command)
    return PolicyWritten(target, snapshot.manifest, undo)
