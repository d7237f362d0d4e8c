"""Restore: put back what a register id took, byte for byte — a withdrawn topic file or
fact (from its tombstone or, failing that, the snapshot), or the version an update replaced.

The steps: `RestoreStep` writes the original back, re-adds its index lines where their
neighbours say they were, takes away the counter-memory the withdrawal wrote and puts back
the `[[links]]` it unlinked, then logs the restoration; `RestoreLineStep` does the same for
a fact's line of MEMORY.md. `RevertUpdateStep` and `RevertUpdateLineStep` take an update
back while the file (or the index) still holds what the update wrote. The records hold no
body: each step reads the bytes again from the tombstone or snapshot it names.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from prune_memory.engine import vault
from prune_memory.engine.entries import is_index_line
from prune_memory.engine.journal import OneStep, StepOutcome, carried_out, kind, unpack
from prune_memory.engine.links import LinkEdit, revert_edit
from prune_memory.engine.results import ApplyResult, applied_from, result
from prune_memory.engine.session import writing
from prune_memory.engine.superseded import CounterMemory
from prune_memory.engine.tombstone import Tombstone, index_records, read_tombstone
from prune_memory.engine.update import rewrite_lines
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import INDEX_FILE, OWN_FILES, Finding, FindingCode
from prune_memory.secrets.mask import mask_text
from prune_memory.store import index_edit
from prune_memory.store.files import (
    StepConflict,
    edit_index,
    ensure_file,
    inside,
    read_or_none,
    remove_if,
    replace_if,
    sha256,
    sha_or_none,
)
from prune_memory.store.index import index_line_number
from prune_memory.store.index_placement import IndexLineRecord
from prune_memory.store.pruninglog import PruningLog, RegisterRow, code_name, log_once, read_log
from prune_memory.store.safe_read import is_member_name
from prune_memory.store.snapshot import read_snapshot_file, trusted_snapshot
from prune_memory.store.temps import is_temp_name


@dataclass(frozen=True)
class Source:
    """Where a step reads the original again: a tombstone, or a file of a snapshot."""

    tombstone: str | None = None
    snapshot: str | None = None
    file: str | None = None

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in (("tombstone", self.tombstone), ("snapshot", self.snapshot),
                                  ("file", self.file)) if v is not None}

    @classmethod
    def from_json(cls, data: dict[str, str]) -> Source:
        return cls(**{k: str(data[k]) for k in ("tombstone", "snapshot", "file") if k in data})


@dataclass(frozen=True)
class Original:
    """A withdrawn entry found again: its bytes, its index lines, where they came from."""

    file: str
    data: bytes
    records: tuple[IndexLineRecord, ...]
    superseded: str | None
    where: str
    finding: Finding | None = None
    ref: Source | None = None  # where the step reads the bytes again (not the bytes)
    superseded_sha256: str | None = None  # what the withdrawal wrote there, when recorded
    link_edits: tuple[LinkEdit, ...] = ()


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
        outcome = carried_out(root, _step(root, source, row, log, cells))
    findings = (source.finding,) if source.finding else ()
    return result(root, read_log(root), [applied_from(outcome, register_id=register_id,
                                                      tombstone=row.tombstone,
                                                      superseded=source.superseded)],
                  [], notes, findings)


def _cells(now: datetime, file: str, row: RegisterRow, reason: str,
           where: str) -> tuple[str, ...]:
    said = " ".join(f"{reason.strip() or 'restored on request'}; from {where}".split())
    return (now.date().isoformat(), "restored", code_name(file), row.register_id,
            mask_text(said))


def _update_of(root: Path, row: RegisterRow) -> Tombstone | None:
    """The tombstone of an update (the version it replaced), when `row` is one."""
    stone = read_tombstone(root, row.tombstone)
    stone = vault.resolved(root, stone) if stone is not None else None
    return stone if stone is not None and stone.header.is_update else None


def _revert(root: Path, stone: Tombstone, row: RegisterRow, cells: tuple[str, ...],
            notes: list[str]) -> ApplyResult:
    restore_target(stone.header.original_file, f"tombstone {row.tombstone}")
    step: RevertUpdateStep | RevertUpdateLineStep
    if is_index_line(stone.header.original_file):
        step = revert_line_step(stone, cells, row.tombstone, vault.original_of(root, stone))
    else:
        step = revert_step(stone, cells, row.tombstone)
    outcome = carried_out(root, step)
    done = applied_from(outcome, register_id=row.register_id, tombstone=row.tombstone)
    return result(root, read_log(root), [done], [], notes)


def _step(root: Path, source: Original, row: RegisterRow, log: PruningLog,
          cells: tuple[str, ...]) -> RestoreStep | RestoreLineStep:
    """The step of the restore: the file and its index lines, or for a fact of the index,
    just its line."""
    hints = tuple(index_records(root, skip=row.tombstone))
    sup = _superseded(root, source)
    if is_index_line(source.file):
        record = restored_record(source.file, source.data, source.records)
        index = read_or_none(root / INDEX_FILE) or b""
        return RestoreLineStep(
            file=source.file, original_sha256=sha256(source.data),
            copies=index_edit.count_line(index, record.text), index_lines=(record,),
            hints=hints, restored=tuple(sorted({h.seq for h in hints
                                                if log.restoration(h.seq) is not None})),
            register_id=row.register_id, row=cells, message=_message(source, sup),
            superseded=sup, link_edits=source.link_edits)
    current = sha_or_none(root / source.file)
    if current is not None and current != sha256(source.data):
        raise RefusedError(f"{source.file} exists again with other content; move it away "
                           "before restoring")
    return RestoreStep(file=source.file, original_sha256=sha256(source.data),
                       source=source.ref or Source(), index_lines=source.records, hints=hints,
                       register_id=row.register_id, row=cells, message=_message(source, sup),
                       superseded=sup, link_edits=source.link_edits)


def _superseded(root: Path, source: Original) -> CounterMemory | None:
    """The counter-memory to take away with the restore: only one the withdrawal recorded
    writing, and only while it still holds those bytes."""
    if not source.superseded or not source.superseded_sha256 \
            or not is_member_name(source.superseded):  # the header is text anyone can edit
        return None
    if sha_or_none(root / source.superseded) != source.superseded_sha256:
        return None
    return CounterMemory(file=source.superseded, sha256=source.superseded_sha256)


def _message(source: Original, sup: CounterMemory | None) -> str:
    text = f"restored {source.file} from {source.where}"
    if sup:
        text += f"; removed the SUPERSEDED file {sup.file} and its index line"
    elif source.superseded:
        text += (f"; the SUPERSEDED file {source.superseded} was left in place (changed since, "
                 "or written by an older version) and still blocks re-derivation — withdraw "
                 "it separately if it no longer applies")
    if source.link_edits:
        files = ", ".join(e.file for e in source.link_edits)
        text += f"; put back the links to it in {files}"
    return text


def _from_tombstone(root: Path, row: RegisterRow) -> Original | None:
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
    return Original(file=head.original_file, data=data, records=records,
                    superseded=head.superseded_by, where=row.tombstone,
                    ref=Source(tombstone=row.tombstone),
                    superseded_sha256=head.extra("superseded_sha256"),
                    link_edits=tuple(LinkEdit.from_json(e) for e in edits if isinstance(e, dict)))


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


def _from_snapshot(root: Path, row: RegisterRow) -> Original:
    """The tombstone is gone or damaged: take the body from the audit's snapshot."""
    file = row.file
    manifest = row.manifest
    if file is None or manifest is None:
        raise RefusedError(f"tombstone {row.tombstone} is missing and the register row does "
                           "not name a file and snapshot to fall back on")
    restore_target(file, f"register row {row.register_id}")
    snap = trusted_snapshot(root, manifest)
    line = _snapshot_line(snap, file) if is_index_line(file) else None
    data = line[0] if line else read_snapshot_file(snap, file)
    if data is None:
        raise RefusedError(f"tombstone {row.tombstone} is missing and {file} is not in the "
                           f"snapshot {manifest} (or no longer matches its manifest)")
    records = line[1] if line else \
        index_edit.remove_entry(read_snapshot_file(snap, INDEX_FILE) or b"", file)[1]
    sup = row.superseded_by if row.superseded_by not in ("", "N/A") else None
    finding = Finding(
        code=FindingCode.MALFORMED,
        message=f"tombstone {row.tombstone} of {row.register_id} is missing or damaged; "
                f"{file} was restored from the snapshot instead",
        evidence={"register_id": row.register_id, "tombstone": row.tombstone,
                  "snapshot_manifest": manifest})
    return Original(file=file, data=data, records=records, superseded=sup,
                    where=f"snapshot {manifest}", finding=finding,
                    ref=Source(snapshot=str(snap), file=file))


