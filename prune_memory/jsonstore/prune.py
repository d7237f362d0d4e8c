"""Split a store into kept and archived records; only exact duplicates and stale records go.

Near duplicates and contradiction flags never archive anything: they need a human.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.errors import BadInputError
from prune_memory.jsonstore.analysis import StoreAnalysis
from prune_memory.jsonstore.records import StoreRecord
from prune_memory.model import JSON
from prune_memory.store import atomic

STALE_THRESHOLD = 0.8
MIN_AGE_DAYS = 90
ARCHIVE_REASON = "_archive_reason"


@dataclass(frozen=True)
class PruneOutcome:
    kept: tuple[StoreRecord, ...]
    archived: tuple[tuple[StoreRecord, str], ...]

    def summary(self) -> JSON:
        return {"kept": len(self.kept), "archived": len(self.archived),
                "kept_ids": [r.id for r in self.kept],
                "archived_ids": [r.id for r, _reason in self.archived]}


def plan_prune(
    records: Sequence[StoreRecord],
    analysis: StoreAnalysis,
    *,
    stale_threshold: float = STALE_THRESHOLD,
    min_age_days: int = MIN_AGE_DAYS,
) -> PruneOutcome:
    """Pinned records stay; later copies of an exact duplicate go; stale and old records go."""
    later_copies = {i for group in analysis.exact_groups for i in group[1:]}
    kept: list[StoreRecord] = []
    archived: list[tuple[StoreRecord, str]] = []
    for position, (record, decay) in enumerate(zip(records, analysis.decay, strict=True)):
        if record.pinned:
            kept.append(record)
        elif position in later_copies:
            archived.append((record, "exact duplicate"))
        elif decay.score >= stale_threshold and decay.days_idle >= min_age_days:
            archived.append((record, f"stale score {decay.score}"))
        else:
            kept.append(record)
    return PruneOutcome(kept=tuple(kept), archived=tuple(archived))


def backup_path(store: Path, now: datetime, folder: Path | None = None) -> Path:
    """`<store>.bak-<UTC stamp>` beside the store (or in `folder`); a name already taken
    by other bytes gets a counter, one holding the same bytes is reused."""
    folder = folder if folder is not None else store.parent
    stem = f"{store.name}.bak-{now.astimezone(UTC):%Y%m%dT%H%M%SZ}"
    data = store.read_bytes()
    for number in range(1, 1000):
        candidate = folder / (stem if number == 1 else f"{stem}-{number}")
        if not candidate.exists() or candidate.read_bytes() == data:
            return candidate
    raise BadInputError(f"too many backups named {stem} in {folder}")


def write_outcome(outcome: PruneOutcome, store: Path, out: Path, archive: Path,
                  backup: Path | None = None) -> None:
    """Write kept and archived records as JSONL; never over the store itself. With `backup`,
    the store's bytes are copied there first, so swapping the kept file in can be undone."""
    targets = {_same_file_key(p) for p in (store, out, archive, *([backup] if backup else []))}
    if len(targets) < (4 if backup else 3):
        raise BadInputError("--out, --archive and the store must be three different files"
                            + (f", and none of them the backup {backup}" if backup else ""))
    if backup is not None:
        _write(backup, store.read_bytes())
    archived = ({**record.raw, ARCHIVE_REASON: reason} for record, reason in outcome.archived)
    _write(archive, _jsonl(archived))
    _write(out, _jsonl(record.raw for record in outcome.kept))


def _jsonl(objects: Iterable[JSON]) -> bytes:
    return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in objects).encode()


def _same_file_key(path: Path) -> str:
    return os.path.normcase(os.path.realpath(path))


def _write(path: Path, data: bytes) -> None:
    folder = path.parent
    if not folder.is_dir():
        raise BadInputError(f"folder does not exist: {folder}")
    try:
        atomic.atomic_write(path, data)
    except OSError as err:
        raise BadInputError(f"cannot write {path}: {err.strerror or err}") from err
