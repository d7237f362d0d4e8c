"""What a pass changed, kept under the state directory so the whole pass can be undone.

At the end of a pass the directory is compared with the pass's snapshot manifest: every
file whose bytes differ, that the pass created, or that it removed is recorded with the
hash it was left with. `undo` returns exactly those files to the snapshot's bytes — and
only while each still holds what the pass left, so nothing written since is lost.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prune_memory.engine import passcheck, vault
from prune_memory.secrets.mask import mask_text
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic, confine
from prune_memory.store.safe_read import read_regular
from prune_memory.store.snapshot import masked_in_snapshot, read_manifest, stored_path, tree_state

RECORD_SUFFIX = ".pass.json"


@dataclass(frozen=True)
class PassRecord:
    """One pass: its snapshot, when it ran, what it left (path → sha256, None = removed).
    `stamp` is the pass's id (its snapshot folder's name, unique in the directory);
    `command` what made it (`run`, `withdraw project_x.md`, `sweep --apply`)."""

    path: Path
    manifest: str
    date: str
    stamp: str
    after: dict[str, str | None]
    register_ids: tuple[str, ...] = ()
    undone: str | None = None
    command: str = ""

    def to_json(self, root: Path) -> dict[str, Any]:
        """The record as stored: a path whose name holds a secret is written the way the
        snapshot stores it (a digest), its real name kept in the private vault."""
        names: dict[str, str] = {}
        after: dict[str, str | None] = {}
        for rel, digest in self.after.items():
            shown = stored_path(rel)
            if shown != rel:
                names[shown] = vault.put(root, rel.encode("utf-8", "surrogateescape")).name
            after[shown] = digest
        return {"manifest": self.manifest, "date": self.date, "stamp": self.stamp,
                "after": after, "names": names, "register_ids": list(self.register_ids),
                "undone": self.undone, "command": self.command}


def passes_dir(root: Path) -> Path:
    return state_subdir("passes", dir_key(root))


def changes_since(root: Path, manifest: Path,
                  known: Iterable[str] = ()) -> dict[str, str | None]:
    """Each file that differs from the snapshot now: its hash, or None when it is gone.

    The manifest stores a name that holds a secret under a digest of it (`stored_path`);
    such a file that is gone now is named through `known` (the files the pass touched).
    One that cannot be named is an OSError: the pass cannot be undone whole."""
    before = read_manifest(manifest)
    now = tree_state(root)
    changed: dict[str, str | None] = {rel: digest for rel, digest in now.items()
                                      if before.get(stored_path(rel)) != digest}
    seen = {stored_path(rel) for rel in now}
    names = {stored_path(rel): rel for rel in known}
    for stored in before:
        if stored in seen:
            continue
        if stored not in names and masked_in_snapshot(stored):
            raise OSError(f"a file the pass removed is named in the snapshot only by a "
                          f"digest ({stored})")
        changed[names.get(stored, stored)] = None
    return changed


def save(root: Path, manifest: Path, stamp: str, date: str,
         register_ids: tuple[str, ...], known: Iterable[str] = (),
         command: str = "") -> PassRecord:
    """Record what the pass of `manifest` left behind."""
    record = PassRecord(path=passes_dir(root) / f"{stamp}{RECORD_SUFFIX}",
                        manifest=str(manifest), date=date, stamp=stamp,
                        after=changes_since(root, manifest, known), register_ids=register_ids,
                        command=mask_text(command))
    write(root, record)
    return record


def write(root: Path, record: PassRecord) -> None:
    data = json.dumps(record.to_json(root), indent=1).encode("utf-8")
    atomic.atomic_write(record.path, data)
    record.path.chmod(0o600)


def _real_names(root: Path, after: dict[str, str | None],
                names: dict[str, str]) -> dict[str, str | None]:
    """The stored paths with their real names again, from the vault (a name the vault no
    longer has stays as stored: that file is then undone by its register id instead)."""
    out: dict[str, str | None] = {}
    for stored, digest in after.items():
        kept = vault.get(root, names[stored]) if stored in names else None
        out[kept.decode("utf-8", "surrogateescape") if kept else stored] = digest
    return out


def records(root: Path) -> list[PassRecord]:
    """Every recorded pass of `root`, oldest first. A record that is not as the tool wrote
    it (a path outside the directory, a value of another type) is refused, never guessed
    at: NotOursError, before anything is read or written through it."""
    found: list[PassRecord] = []
    for path in sorted(passes_dir(root).glob(f"*{RECORD_SUFFIX}")):
        try:
            data = json.loads(read_regular(path).decode("utf-8"))
        except (OSError, ValueError, RecursionError) as err:
            raise confine.NotOursError(f"pass record {path}", "it does not read as "
                                       "JSON") from err
        fields = passcheck.checked(root, path, data)
        after = _real_names(root, fields.after, fields.names)
        found.append(PassRecord(
            path=path, manifest=fields.manifest, date=fields.date, stamp=fields.stamp,
            after={passcheck.member(root, path, rel): d for rel, d in after.items()},
            register_ids=fields.register_ids, undone=fields.undone,
            command=fields.command))
    return sorted(found, key=lambda r: (r.stamp, r.path.name))


def archive(root: Path, record: PassRecord, now_stamp: str) -> Path:
    """Copy what the pass left (files it changed or created, as they are now) to
    `undone/<dir-key>/<stamp>/` before an undo replaces or removes them: nothing is lost."""
    target = state_subdir("undone", dir_key(root), f"{record.stamp}-undone-{now_stamp}")
    for rel, digest in sorted(record.after.items()):
        if digest is None:
            continue
        data = read_regular(root / rel)  # never a FIFO or a link put there since
        dest = target / stored_path(rel)  # a name holding a secret is archived by digest
        for parent in reversed(dest.relative_to(target).parents[:-1]):
            (target / parent).mkdir(mode=0o700, exist_ok=True)
        atomic.atomic_write(dest, data)
    return target
