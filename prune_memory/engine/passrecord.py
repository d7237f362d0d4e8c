"""What a pass changed, kept under the state directory so the whole pass can be undone.

At the end of a pass the directory is compared with the pass's snapshot manifest: every
file whose bytes differ, that the pass created, or that it removed is recorded with the
hash it was left with. `undo` returns exactly those files to the snapshot's bytes — and
only while each still holds what the pass left, so nothing written since is lost.

A pass is open from its snapshot until its record is written: `begin` leaves
`<stamp>.open.json` beside the records before the first write, and `settle` (run by
`recover` and `restore --pass`) turns a marker a dead process left into the record it
would have written, so a pass that never got to the end can still be undone whole. A
record read back is checked field by field (`checked`): every name inside the memory
directory, the stamp a plain name, the manifest one the tool wrote, every hash a sha256
digest; anything else is refused (`confine.NotOursError`) before a byte moves."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from prune_memory.engine import vault
from prune_memory.errors import RefusedError
from prune_memory.model import JSON, LOG_FILE
from prune_memory.secrets.mask import mask_text
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic, confine
from prune_memory.store.pruninglog import parse_log, read_log
from prune_memory.store.safe_read import read_regular
from prune_memory.store.snapshot import (
    MANIFEST,
    masked_in_snapshot,
    read_manifest,
    read_snapshot_file,
    stored_path,
    tree_state,
    trusted_snapshot,
)

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

    def to_json(self, root: Path) -> JSON:
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
        fields = checked(root, path, data)
        after = _real_names(root, fields.after, fields.names)
        found.append(PassRecord(
            path=path, manifest=fields.manifest, date=fields.date, stamp=fields.stamp,
            after={member(root, path, rel): d for rel, d in after.items()},
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


_STAMP = re.compile(r"\d{8}T\d{6}Z(-\d{1,3})?")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Fields:
    manifest: str
    date: str
    stamp: str
    after: dict[str, str | None]
    names: dict[str, str]
    register_ids: tuple[str, ...]
    undone: str | None
    command: str


def checked(root: Path, path: Path, data: object) -> Fields:
    """The fields of one record, each of the type and shape the tool writes."""
    source = f"pass record {path}"
    record = confine.mapping(data, source, "the record")
    stamp = confine.text(record.get("stamp"), source, "its stamp")
    date = confine.text(record.get("date"), source, "its date")
    if not _STAMP.fullmatch(stamp) or not _DAY.fullmatch(date):
        raise confine.NotOursError(source, f"stamp {confine.shown(stamp)} or date "
                                   f"{confine.shown(date)} is not one a pass is given")
    after: dict[str, str | None] = {}
    for rel, digest in confine.mapping(record.get("after"), source, "its files").items():
        confine.confined(root, rel, source, "a file it names")
        after[rel] = None if digest is None else confine.digest(digest, source)
    names = {confine.confined(root, stored, source, "a masked name"):
             confine.digest(kept, source, "a vaulted name")
             for stored, kept in confine.mapping(record.get("names") or {}, source,
                                                 "its masked names").items()}
    ids = confine.text_list(record.get("register_ids") or [], source, "its register ids")
    return Fields(manifest=_manifest(root, record.get("manifest"), source), date=date,
                  stamp=stamp, after=after, names=names, register_ids=tuple(ids),
                  undone=confine.optional_text(record.get("undone"), source, "undone"),
                  command=confine.optional_text(record.get("command"), source,
                                                "its command") or "")


def checked_open(root: Path, path: Path, data: object) -> tuple[str, str, str, int, str]:
    """The manifest, stamp, date, pid and command of an open-pass marker, checked like a
    record (a marker written before markers named their command has none)."""
    source = f"open pass {path}"
    record = confine.mapping(data, source, "the marker")
    stamp = confine.text(record.get("stamp"), source, "its stamp")
    date = confine.text(record.get("date"), source, "its date")
    pid = record.get("pid")
    if not _STAMP.fullmatch(stamp) or not _DAY.fullmatch(date) or not isinstance(pid, int):
        raise confine.NotOursError(source, "its stamp, date or pid is not one a pass is given")
    command = confine.optional_text(record.get("command"), source, "its command") or ""
    return _manifest(root, record.get("manifest"), source), stamp, date, pid, command


def member(root: Path, path: Path, rel: str) -> str:
    """A file name read back through the vault, confined like the rest."""
    return confine.confined(root, rel, f"pass record {path}", "a vaulted file name")


def _manifest(root: Path, value: object, source: str) -> str:
    manifest = confine.text(value, source, "its snapshot manifest")
    try:
        folder = trusted_snapshot(root, manifest)
    except RefusedError as err:
        raise confine.NotOursError(source, f"its snapshot manifest {confine.shown(manifest)} "
                                   "is not one prune-memory wrote") from err
    return str(folder / MANIFEST)


OPEN_SUFFIX = ".open.json"
_REGISTER_ID = re.compile(r"\d{4}-\d{2}-\d{2}-\d+")


def marker(root: Path, stamp: str) -> Path:
    return passes_dir(root) / f"{stamp}{OPEN_SUFFIX}"


def begin(root: Path, manifest: Path, stamp: str, date: str, command: str = "") -> None:
    """Mark the pass of snapshot `stamp` open (after settling any a dead process left);
    `command` is what makes it, so a pass recorded by `settle` is named like the others."""
    settle(root)
    data = {"manifest": str(manifest), "stamp": stamp, "date": date, "pid": os.getpid(),
            "command": mask_text(command)}
    try:
        atomic.atomic_write(marker(root, stamp), json.dumps(data).encode("utf-8"))
    except OSError as err:
        raise RefusedError(f"cannot mark the pass open under the state directory "
                           f"({err.strerror or err}); nothing was changed") from err


def close(root: Path, stamp: str) -> None:
    """The pass is recorded (or wrote nothing): its marker goes."""
    with contextlib.suppress(FileNotFoundError):
        marker(root, stamp).unlink()


def settle(root: Path) -> list[str]:
    """Record each pass a process left open when it stopped; a note per pass recorded."""
    notes: list[str] = []
    for path in sorted(passes_dir(root).glob(f"*{OPEN_SUFFIX}")):
        try:
            data = json.loads(read_regular(path).decode("utf-8"))
        except (OSError, ValueError, RecursionError) as err:
            raise confine.NotOursError(f"open pass {path}", "it does not read as JSON") from err
        manifest, stamp, date, pid, command = checked_open(root, path, data)
        if pid != os.getpid() and _alive(pid):
            continue  # a pass still running in another process, between two write sessions
        if not (passes_dir(root) / f"{stamp}{RECORD_SUFFIX}").exists():
            ids = _logged_since(root, Path(manifest).parent)
            if ids:  # the pass logged a change of its own; else it stopped before any
                save(root, Path(manifest), stamp, date, ids, command=command)
                notes.append(f"recorded the pass {stamp}, which stopped before it finished, "
                             "so `restore --pass` can undo it")
        close(root, stamp)
    return notes


def _logged_since(root: Path, snapshot: Path) -> tuple[str, ...]:
    """The register ids the pass wrote rows for since its snapshot: its withdrawals and
    updates, and changes that name one (a reaccession). Protection and flag rows, which
    name none, are not a pass's."""
    raw = read_snapshot_file(snapshot, LOG_FILE)
    before = parse_log(raw.decode("utf-8", errors="replace") if raw else "")  # as read_log
    now = read_log(root)
    known = {row.register_id for row in before.rows}
    ids = [row.register_id for row in now.rows if row.register_id not in known]
    ids += [c.register_id for c in now.changes[len(before.changes):]
            if c.change != "restored" and _REGISTER_ID.fullmatch(c.register_id)]
    return tuple(dict.fromkeys(ids))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
