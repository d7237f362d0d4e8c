"""Restore a withdrawn entry byte for byte, from its tombstone or, failing that, the snapshot."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from prune_memory.engine import vault
from prune_memory.engine.build_line import is_index_line, restore_line_step, snapshot_line
from prune_memory.engine.build_update import revert_step
from prune_memory.engine.build_update_line import revert_line_step
from prune_memory.engine.edits import indexedit
from prune_memory.engine.results import ApplyResult, applied_from, result
from prune_memory.engine.session import writing
from prune_memory.engine.steps.recovery import execute
from prune_memory.engine.tombstone import IndexLineRecord, Tombstone, read_tombstone
from prune_memory.engine.tombstone_hints import index_records
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import INDEX_FILE, OWN_FILES, Finding, FindingCode
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import sha256, sha_or_none
from prune_memory.store.logtable import code_name
from prune_memory.store.pruninglog import PruningLog, RegisterRow, read_log
from prune_memory.store.safe_read import is_member_name
from prune_memory.store.snapshot import read_snapshot_file, trusted_snapshot
from prune_memory.store.temps import is_temp_name


@dataclass(frozen=True)
class Source:
    file: str
    data: bytes
    records: tuple[IndexLineRecord, ...]
    superseded: str | None
    where: str
    finding: Finding | None = None
    ref: dict[str, str] | None = None  # where the step reads the bytes again (not the bytes)
    superseded_sha256: str | None = None  # what the withdrawal wrote there, when recorded
    link_edits: tuple[dict[str, Any], ...] = ()


def restore(root: Path, register_id: str, *, now: datetime, reason: str = "") -> ApplyResult:
    """Put a withdrawn entry back (file, index line) and append a restoration row."""
    with writing(root) as notes:
        log = read_log(root)
        row = log.row(register_id)
        if row is None:
            raise BadInputError(f"no register row {register_id} in the pruning log")
        if (done := log.restoration(register_id)) is not None:
            raise BadInputError(f"{register_id} was already restored on {done.date}")
        if (update := _update_of(root, row)) is not None:
            return _revert(root, update, row, _cells(now, update.header.original_file, row,
                                                     reason, row.tombstone), notes)
        source = _from_tombstone(root, row) or _from_snapshot(root, row)
        cells = _cells(now, source.file, row, reason, source.where)
        outcome = execute(root, _step(root, source, row, log, cells))
        if outcome.status != "done":
            raise RefusedError(outcome.message)
    findings = (source.finding,) if source.finding else ()
    return result(root, read_log(root), [applied_from(outcome, register_id=register_id,
                                                      tombstone=row.tombstone,
                                                      superseded=source.superseded)],
                  [], notes, findings)


def _cells(now: datetime, file: str, row: RegisterRow, reason: str, where: str) -> list[str]:
    said = " ".join(f"{reason.strip() or 'restored on request'}; from {where}".split())
    return [now.date().isoformat(), "restored", code_name(file), row.register_id,
            mask_text(said)]


def _update_of(root: Path, row: RegisterRow) -> Tombstone | None:
    """The tombstone of an update (the version it replaced), when `row` is one."""
    stone = read_tombstone(root, row.tombstone)
    stone = vault.resolved(root, stone) if stone is not None else None
    return stone if stone is not None and stone.header.is_update else None


def _revert(root: Path, stone: Tombstone, row: RegisterRow, cells: list[str],
            notes: list[str]) -> ApplyResult:
    restore_target(stone.header.original_file, f"tombstone {row.tombstone}")
    if is_index_line(stone.header.original_file):
        record = revert_line_step(stone, cells, row.tombstone, vault.original_of(root, stone))
    else:
        record = revert_step(stone, cells, row.tombstone)
    outcome = execute(root, record)
    if outcome.status != "done":
        raise RefusedError(outcome.message)
    done = applied_from(outcome, register_id=row.register_id, tombstone=row.tombstone)
    return result(root, read_log(root), [done], [], notes)


def _step(root: Path, source: Source, row: RegisterRow, log: PruningLog,
          cells: list[str]) -> dict[str, Any]:
    """The journal record of the restore: the file and its index lines, or for a fact of
    the index, just its line."""
    hints = index_records(root, skip=row.tombstone)
    sup = _superseded(root, source)
    fields = {"register_id": row.register_id, "row": cells, "message": _message(source, sup),
              "superseded": sup, "link_edits": list(source.link_edits)}
    if is_index_line(source.file):
        return restore_line_step(root, source.file, source.data, source.records, hints, log,
                                 **fields)
    current = sha_or_none(root / source.file)
    if current is not None and current != sha256(source.data):
        raise RefusedError(f"{source.file} exists again with other content; move it away "
                           "before restoring")
    return {"op": "restore", "file": source.file, "original_sha256": sha256(source.data),
            "source": source.ref, "index_lines": [r.to_json() for r in source.records],
            "hints": [h.to_json() for h in hints], **fields}


def _superseded(root: Path, source: Source) -> dict[str, str] | None:
    """The counter-memory to take away with the restore: only one the withdrawal recorded
    writing, and only while it still holds those bytes."""
    if not source.superseded or not source.superseded_sha256 \
            or not is_member_name(source.superseded):  # the header is text anyone can edit
        return None
    if sha_or_none(root / source.superseded) != source.superseded_sha256:
        return None
    return {"file": source.superseded, "sha256": source.superseded_sha256}


def _message(source: Source, sup: dict[str, str] | None) -> str:
    text = f"restored {source.file} from {source.where}"
    if sup:
        text += f"; removed the SUPERSEDED file {sup['file']} and its index line"
    elif source.superseded:
        text += (f"; the SUPERSEDED file {source.superseded} was left in place (changed since, "
                 "or written by an older version) and still blocks re-derivation — withdraw "
                 "it separately if it no longer applies")
    if source.link_edits:
        files = ", ".join(str(e["file"]) for e in source.link_edits)
        text += f"; put back the links to it in {files}"
    return text


def _from_tombstone(root: Path, row: RegisterRow) -> Source | None:
    read = read_tombstone(root, row.tombstone)
    stone = vault.resolved(root, read) if read is not None else None  # exact name, lines
    data = vault.original_of(root, stone) if stone is not None else None
    if stone is None or data is None:
        return None
    head = stone.header
    restore_target(head.original_file, f"tombstone {row.tombstone}")
    records = tuple(replace(rec, seq=head.register_id) for rec in head.index_lines)
    edits = head.extra("link_edits") or []
    for edit in edits:  # the header is text anyone can edit: only kept topic files
        if isinstance(edit, dict):
            restore_target(str(edit.get("file")), f"tombstone {row.tombstone}")
    return Source(file=head.original_file, data=data, records=records,
                  superseded=head.superseded_by, where=row.tombstone,
                  ref={"tombstone": row.tombstone},
                  superseded_sha256=head.extra("superseded_sha256"),
                  link_edits=tuple(e for e in edits if isinstance(e, dict)))


def restore_target(file: str, named_by: str) -> str:
    """The name restore may write: a plain topic file directly inside the memory directory,
    or an inline fact's line of MEMORY.md. Tombstone headers and register rows are files
    people (or anything else) can edit, so a path, an absolute name or one of the tool's own
    files named there is refused before anything is written."""
    topic = is_member_name(file) and file != INDEX_FILE and file not in OWN_FILES \
        and not is_temp_name(file)
    if not (topic or is_index_line(file)):
        raise RefusedError(f"{named_by} names {mask_text(repr(file))} as the file to restore; "
                           "only a plain name directly inside the memory directory is "
                           "restored — nothing was written")
    return file


def _from_snapshot(root: Path, row: RegisterRow) -> Source:
    """The tombstone is gone or damaged: take the body from the audit's snapshot."""
    file = row.file
    manifest = row.manifest
    if file is None or manifest is None:
        raise RefusedError(f"tombstone {row.tombstone} is missing and the register row does "
                           "not name a file and snapshot to fall back on")
    restore_target(file, f"register row {row.register_id}")
    snap = trusted_snapshot(root, manifest)
    line = snapshot_line(snap, file) if is_index_line(file) else None
    data = line[0] if line else read_snapshot_file(snap, file)
    if data is None:
        raise RefusedError(f"tombstone {row.tombstone} is missing and {file} is not in the "
                           f"snapshot {manifest} (or no longer matches its manifest)")
    records = line[1] if line else \
        indexedit.remove_entry(read_snapshot_file(snap, INDEX_FILE) or b"", file)[1]
    sup = row.superseded_by if row.superseded_by not in ("", "N/A") else None
    finding = Finding(
        code=FindingCode.MALFORMED,
        message=f"tombstone {row.tombstone} of {row.register_id} is missing or damaged; "
                f"{file} was restored from the snapshot instead",
        evidence={"register_id": row.register_id, "tombstone": row.tombstone,
                  "snapshot_manifest": manifest})
    return Source(file=file, data=data, records=records, superseded=sup,
                  where=f"snapshot {manifest}", finding=finding,
                  ref={"snapshot": str(snap), "file": file})