def _snapshot_line(snapshot_dir: Path,
                   file: str) -> tuple[bytes, tuple[IndexLineRecord, ...]] | None:
    """The fact's bytes and record from the index of the audit's snapshot (tombstone lost)."""
    number = index_line_number(file)
    index = read_snapshot_file(snapshot_dir, INDEX_FILE)
    if number is None or index is None:
        return None
    parsed = index_edit.IndexText.parse(index)
    if number > len(parsed.lines):
        return None
    record = index_edit.line_record(parsed, number - 1)
    return (record.text + record.eol).encode("utf-8"), (record,)


def restored_record(file: str, data: bytes,
                    records: tuple[IndexLineRecord, ...]) -> IndexLineRecord:
    """The record to put back: the tombstone's, when it agrees with the stored bytes; else
    one made from the bytes alone, placed by its old line number."""
    parsed = index_edit.IndexText.parse(data)
    if len(parsed.lines) != 1:
        raise RefusedError(f"the stored bytes of {file} are not one line; not restoring")
    text, eol = parsed.lines[0], parsed.eols[0]
    for record in records:
        if record.text == text and record.eol == eol:
            return record
    return IndexLineRecord(text=text, eol=eol, at=(index_line_number(file) or 1) - 1)


# --- The steps ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class _Restore(OneStep):
    """What both restores of a withdrawal record."""

    file: str
    original_sha256: str
    row: tuple[str, ...]
    index_lines: tuple[IndexLineRecord, ...] = ()
    hints: tuple[IndexLineRecord, ...] = ()
    register_id: str = ""
    message: str = ""
    superseded: CounterMemory | None = None
    link_edits: tuple[LinkEdit, ...] = ()

    def _drop_superseded(self, root: Path) -> None:
        """The counter-memory the withdrawal wrote, and its index line, go with the restore
        — only while it holds exactly the bytes the withdrawal wrote (the step says so)."""
        sup = self.superseded
        if not sup:
            return
        target = inside(root, sup.file)  # a name from a tombstone: never a path out
        if sha_or_none(target) == sup.sha256:
            edit_index(root, lambda raw: index_edit.remove_entry(raw, sup.file)[0])
            remove_if(target, sup.sha256)

    def _relink(self, root: Path) -> None:
        """Put back the `[[links]]` the withdrawal turned into words in kept memories."""
        for edit in self.link_edits:
            revert_edit(root, edit)


