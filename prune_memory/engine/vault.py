"""The private vault: where the original bytes of a withdrawn memory that holds a secret go.

A tombstone sits inside the memory directory, where Claude's Grep and Read reach it, so a
secret must not stay there. The original goes to `$XDG_STATE_HOME/prune-memory/vault/
<dir-key>/<sha256>` (folder 0700, file 0600), named by its own hash, and the tombstone keeps
a redacted copy plus the hash and the vault path; `restore` reads the bytes back from here.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

from prune_memory.engine.tombstone import Tombstone, TombstoneHeader
from prune_memory.errors import RefusedError
from prune_memory.secrets.mask import mask_text
from prune_memory.secrets.scan import find_spans
from prune_memory.state import dir_key, state_root, state_subdir
from prune_memory.store import atomic, confine
from prune_memory.store.files import is_link, read_or_none, sha256
from prune_memory.store.index_placement import IndexLineRecord


def vault_dir(root: Path) -> Path:
    return state_subdir("vault", dir_key(root))


def holds_secret(data: bytes) -> bool:
    """Whether the bytes, read as text, contain anything the secret detectors recognise."""
    return bool(find_spans(data.decode("utf-8", errors="replace")))


def redact(data: bytes) -> bytes:
    """The bytes with every secret replaced by its description (label, first 4, length)."""
    return mask_text(data.decode("utf-8", errors="replace")).encode("utf-8")


def put(root: Path, data: bytes) -> Path:
    """Keep `data` in the vault of `root` (idempotent: named by its hash), 0600, verified."""
    try:
        path = vault_dir(root) / sha256(data)
        if (kept := read_or_none(path)) is not None and sha256(kept) == path.name:
            return path
        atomic.atomic_write(path, data)
        os.chmod(path, 0o600)
        if sha256(read_or_none(path) or b"") != path.name:
            raise OSError(f"the vault copy {path} did not read back as written")
    except OSError as err:  # a full disk, a permission: refused before anything changed
        raise RefusedError(f"cannot keep the original in the private vault "
                           f"({err.strerror or err}); nothing was changed") from err
    return path


def get(root: Path, digest: str, recorded: str | None = None) -> bytes | None:
    """The vaulted bytes with this hash, or None. The recorded path is tried only when,
    every symlink and `..` resolved, it lies in the vaults under the state directory (the
    tombstone is text anyone can edit)."""
    if not confine.is_digest(digest):
        return None  # a hash the tool never writes names no file of the vault
    candidates = [vault_dir(root) / digest]
    if recorded and Path(recorded).name == digest and confine.is_within(
            state_root() / "vault", Path(recorded).parent) and not is_link(Path(recorded)):
        candidates.append(Path(recorded))
    for path in candidates:
        data = read_or_none(path) if not is_link(path) else None
        if data is not None and sha256(data) == digest:
            return data
    return None


def put_records(root: Path, records: tuple[IndexLineRecord, ...]) -> Path:
    """Keep the exact index-line records of a withdrawal whose tombstone masks them."""
    return put(root, json.dumps([r.to_json() for r in records], ensure_ascii=False)
               .encode("utf-8"))


def shielded(root: Path, header: TombstoneHeader) -> TombstoneHeader:
    """The header as it may sit in the memory directory: a secret in the file's own name,
    in its index lines or their neighbours masked, the exact values kept in the vault
    (`resolved` reads them back)."""
    shown = tuple(replace(rec, text=mask_text(rec.text), under=mask_text(rec.under),
                          prev=tuple(mask_text(t) for t in rec.prev),
                          next=tuple(mask_text(t) for t in rec.next))
                  for rec in header.index_lines)
    extras = list(header.extras)
    if shown != header.index_lines:
        extras.append(("index_lines_vault", str(put_records(root, header.index_lines))))
    name = header.original_file
    if mask_text(name) != name:
        extras.append(("original_file_vault",
                       str(put(root, name.encode("utf-8", "surrogateescape")))))
    return replace(header, original_file=mask_text(name), index_lines=shown,
                   extras=tuple(extras))


def resolved(root: Path, stone: Tombstone) -> Tombstone | None:
    """The tombstone with the exact values `shielded` masked; None when the vault no
    longer has the file's real name (the snapshot is then the way back)."""
    head = stone.header
    name = head.original_file
    if (recorded := head.extra("original_file_vault")) is not None:
        kept = get(root, Path(str(recorded)).name, str(recorded))
        if kept is None:
            return None
        name = kept.decode("utf-8", "surrogateescape")
    extras = head.extras
    if (recorded := head.extra("index_change_vault")) is not None:
        changes = _pairs(get(root, Path(str(recorded)).name, str(recorded)))
        if changes is None:
            return None  # the exact index lines are gone: the snapshot is the way back
        extras = tuple((key, changes if key == "index_change" else value)
                       for key, value in extras)
    return replace(stone, header=replace(head, original_file=name, extras=extras,
                                         index_lines=index_lines_of(root, stone)))


def _pairs(raw: bytes | None) -> list[list[str]] | None:
    """An update's exact (old, new) index lines, as `put` kept them."""
    try:
        items = json.loads(raw.decode("utf-8")) if raw is not None else None
    except ValueError:
        return None
    if isinstance(items, list) and all(isinstance(i, list) and len(i) == 2
                                       and all(isinstance(t, str) for t in i) for i in items):
        return items
    return None


def index_lines_of(root: Path, stone: Tombstone) -> tuple[IndexLineRecord, ...]:
    """The index-line records to restore: the vault's exact ones when the header masks
    them, else the header's (masked, if the vault copy is gone: placed by line number)."""
    head = stone.header
    recorded = head.extra("index_lines_vault")
    raw = get(root, Path(str(recorded)).name, str(recorded)) if recorded else None
    try:
        items = json.loads(raw.decode("utf-8")) if raw is not None else None
        if isinstance(items, list) and all(isinstance(item, dict) for item in items):
            return tuple(IndexLineRecord.from_json(item) for item in items)
    except (ValueError, KeyError, TypeError):
        pass  # not as the tool wrote it: the header's records serve
    return head.index_lines


def original_of(root: Path, stone: Tombstone) -> bytes | None:
    """The withdrawn bytes a tombstone stands for (from the vault when its body is redacted),
    or None when they are missing or do not match `original_sha256`."""
    head = stone.header
    data = get(root, head.original_sha256, head.vault) if head.vault else stone.original
    return data if data is not None and sha256(data) == head.original_sha256 else None
