"""An update of a fact written in MEMORY.md itself (`MEMORY.md#L<n>`): the line is the
memory, so the update swaps that one line. Like any update it is registered: the earlier
line is kept in a tombstone with its own register id, and `restore <id>` swaps it back.
Here the journal records are built; nothing is written.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from prune_memory.engine import vault
from prune_memory.engine.build import NOT_APPLICABLE
from prune_memory.engine.build_line import Line
from prune_memory.engine.steps.journal import pack
from prune_memory.engine.tombstone import (
    Tombstone,
    TombstoneHeader,
    render_tombstone,
    tombstone_name,
)
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import list_names, sha256
from prune_memory.store.logscan import next_register_id_in
from prune_memory.store.pruninglog import RegisterRow


def update_line_step(root: Path, line: Line, new_line: str, *, reason: str, rule: str,
                     log_text: str, manifest: Path, now: datetime) -> dict[str, Any]:
    """The journal record that rewrites one inline fact's line to `new_line`."""
    if "\n" in new_line or "\r" in new_line or not new_line.strip():
        raise BadInputError(f"{line.file}: an update of a fact in {line.file.split('#')[0]} "
                            "is one non-empty line")
    register_id = next_register_id_in(log_text, now.date().isoformat())
    taken = {f"{TOMBSTONE_DIR}/{n}" for n in list_names(root / TOMBSTONE_DIR)}
    tomb = tombstone_name(line.file, taken, register_id)
    # A line that holds a secret (a redaction, say) keeps its original in the private vault
    # only: the tombstone sits in the memory directory, where Claude reads it.
    kept = vault.put(root, line.raw) if vault.holds_secret(line.raw) else None
    extras: tuple[tuple[str, Any], ...] = (("vault", str(kept)),) if kept else ()
    header = TombstoneHeader(
        original_file=line.file, deaccessioned_at=now, rule=rule, register_id=register_id,
        reason=mask_text(f"earlier version of {line.file}, replaced by an update: {reason}"),
        original_sha256=sha256(line.raw),
        extras=(*extras, ("change", "update"),
                ("index_change", [[mask_text(line.text), new_line]]),
                ("updated_sha256", sha256((new_line + line.record.eol).encode("utf-8")))))
    stone = render_tombstone(header, vault.redact(line.raw) if kept else line.raw)
    row = RegisterRow(register_id, mask_text(f"`{line.file}` — {line.text.strip()}")[:90],
                      "Index fact", mask_text(f"{rule}: updated — {reason}"), tomb,
                      NOT_APPLICABLE)
    return {"op": "update-line", "file": line.file, "line": line.text, "new_line": new_line,
            "tombstone": tomb, "tombstone_data": pack(stone),
            "tombstone_sha256": sha256(stone), "register_id": register_id,
            "row": list(row.cells()), "manifest": str(manifest),
            "date": now.date().isoformat()}


def revert_line_step(stone: Tombstone, row_cells: list[str], tombstone: str,
                     original: bytes | None = None) -> dict[str, Any]:
    """The journal record that swaps an updated fact's line back (to `original`, the line
    the vault kept, when the tombstone holds it redacted)."""
    head = stone.header
    ((old, new),) = head.extra("index_change") or [["", ""]]
    if head.vault:
        if original is None:
            raise RefusedError(f"the original of {head.original_file} is not in the private "
                               "vault any more; not restored")
        old = original.decode("utf-8", errors="surrogateescape").rstrip("\r\n")
    return {"op": "revert-update-line", "file": head.original_file, "line": new,
            "new_line": old, "register_id": head.register_id, "row": row_cells,
            "source": {"tombstone": tombstone},
            "message": f"{head.original_file} is back as it was before update "
                       f"{head.register_id}"}