@kind
@dataclass(frozen=True, kw_only=True)
class RestoreStep(_Restore):
    """A topic file back byte for byte, its index lines re-added, the restoration logged."""

    OP: ClassVar[str] = "restore"
    source: Source = Source()
    data: str | None = None  # the bytes, in records written before restores named a source

    def run(self, root: Path) -> StepOutcome:
        target = inside(root, self.file)
        data = unpack(self.data) if self.data is not None else \
            restore_bytes(root, self.file, self.original_sha256, self.source)
        try:
            ensure_file(target, data)
        except StepConflict:
            return StepOutcome("restore", self.file, "rolled-back", f"{self.file} exists with "
                               "other content; nothing was restored — move it away and restore "
                               "again")
        self._drop_superseded(root)
        edit_index(root, lambda raw: index_edit.restore_lines(raw, self.index_lines, self.hints))
        self._relink(root)
        log_once(root, self.row)
        return StepOutcome("restore", self.file, "done", self.message)


@kind
@dataclass(frozen=True, kw_only=True)
class RestoreLineStep(_Restore):
    """A withdrawn fact's line back where it was in MEMORY.md, the restoration logged."""

    OP: ClassVar[str] = "restore-line"
    copies: int
    restored: tuple[str, ...] = ()

    def run(self, root: Path) -> StepOutcome:
        (record,) = self.index_lines

        def put_back(raw: bytes) -> bytes:
            if index_edit.count_line(raw, record.text) > self.copies:
                return raw  # already back
            return index_edit.insert_line(raw, record, self.hints, self.restored)

        self._drop_superseded(root)
        edit_index(root, put_back)
        self._relink(root)
        log_once(root, self.row)
        return StepOutcome("restore", self.file, "done", self.message)


