"""Undo one pass (`restore --pass PASS_ID|last|YYYY-MM-DD`), and list what can be restored.

A pass is named by its id (the stamp the summary prints), `last`, or its day when that day
had only one. When every file the pass touched still holds what the pass left, the
directory goes back byte for byte, modification times included, to how the pass found it
— `pruning-log.md` and `deaccessioned/` too — and what the pass wrote is archived under
the state directory first. When something was written since, that file is not
overwritten: each register id of the pass is restored on its own instead (newest first),
the log records it, and every later pass that touched the same files is named: it stays
applied, never undone along with this one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import ClassVar

from prune_memory.engine import passrecord
from prune_memory.engine.journal import OneStep, StepOutcome, carried_out, kind
from prune_memory.engine.passrecord import PassRecord
from prune_memory.engine.restore import restore
from prune_memory.engine.results import Applied, Skipped
from prune_memory.engine.session import writing
from prune_memory.engine.tombstone import iso_utc
from prune_memory.errors import BadInputError, ExitCode, PruneMemoryError, RefusedError
from prune_memory.model import INDEX_FILE, JSON, LOG_FILE, TOMBSTONE_DIR
from prune_memory.store.files import (
    StepConflict,
    copy_times,
    ensure_file,
    remove_empty_folder,
    remove_if,
    replace_if,
    sha256,
    sha_or_none,
)
from prune_memory.store.pruninglog import PruningLog, RegisterRow, read_log
from prune_memory.store.snapshot import read_manifest, read_snapshot_file, stored_path


@dataclass(frozen=True)
class Undone:
    """One pass undone: exactly (`archive` set), or id by id (`conflicts` say why)."""

    stamp: str
    date: str
    files: tuple[str, ...] = ()
    archive: str | None = None
    conflicts: tuple[str, ...] = ()
    applied: tuple[Applied, ...] = ()
    skipped: tuple[Skipped, ...] = field(default=())
    later: tuple[Later, ...] = ()  # passes since that touched its files: still applied

    @property
    def exact(self) -> bool:
        return self.archive is not None

    def to_json(self) -> JSON:
        return {"pass": self.stamp, "date": self.date, "exact": self.exact,
                "files": list(self.files), "archive": self.archive,
                "conflicts": list(self.conflicts),
                "applied": [a.to_json() for a in self.applied],
                "skipped": [s.to_json() for s in self.skipped],
                "later": [{"pass": p.stamp, "command": p.command, "files": list(p.files)}
                          for p in self.later]}


@dataclass(frozen=True)
class Later:
    """A pass made after the one undone that changed some of the same files."""

    stamp: str
    command: str
    files: tuple[str, ...]


def undo_passes(root: Path, which: str, *, now: datetime) -> list[Undone]:
    """Undo one pass: the one with id `which`, the last one (`last`), or the only pass of
    day `which`. A day with several passes names them instead (BadInputError): undoing
    them all at once took a `sweep --apply` and a `withdraw` with the pass asked for."""
    with writing(root):
        passrecord.settle(root)  # a pass that stopped before its record is the last one
        live = _live(root)
        record = choose(live, which)
        later = tuple(_later(live, record))
        return [replace(_undo(root, record, now), later=later)]


def choose(live: list[PassRecord], which: str) -> PassRecord:
    """The pass `which` names among those not undone yet."""
    if which == "last" and live:
        return live[-1]
    chosen = [r for r in live if which in (r.date, r.stamp)]
    if len(chosen) == 1:
        return chosen[0]
    if not chosen:
        raise BadInputError(f"no pass to undo for {which!r}; `prune-memory restore --list` "
                            "shows each pass with its id")
    ids = ", ".join(f"{r.stamp} ({r.command or 'a pass'})" for r in chosen)
    raise BadInputError(f"{which} had {len(chosen)} passes: {ids}; give the id of the one "
                        "to undo (`restore --pass last` is the newest); nothing was changed")


def _later(live: list[PassRecord], record: PassRecord) -> list[Later]:
    after = live[live.index(record) + 1:]
    return [Later(r.stamp, r.command, shared) for r in after
            if (shared := tuple(sorted(set(r.after) & set(record.after))))]


def _undo(root: Path, record: PassRecord, now: datetime) -> Undone:
    before = read_manifest(Path(record.manifest)) if Path(record.manifest).is_file() else None
    now_there = {rel: sha_or_none(root / rel) for rel in record.after}
    if before is not None and all(now_there[rel] == before.get(stored_path(rel))
                                  for rel in now_there):
        passrecord.write(root, replace(record, undone=iso_utc(now)))  # undone before a crash
        return Undone(record.stamp, record.date, tuple(record.after), archive="(done before)")
    conflicts = [rel for rel, digest in sorted(record.after.items()) if now_there[rel] != digest]
    if before is None:
        conflicts.append(f"the snapshot {record.manifest} is gone")
    if conflicts:
        undone = _one_by_one(root, record, tuple(conflicts), now)
        if _all_restored(record, read_log(root)):  # nothing of it is left to offer again
            passrecord.write(root, replace(record, undone=iso_utc(now)))
        return replace(undone, skipped=(*undone.skipped, *_left_written(root, record, before)))
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    try:
        kept = passrecord.archive(root, record, stamp)
    except OSError as err:
        raise RefusedError(f"cannot keep a copy of what the pass wrote "
                           f"({err.strerror or err}); nothing was changed") from err
    assert before is not None
    snapshot = Path(record.manifest).parent
    files = [(rel, digest, before.get(stored_path(rel)))
             for rel, digest in sorted(record.after.items())]
    created = {str(d) for rel, _, was in files if was is None for d in Path(rel).parents}
    dirs = sorted(d for d in created - {"."} if not (snapshot / stored_path(d)).is_dir())
    carried_out(root, UndoPassStep(file=f"pass {record.stamp}", snapshot=str(snapshot),
                                   files=tuple(files), dirs=tuple(dirs)))
    passrecord.write(root, replace(record, undone=iso_utc(now)))
    return Undone(record.stamp, record.date, tuple(record.after), str(kept))


def _one_by_one(root: Path, record: PassRecord, conflicts: tuple[str, ...],
                now: datetime) -> Undone:
    """Something changed since the pass: restore each of its register ids instead."""
    log = read_log(root)
    applied: list[Applied] = []
    skipped: list[Skipped] = []
    for rid in reversed(record.register_ids):
        if log.row(rid) is None or log.restoration(rid) is not None:
            continue
        try:
            applied.extend(restore(root, rid, now=now, reason="undo of the pass").applied)
        except PruneMemoryError as err:
            skipped.append(Skipped(rid, str(err), int(err.exit_code)))
    return Undone(record.stamp, record.date, conflicts=conflicts, applied=tuple(applied),
                  skipped=tuple(skipped))


_OWN_WRITES = (INDEX_FILE, LOG_FILE, f"{TOMBSTONE_DIR}/")


def _left_written(root: Path, record: PassRecord,
                  before: dict[str, str] | None) -> tuple[Skipped, ...]:
    """Memories the pass created that restoring its register ids leaves in place (a
    reaccession's new file carries the id it came from, not one of its own)."""
    if before is None:
        return ()
    return tuple(Skipped(rel, "written by this pass and not taken back by restoring its ids: "
                              "withdraw it if it should go", int(ExitCode.FINDINGS))
                 for rel in sorted(record.after)
                 if before.get(stored_path(rel)) is None and not rel.startswith(_OWN_WRITES)
                 and sha_or_none(root / rel) == record.after[rel])


@dataclass(frozen=True)
class Restorable:
    """What `restore --list` shows: register ids not restored yet, and passes not undone."""

    rows: tuple[RegisterRow, ...]
    passes: tuple[PassRecord, ...]

    def to_json(self) -> JSON:
        return {"schema": "prune-memory/restorable@1",
                "register": [{"register_id": r.register_id, "entry": r.entry, "type": r.type,
                              "reason": r.reason, "tombstone": r.tombstone,
                              "superseded_by": r.superseded_by} for r in self.rows],
                "passes": [{"pass": p.stamp, "date": p.date, "command": p.command,
                            "files": sorted(p.after), "register_ids": list(p.register_ids)}
                           for p in self.passes]}


def restorable(root: Path) -> Restorable:
    log = read_log(root)
    rows = tuple(r for r in log.rows if log.restoration(r.register_id) is None)
    return Restorable(rows, tuple(_live(root, log)))


def _live(root: Path, log: PruningLog | None = None) -> list[PassRecord]:
    """Passes that can still be undone: not undone whole, and not already taken back id by
    id (every register id it wrote restored since, by an undo or by hand)."""
    log = log or read_log(root)
    return [r for r in passrecord.records(root)
            if r.undone is None and not _all_restored(r, log)]


def _all_restored(record: PassRecord, log: PruningLog) -> bool:
    return bool(record.register_ids) and all(
        log.restoration(rid) is not None for rid in record.register_ids)


@kind
@dataclass(frozen=True)
class UndoPassStep(OneStep):
    """Every file a pass touched back to the snapshot's bytes and modification time: files
    it changed or removed are written back first (each body is then in its own file
    again), files it created are removed after, and folders it created are removed when
    empty. Each part looks at the disk first, so a run interrupted anywhere finishes on
    `recover`."""

    OP: ClassVar[str] = "undo-pass"
    file: str  # "pass <stamp>"
    snapshot: str
    files: tuple[tuple[str, str | None, str | None], ...]  # (path, after the pass, before)
    dirs: tuple[str, ...] = ()

    def run(self, root: Path) -> StepOutcome:
        """Put every recorded file back as the snapshot holds it (or remove it)."""
        return _run_undo(root, self)


def _run_undo(root: Path, step: UndoPassStep) -> StepOutcome:
    snapshot = Path(step.snapshot)
    files = [(_relative(rel), after, before) for rel, after, before in step.files]
    for rel, after, before in sorted(files, key=lambda f: f[2] is None):
        current = sha_or_none(root / rel)
        if current == before:
            if before is not None:  # written back before a crash: its time may not be
                copy_times(snapshot / stored_path(rel), root / rel)
            continue
        if current != after:
            raise StepConflict(f"{rel} changed while the pass was being undone; left as it is")
        if before is None:
            remove_if(root / rel, str(after))
            continue
        data = read_snapshot_file(snapshot, rel)
        if data is None or sha256(data) != before:
            raise StepConflict(f"{rel} is missing from the snapshot {snapshot}")
        if after is None:  # the pass removed it
            ensure_file(root / rel, data)
        else:  # only over what the pass left; a line appended meanwhile is kept
            replace_if(root / rel, str(after), data)
        copy_times(snapshot / stored_path(rel), root / rel)
    for rel in sorted((_relative(d) for d in step.dirs), key=len, reverse=True):
        remove_empty_folder(root / rel)
    return StepOutcome("undo", step.file, "done", f"{len(files)} file(s) put back")


def _relative(rel: str) -> str:
    """A path under the memory directory, as the pass record names it; anything else is a
    record the tool never writes (ValueError: `recover` sets it aside)."""
    path = PurePosixPath(str(rel))
    if not str(rel) or path.is_absolute() or ".." in path.parts:
        raise ValueError(f"undo record names {rel!r}, which is not inside the memory "
                         "directory")
    return str(rel)
