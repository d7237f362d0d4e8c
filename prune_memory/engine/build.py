"""Build the journal record of each step from what is on disk now. Nothing is written here."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from prune_memory.engine import vault
from prune_memory.engine.drafting import Drafting
from prune_memory.engine.edits import indexedit
from prune_memory.engine.edits.wikilinks import LinkEdit
from prune_memory.engine.steps.journal import pack
from prune_memory.engine.superseded import Superseded, free_slug, render_superseded, slugify
from prune_memory.engine.tombstone import (
    IndexLineRecord,
    TombstoneHeader,
    render_tombstone,
    tombstone_name,
)
from prune_memory.errors import BadInputError, FileLoadError, RefusedError
from prune_memory.model import INDEX_FILE, OWN_FILES
from prune_memory.plan import Inoculation
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import list_names, read_or_none, refuse_link, sha256
from prune_memory.store.frontmatter_parse import memory_type, parse_memory_text
from prune_memory.store.logtable import code_name
from prune_memory.store.pruninglog import RegisterRow
from prune_memory.store.safe_read import is_member_name

NOT_APPLICABLE = "N/A"
REASON_CHARS = 240  # in a register row; the tombstone's header keeps the whole reason


@dataclass(frozen=True)
class Current:
    """A topic file as it is now: bytes, hash and what its frontmatter says."""

    file: str
    raw: bytes
    sha256: str
    description: str
    memory_type: str | None
    name: str = ""
    body: str = ""

    @property
    def link_names(self) -> tuple[str, ...]:
        """What links in other memories call it: its `name` and file stem (`[[...]]`), and
        its file name (`[label](file.md)`, or `[[file.md]]`)."""
        return tuple(dict.fromkeys(n for n in (self.name, Path(self.file).stem, self.file) if n))


def check_name(file: str) -> str:
    """A top-level topic file name; the index and the tool's own files are not entries."""
    name = file.removeprefix("./")
    if not is_member_name(name):
        raise BadInputError(f"{file}: give a file directly inside the memory directory (a "
                            "plain name of at most 255 bytes)")
    if name == INDEX_FILE or name in OWN_FILES:
        raise BadInputError(f"{name} is not a memory entry")
    return name


def read_current(root: Path, file: str, expected_sha: str | None) -> Current:
    """The entry's bytes now; RefusedError when they differ from what the plan saw."""
    path = root / file
    refuse_link(path, file)
    raw = read_or_none(path)
    if raw is None and expected_sha is not None:  # the plan saw it: someone removed it since
        raise RefusedError(f"{file} is gone since the plan; skipped")
    if raw is None:
        raise BadInputError(f"{file}: no such entry in {root}")
    digest = sha256(raw)
    if expected_sha is not None and digest != expected_sha:
        raise RefusedError(f"{file} changed since the plan (sha256 {expected_sha[:12]}… is now "
                           f"{digest[:12]}…); skipped")
    try:
        parsed = parse_memory_text(file, raw.decode("utf-8").removeprefix("\ufeff"))
        meta, body = parsed.meta, parsed.body
    except (UnicodeDecodeError, FileLoadError):
        meta, body = {}, ""
    return Current(file=file, raw=raw, sha256=digest, description=str(meta.get("description")
                   or ""), memory_type=memory_type(meta), name=str(meta.get("name") or ""),
                   body=body)


def summary(current: Current) -> str:
    """`file.md` — its description, short, secrets masked."""
    text = shortened(current.description, 90)
    name = mask_text(code_name(current.file))
    return f"{name} — {text}" if text else name


def shortened(text: str, limit: int) -> str:
    """`text` on one line, secrets masked first (so a cut never leaves part of one behind),
    then cut to `limit` characters."""
    masked = mask_text(" ".join(text.split()))
    return masked if len(masked) <= limit else masked[:limit - 1].rstrip() + "…"


def entry_type(current: Current, memory_class: str | None) -> str:
    if memory_class:
        return memory_class
    return current.memory_type.capitalize() if current.memory_type else "Unclassified"


def superseded_record(root: Path, base: str, ino: Inoculation, now: datetime,
                      supersedes: str) -> Superseded:
    """The counter-memory for `base` with a slug no existing file uses."""
    for field, value in (("pattern", ino.pattern), ("evidence", ino.evidence),
                         ("reason", ino.abandonment_reason),
                         ("do-not-rederive", ino.do_not_rederive)):
        if not value.strip():
            raise BadInputError(f"inoculate needs a non-empty --{field}")
    taken = list_names(root)
    slug = free_slug(slugify(mask_text(ino.slug or Path(base).stem)), taken)
    day = now.date().isoformat()
    # The counter-memory is loaded like any memory: nothing in it may carry a secret.
    return Superseded(slug=slug, date=day, pattern=mask_text(ino.pattern),
                      period=mask_text(ino.period or f"unknown to {day}"),
                      evidence=mask_text(ino.evidence),
                      abandonment_reason=mask_text(ino.abandonment_reason),
                      do_not_rederive=mask_text(ino.do_not_rederive),
                      supersedes=mask_text(supersedes))