def restore_bytes(root: Path, file: str, original_sha256: str, source: Source) -> bytes:
    """The original, read again from the tombstone or snapshot the record names (the record
    holds no body); both stay in place after a restore, so this can run again."""
    here = read_or_none(root / file)
    if here is not None and sha256(here) == original_sha256:
        return here  # already restored
    if source.tombstone is not None:
        stone = read_tombstone(root, source.tombstone)
        data = vault.original_of(root, stone) if stone else None
    else:
        data = read_snapshot_file(Path(str(source.snapshot)), str(source.file))
    if data is None or sha256(data) != original_sha256:
        raise StepConflict(f"the source of {file} ({', '.join(source.to_json().values())}) is "
                           "gone or changed; nothing was restored")
    return data


def revert_step(stone: Tombstone, row_cells: tuple[str, ...],
                tombstone: str) -> RevertUpdateStep:
    """The step that takes an update back: earlier bytes, earlier index lines."""
    head = stone.header
    changes = tuple((str(new), str(old)) for old, new in head.extra("index_change") or [])
    return RevertUpdateStep(
        file=head.original_file, original_sha256=head.original_sha256,
        updated_sha256=str(head.extra("updated_sha256")), source=Source(tombstone=tombstone),
        index_change=changes, register_id=head.register_id, row=row_cells,
        message=f"{head.original_file} is back as it was before update {head.register_id}, "
                "index line included")


def revert_line_step(stone: Tombstone, row_cells: tuple[str, ...], tombstone: str,
                     original: bytes | None = None) -> RevertUpdateLineStep:
    """The step that swaps an updated fact's line back (to `original`, the line the vault
    kept, when the tombstone holds it redacted)."""
    head = stone.header
    ((old, new),) = head.extra("index_change") or [["", ""]]
    if head.vault:
        if original is None:
            raise RefusedError(f"the original of {head.original_file} is not in the private "
                               "vault any more; not restored")
        old = original.decode("utf-8", errors="surrogateescape").rstrip("\r\n")
    return RevertUpdateLineStep(
        file=head.original_file, line=str(new), new_line=str(old),
        register_id=head.register_id, row=row_cells, source=Source(tombstone=tombstone),
        message=f"{head.original_file} is back as it was before update {head.register_id}")



@dataclass(frozen=True, kw_only=True)
class _Revert(OneStep):
    file: str
    register_id: str
    row: tuple[str, ...]
    source: Source = Source()
    message: str = ""

    def _done(self, root: Path) -> StepOutcome:
        log_once(root, self.row)
        return StepOutcome("restore", self.file, "done", self.message)

    def _changed(self, what: str) -> StepOutcome:
        return StepOutcome("restore", self.file, "rolled-back",
                           f"{self.file} changed since the update; nothing was restored — its "
                           f"earlier {what} is in {self.source.tombstone}")


@kind
@dataclass(frozen=True, kw_only=True)
class RevertUpdateStep(_Revert):
    """The version an update replaced back, with its index lines."""

    OP: ClassVar[str] = "revert-update"
    original_sha256: str
    updated_sha256: str
    index_change: tuple[tuple[str, str], ...]

    def run(self, root: Path) -> StepOutcome:
        target = inside(root, self.file)
        if sha_or_none(target) == self.updated_sha256:
            replace_if(target, self.updated_sha256, restore_bytes(
                root, self.file, self.original_sha256, self.source))
        if sha_or_none(target) != self.original_sha256:
            return self._changed("version")
        rewrite_lines(root, self.index_change)
        return self._done(root)


@kind
@dataclass(frozen=True, kw_only=True)
class RevertUpdateLineStep(_Revert):
    """An updated fact's line swapped back, while the index still holds what the update
    wrote."""

    OP: ClassVar[str] = "revert-update-line"
    line: str
    new_line: str

    def run(self, root: Path) -> StepOutcome:
        raw = read_or_none(root / INDEX_FILE) or b""
        if not index_edit.has_line(raw, self.new_line):
            if not index_edit.has_line(raw, self.line):
                return self._changed("line")
            rewrite_lines(root, ((self.line, self.new_line),))
        return self._done(root)


