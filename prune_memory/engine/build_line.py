"""Inline index facts (`MEMORY.md#L<n>`): the journal records that withdraw or restore one
line of MEMORY.md. The line is the memory, so its bytes are what the tombstone keeps.

`<n>` counts lines of MEMORY.md as the pass's snapshot holds it (the plan's view). Lines
added or removed around the fact since — by earlier steps of the same batch, say — are
followed; a fact whose own line changed is refused. Nothing is written here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from prune_memory.engine.build import Current, plan_withdrawal
from prune_memory.engine.drafting import Drafting
from prune_memory.engine.edits import indexedit, indexlines
from prune_memory.engine.steps.journal import pack
from prune_memory.engine.tombstone import IndexLineRecord
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import INDEX_FILE, Entry
from prune_memory.plan import Inoculation
from prune_memory.store.files import read_or_none, refuse_link, sha256
from prune_memory.store.index import parse_index
from prune_memory.store.index_facts import fact_text, index_line_number, inline_facts
from prune_memory.store.pruninglog import PruningLog
from prune_memory.store.snapshot import read_snapshot_file


@dataclass(frozen=True)
class Line:
    """An inline fact as MEMORY.md holds it now: where, how many identical copies, context."""

    file: str
    text: str
    at: int  # 0-based position in MEMORY.md now
    copies: int  # lines with exactly this text in MEMORY.md now
    record: IndexLineRecord

    @property
    def raw(self) -> bytes:
        return (self.text + self.record.eol).encode("utf-8")


def is_index_line(file: str) -> bool:
    return index_line_number(file) is not None


def current_line(root: Path, file: str, expected_sha: str | None, manifest: Path) -> Line:
    """Find the fact the plan saw; RefusedError when its line changed or went away."""
    number = index_line_number(file)
    if number is None:
        raise BadInputError(f"{file} is not an index line id (MEMORY.md#L<n>)")
    refuse_link(root / INDEX_FILE, INDEX_FILE)
    now = read_or_none(root / INDEX_FILE)
    if now is None:
        raise BadInputError(f"{file}: there is no {INDEX_FILE} in {root}")
    planned = read_snapshot_file(manifest.parent, INDEX_FILE) or now
    fact = _facts(planned).get(file)
    if fact is None:
        raise BadInputError(f"{file}: line {number} of {INDEX_FILE} is not an inline fact "
                            "(a list item that links no memory file)")
    if len(fact.index_lines) > 1:
        raise RefusedError(f"{file} spans {len(fact.index_lines)} lines of {INDEX_FILE} (a fact "
                           "with lines indented under it); withdraw it by editing the index")
    if expected_sha is not None and fact.sha256 != expected_sha:
        raise RefusedError(f"{file} changed since the plan (sha256 {expected_sha[:12]}… is now "
                           f"{fact.sha256[:12]}…); skipped")
    old, current = _lines(planned), indexedit.IndexText.parse(now)
    at = indexlines.map_line(old, current.lines, number - 1)
    text = old[number - 1]
    if at is None or sha256(text.encode("utf-8")) != fact.sha256:
        raise RefusedError(f"{file} changed since the plan: its line is no longer in "
                           f"{INDEX_FILE} as it was; skipped")
    return Line(file=file, text=text, at=at, copies=current.lines.count(text),
                record=indexlines.line_record(current, at))


@lru_cache(maxsize=4)
def _lines(raw: bytes) -> list[str]:
    return indexedit.IndexText.parse(raw).lines


@lru_cache(maxsize=4)
def _facts(raw: bytes) -> dict[str, Entry]:
    """The inline facts of one index, as the loader reads them (parsed once per batch)."""
    epoch = datetime.fromtimestamp(0, UTC)
    return {fact.file: fact for fact in inline_facts(parse_index(raw), epoch)}


def withdraw_line_step(root: Path, line: Line, log_text: str, *, reason: str, rule: str,
                       memory_class: str | None, manifest: Path, now: datetime,
                       ino: Inoculation | None = None) -> dict[str, Any]:
    """The journal record of one inline fact's withdrawal (with its inoculation, if any)."""
    said = fact_text(line.text)
    current = Current(file=line.file, raw=line.raw, sha256=sha256(line.raw), description=said,
                      memory_type=None)
    done = plan_withdrawal(root, current, Drafting.read(root, log_text, now, None),
                           reason=reason, rule=rule, memory_class=memory_class, now=now,
                           ino=replace(ino, slug=ino.slug or said) if ino else None,
                           index_lines=(line.record,))
    return {
        "op": "withdraw-line", "file": line.file, "line": line.text, "at": line.at,
        "copies": line.copies, "original_sha256": current.sha256,
        "tombstone_data": pack(done.tombstone_data), "index_lines": [line.record.to_json()],
        **done.step_fields(manifest, now),
    }


def restore_line_step(root: Path, file: str, data: bytes, records: tuple[IndexLineRecord, ...],
                      hints: list[IndexLineRecord], log: PruningLog,
                      **fields: Any) -> dict[str, Any]:
    """The journal record that puts a withdrawn fact's line back into MEMORY.md."""
    record = restored_record(file, data, records)
    index = read_or_none(root / INDEX_FILE) or b""
    restored = sorted({h.seq for h in hints if log.restoration(h.seq) is not None})
    return {"op": "restore-line", "file": file, "original_sha256": sha256(data),
            "copies": indexlines.count_line(index, record.text),
            "index_lines": [record.to_json()], "hints": [h.to_json() for h in hints],
            "restored": restored, **fields}


def restored_record(file: str, data: bytes,
                    records: tuple[IndexLineRecord, ...]) -> IndexLineRecord:
    """The record to put back: the tombstone's, when it agrees with the stored bytes; else
    one made from the bytes alone, placed by its old line number."""
    parsed = indexedit.IndexText.parse(data)
    if len(parsed.lines) != 1:
        raise RefusedError(f"the stored bytes of {file} are not one line; not restoring")
    text, eol = parsed.lines[0], parsed.eols[0]
    for record in records:
        if record.text == text and record.eol == eol:
            return record
    return IndexLineRecord(text=text, eol=eol, at=(index_line_number(file) or 1) - 1)


def snapshot_line(snapshot_dir: Path,
                  file: str) -> tuple[bytes, tuple[IndexLineRecord, ...]] | None:
    """The fact's bytes and record from the index of the audit's snapshot (tombstone lost)."""
    number = index_line_number(file)
    index = read_snapshot_file(snapshot_dir, INDEX_FILE)
    if number is None or index is None:
        return None
    parsed = indexedit.IndexText.parse(index)
    if number > len(parsed.lines):
        return None
    record = indexlines.line_record(parsed, number - 1)
    return (record.text + record.eol).encode("utf-8"), (record,)