def superseded_json(record: Superseded) -> dict[str, str]:
    data = render_superseded(record)
    return {"file": record.file, "data": pack(data), "sha256": sha256(data),
            "index_line": record.index_line()}


@dataclass(frozen=True)
class Withdrawal:
    """What every withdrawal records, whether of a topic file or of an inline fact.
    `vault` is set when the original held a secret: the tombstone then keeps a redacted
    body, and the original bytes are already in the private vault."""

    register_id: str
    tombstone: str
    tombstone_data: bytes
    superseded: Superseded | None
    row: RegisterRow
    vault: Path | None = None
    link_edits: tuple[LinkEdit, ...] = ()

    def step_fields(self, manifest: Path, now: datetime) -> dict[str, Any]:
        return {"register_id": self.register_id, "tombstone": self.tombstone,
                "link_edits": [edit.to_json() for edit in self.link_edits],
                "tombstone_sha256": sha256(self.tombstone_data),
                "superseded": superseded_json(self.superseded) if self.superseded else None,
                "row": list(self.row.cells()), "manifest": str(manifest),
                "date": now.date().isoformat(),
                **({"vault": str(self.vault)} if self.vault else {})}


def plan_withdrawal(root: Path, current: Current, drafting: Drafting, *, reason: str,
                    rule: str, memory_class: str | None, now: datetime,
                    ino: Inoculation | None,
                    index_lines: tuple[IndexLineRecord, ...]) -> Withdrawal:
    """Register id, tombstone name and bytes, counter-memory, register row and link edits
    of one withdrawal of `current`, worked out against `drafting` (which it updates)."""
    register_id = drafting.register_id()
    tomb = tombstone_name(current.file, drafting.taken, register_id)
    drafting.taken.add(tomb)
    sup = superseded_record(root, current.file, ino, now, tomb) if ino else None
    kept = vault.put(root, current.raw) if vault.holds_secret(current.raw) else None
    edits = drafting.link_edits(current.link_names, current.file, register_id)
    extras: tuple[tuple[str, Any], ...] = (("vault", str(kept)),) if kept else ()
    if sup is not None:
        extras += (("superseded_sha256", sha256(render_superseded(sup))),)
    if edits:
        extras += (("link_edits", [edit.to_json() for edit in edits]),)
    header = vault.shielded(root, TombstoneHeader(
        original_file=current.file, deaccessioned_at=now, reason=mask_text(reason), rule=rule,
        register_id=register_id, original_sha256=current.sha256,
        superseded_by=sup.file if sup else None, index_lines=index_lines, extras=extras))
    row = RegisterRow(register_id, summary(current), entry_type(current, memory_class),
                      shortened(f"{rule}: {reason}", REASON_CHARS), tomb,
                      sup.file if sup else NOT_APPLICABLE)
    body = vault.redact(current.raw) if kept else current.raw
    return Withdrawal(register_id, tomb, render_tombstone(header, body), sup, row, kept, edits)


def withdraw_step(root: Path, current: Current, log_text: str, *, reason: str, rule: str,
                  memory_class: str | None, manifest: Path, now: datetime,
                  ino: Inoculation | None = None,
                  spare: Collection[str] | None = None) -> dict[str, Any]:
    """The journal record of one withdrawal (with its inoculation, if any)."""
    _, records = indexedit.remove_entry(read_or_none(root / INDEX_FILE) or b"", current.file)
    done = plan_withdrawal(root, current, Drafting.read(root, log_text, now, spare),
                           reason=reason, rule=rule, memory_class=memory_class, now=now,
                           ino=ino, index_lines=records)
    return withdrawal_record(current, records, done, manifest, now)


def withdrawal_record(current: Current, records: tuple[IndexLineRecord, ...],
                      done: Withdrawal, manifest: Path, now: datetime) -> dict[str, Any]:
    """The journal record of one withdrawal of a topic file."""
    data = done.tombstone_data
    # The body stays out of the journal; a redacted one holds no secret and goes in whole.
    body = {"tombstone_data": pack(data)} if done.vault else \
        {"tombstone_header": pack(data[: len(data) - len(current.raw)])}
    return {"op": "withdraw", "file": current.file, "original_sha256": current.sha256,
            "index_lines": [r.to_json() for r in records], **body,
            **done.step_fields(manifest, now)}
