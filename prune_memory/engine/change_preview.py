"""What a set of changes would write, byte for byte, worked out without writing anything.

The review shows it for each proposal, and the confirmation for everything at once: the
unified diff of every file, which files are touched, and how MEMORY.md grows against its
load cap. It is worked out the way the apply step goes — plain withdrawals of topic files
first as one batch, then facts in MEMORY.md, then the rest in order, then the index
repairs — with the engine's own edits (`corrected.body_written`, `rewritten`,
`remove_entry`, the link index, `repairs.repaired`), so register ids, `[corrected …]`
marks, `modified:` stamps and unlinked `[[links]]` read as they will be written.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prune_memory.engine.build_line import is_index_line
from prune_memory.engine.draft import (
    INOCULATE,
    PROTECT,
    UPDATE,
    WITHDRAW,
    WITHDRAW_INOCULATE,
    Change,
    Draft,
)
from prune_memory.engine.repairs import repaired
from prune_memory.errors import PruneMemoryError
from prune_memory.model import INDEX_FILE, JSON, LOG_FILE, TOMBSTONE_DIR, LoadCap
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import read_or_none
from prune_memory.store.index import parse_index

__all__ = ["INOCULATE", "PROTECT", "UPDATE", "WITHDRAW", "WITHDRAW_INOCULATE", "Change",
           "Preview", "preview", "unified"]


@dataclass(frozen=True)
class Preview:
    diff: str  # masked unified diffs, MEMORY.md last
    touched: tuple[str, ...]  # every path in the memory directory written, made or removed
    cap_before: LoadCap | None
    cap_after: LoadCap | None
    refused: tuple[tuple[str, str], ...] = ()  # (file, why) for changes apply would refuse
    linked: dict[str, tuple[str, ...]] = field(default_factory=dict)  # file → memories unlinked
    after: dict[str, bytes | None] = field(default_factory=dict)  # the bytes the diff shows

    @property
    def index_grows(self) -> bool:
        after, before = self.cap_after, self.cap_before
        return after is not None and (before is None or after.lines > before.lines
                                      or after.chars > before.chars)


def preview(root: Path, now: datetime, changes: Sequence[Change],
            repairs: Sequence[JSON] = ()) -> Preview:
    """Everything `changes` and `repairs` would write, in the order the apply step goes."""
    draft = Draft.read(root, now)
    plain = [c for c in changes if c.kind == WITHDRAW]
    draft.withdraw_batch([c for c in plain if not is_index_line(c.file)])
    for change in [c for c in plain if is_index_line(c.file)]:
        draft.guarded(change, draft.withdraw_line)
    for change in [c for c in changes if c.kind != WITHDRAW]:
        draft.guarded(change, draft.other)
    for repair in repairs:
        draft.index = repaired(draft.index, repair)
        draft.note_path(INDEX_FILE)
    return _result(draft)


def _result(draft: Draft) -> Preview:
    """The diff and the files a draft stands for, MEMORY.md last."""
    chunks = list(draft.notes)
    after: dict[str, bytes | None] = {}
    for path in draft.order:
        if path == INDEX_FILE or path.startswith(f"{TOMBSTONE_DIR}/"):
            continue
        old = b"" if path in draft.created else read_or_none(draft.root / path) or b""
        after[path] = new = draft.created.get(path, draft.texts.get(path))
        if new is not None:
            chunks.append(unified(old, new, path, path in draft.created))
    if draft.index != (draft.index_before or b""):
        draft.note_path(INDEX_FILE)
        after[INDEX_FILE] = draft.index
        chunks.append(unified(draft.index_before or b"", draft.index, INDEX_FILE,
                              draft.index_before is None))
    touched = [*draft.order, LOG_FILE] if draft.order or draft.notes else []
    return Preview("".join(chunks), tuple(touched), _cap(draft.index_before),
                   _cap(draft.index), tuple(draft.refused), dict(draft.linked), after)


def _cap(raw: bytes | None) -> LoadCap | None:
    if raw is None:
        return None
    try:
        return parse_index(raw).cap
    except PruneMemoryError:
        return None


def unified(old: bytes, new: bytes, name: str, created: bool = False) -> str:
    """A unified diff of one file, secrets masked; empty when nothing changes. The diff is
    worked out on the real bytes and each line masked after, so a redaction still shows as
    the line it replaces, never as an unchanged one."""
    if old == new and not created:
        return ""
    lines = difflib.unified_diff(old.decode("utf-8", "replace").splitlines(keepends=True),
                                 new.decode("utf-8", "replace").splitlines(keepends=True),
                                 "/dev/null" if created else f"a/{name}", f"b/{name}")
    return "".join(mask_text(line if line.endswith("\n") else line + "\n") for line in lines)
