"""A pass record read back from the state directory, checked field by field before use.

`restore --pass` writes every file a record names and archives each under the record's
stamp, so a tampered record could reach anywhere: every name must stay inside the memory
directory, the stamp must be a plain name, the manifest one the tool wrote, every hash a
sha256 digest. Anything else is refused (`confine.NotOursError`) before a byte moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from prune_memory.errors import RefusedError
from prune_memory.store import confine
from prune_memory.store.snapshot import MANIFEST, trusted_snapshot

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
