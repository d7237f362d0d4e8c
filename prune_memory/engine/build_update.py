"""An update is a real, reversible change: body, description and index line rewritten
together, the earlier version kept as a tombstone with its own register id and row, and
`restore <id>` puts it all back. Here the journal records are built; nothing is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from prune_memory.engine import vault
from prune_memory.engine.build import NOT_APPLICABLE, Current, entry_type, summary
from prune_memory.engine.edits import indexedit
from prune_memory.engine.edits.carryover import carry, corrections
from prune_memory.engine.edits.corrected import without_marks
from prune_memory.engine.edits.index_links import linking_lines
from prune_memory.engine.edits.topic_body import with_new_body
from prune_memory.engine.steps.journal import pack
from prune_memory.engine.tombstone import (
    Tombstone,
    TombstoneHeader,
    iso_utc,
    render_tombstone,
    tombstone_name,
)
from prune_memory.model import INDEX_FILE
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import read_or_none, sha256
from prune_memory.store.logscan import next_register_id_in
from prune_memory.store.pruninglog import RegisterRow

_LINK_TARGET = re.compile(r"\]\([^)]*\)")


@dataclass(frozen=True)
class NewText:
    """What an update writes: the body, and optionally the description and index line (when
    not given, the body's own corrections are carried over to them)."""

    body: str
    description: str | None = None
    index_line: str | None = None
    pairs: tuple[tuple[str, str], ...] = ()  # corrections to carry besides the body's own


def update_step(root: Path, current: Current, new: NewText, *, reason: str, rule: str,
                memory_class: str | None, log_text: str, manifest: Path,
                now: datetime) -> dict[str, Any]:
    """The journal record of one update of `current` to `new`."""
    data, changes = rewritten(current, new, read_or_none(root / INDEX_FILE) or b"", now)
    register_id = next_register_id_in(log_text, now.date().isoformat())
    tomb = tombstone_name(current.file, set(), register_id, numbered=True)  # no secret in it
    kept = vault.put(root, current.raw) if vault.holds_secret(current.raw) else None
    extras: tuple[tuple[str, Any], ...] = (("vault", str(kept)),) if kept else ()
    extras += (("change", "update"), ("updated_sha256", sha256(data)),
               ("index_change", [list(change) for change in changes]))
    header = vault.shielded(root, TombstoneHeader(
        original_file=current.file, deaccessioned_at=now, rule=rule, register_id=register_id,
        reason=mask_text(f"earlier version of {current.file}, replaced by an update: {reason}"),
        original_sha256=current.sha256, extras=extras))
    stone = render_tombstone(header, vault.redact(current.raw) if kept else current.raw)
    row = RegisterRow(register_id, summary(current), entry_type(current, memory_class),
                      mask_text(f"{rule}: updated — {reason}"), tomb, NOT_APPLICABLE)
    body = {"tombstone_data": pack(stone)} if kept else \
        {"tombstone_header": pack(stone[: len(stone) - len(current.raw)])}
    return {"op": "update-entry", "file": current.file, "original_sha256": current.sha256,
            "after_sha256": sha256(data), "data": pack(data), "tombstone": tomb,
            "tombstone_sha256": sha256(stone), **body, "register_id": register_id,
            "index_change": [list(change) for change in changes], "row": list(row.cells()),
            "manifest": str(manifest), "date": now.date().isoformat()}


def rewritten(current: Current, new: NewText, index: bytes,
              now: datetime) -> tuple[bytes, list[tuple[str, str]]]:
    """The file's new bytes, and (old, new) for each of its index lines that changes."""
    # The marks a correction leaves stay in the body; they are not words to carry over.
    pairs = [*new.pairs, *corrections(without_marks(current.body), without_marks(new.body))]
    described = new.description if new.description is not None \
        else carry(current.description, pairs)
    data = with_new_body(current.raw, new.body, iso_utc(now),
                         described if described != current.description else None)
    return data, _index_changes(index, current.file, new, pairs)


def _index_changes(index: bytes, file: str, new: NewText,
                   pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(old line, new line) for each index line of `file` the update rewrites."""
    lines = indexedit.IndexText.parse(index).lines
    own = set(linking_lines(lines, file, alone=True))  # a shared line only gets the words
    changes: list[tuple[str, str]] = []
    for at in linking_lines(lines, file):
        old = lines[at]
        line = new.index_line if new.index_line is not None and at in own \
            else carry_outside_links(old, pairs)
        if line != old:
            changes.append((old, line))
    return changes


def carry_outside_links(line: str, pairs: list[tuple[str, str]]) -> str:
    """The corrections applied to the words of an index line, never to its link targets."""
    pieces = _LINK_TARGET.split(line)
    targets = _LINK_TARGET.findall(line)
    out = [carry(pieces[0], pairs)]
    for target, piece in zip(targets, pieces[1:], strict=True):
        out += [target, carry(piece, pairs)]
    return "".join(out)


def revert_step(stone: Tombstone, row_cells: list[str], tombstone: str) -> dict[str, Any]:
    """The journal record that takes an update back: earlier bytes, earlier index lines."""
    head = stone.header
    changes = [[new, old] for old, new in head.extra("index_change") or []]
    return {"op": "revert-update", "file": head.original_file,
            "original_sha256": head.original_sha256,
            "updated_sha256": str(head.extra("updated_sha256")),
            "source": {"tombstone": tombstone}, "index_change": changes,
            "register_id": head.register_id, "row": row_cells,
            "message": f"{head.original_file} is back as it was before update "
                       f"{head.register_id}, index line included"}
