"""Re-accession: bring back part of a withdrawn memory — one fact of it — as a new memory.

`restore` gives back the whole entry. Often only one line of a withdrawn memory still
holds; re-accessioning copies those lines out of the tombstone into a new topic file with
its own index line and a change row naming the register id it came from. The tombstone is
left as it is, so the rest stays restorable. A secret is never copied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from prune_memory.engine import vault
from prune_memory.engine.entries import check_name, is_index_line
from prune_memory.engine.journal import OneStep, StepOutcome, carried_out, kind, pack, unpack
from prune_memory.engine.results import ApplyResult, applied_from, result
from prune_memory.engine.session import writing
from prune_memory.engine.tombstone import iso_utc, read_tombstone
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.secrets.mask import describe
from prune_memory.secrets.scan import find_secrets
from prune_memory.store.files import StepConflict, edit_index, ensure_file, sha_or_none
from prune_memory.store.frontmatter_parse import memory_type, parse_memory_text
from prune_memory.store.index import linking_lines
from prune_memory.store.index_edit import add_line
from prune_memory.store.pruninglog import log_once, read_log
from prune_memory.store.snapshot import Snapshot, require_snapshot
from prune_memory.store.yamlvalue import scalar

SECTION = "Re-accessioned"
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Withdrawn:
    """The original of a tombstone, read for re-accession: its type and its body's lines."""

    register_id: str
    tombstone: str
    original_file: str
    memory_type: str | None
    lines: tuple[str, ...]


def withdrawn_body(root: Path, register_id: str) -> Withdrawn:
    """The body lines of the memory withdrawn under `register_id` (1-based when shown)."""
    row = read_log(root).row(register_id)
    if row is None:
        raise BadInputError(f"no register row {register_id} in the pruning log")
    stone = read_tombstone(root, row.tombstone)
    if stone is None:
        raise BadInputError(f"tombstone {row.tombstone} of {register_id} is missing or damaged")
    original = stone.header.original_file
    if is_index_line(original):
        raise BadInputError(f"{register_id} withdrew a line of the index; use `restore`")
    # A tombstone of a memory that held a secret keeps a redacted body; the lines are read
    # from the vault's original, so the secret check below sees what they really hold.
    data = vault.original_of(root, stone) if stone.header.vault else stone.original
    if data is None:
        raise BadInputError(f"the original of {register_id} is missing from the private "
                            "vault; nothing can be brought back from it")
    parsed = parse_memory_text(original, data.decode("utf-8", errors="replace"))
    return Withdrawn(register_id, row.tombstone, original, memory_type(parsed.meta),
                     tuple(parsed.body.splitlines()))


def pick_lines(withdrawn: Withdrawn, spec: str) -> str:
    """The lines `spec` names (`4` or `4-6`, 1-based, inclusive) as one text."""
    found = _RANGE.match(spec)
    last = len(withdrawn.lines)
    if found is None:
        raise BadInputError(f"--lines {spec!r}: give a line or a range such as 4-6")
    first, end = int(found.group(1)), int(found.group(2) or found.group(1))
    if not 1 <= first <= end <= last:
        raise BadInputError(f"--lines {spec}: the withdrawn body has lines 1-{last}")
    text = "\n".join(withdrawn.lines[first - 1:end]).strip()
    if not text:
        raise BadInputError(f"--lines {spec} are blank")
    return text


@dataclass(frozen=True)
class Request:
    """A checked re-accession: which lines, under which new name, and why."""

    withdrawn: Withdrawn
    text: str
    file: str
    summary: str
    reason: str


def request(root: Path, withdrawn: Withdrawn, lines: str, *, file: str, description: str,
            reason: str) -> Request:
    """Check everything before anything is written (or snapshotted)."""
    text = pick_lines(withdrawn, lines)
    if not file.strip() or file.startswith("."):  # `.md` would be a hidden file, no memory
        raise BadInputError(f"--file {file!r}: give the new memory a name (`project_x.md`)")
    name = check_name(file if file.endswith(".md") else f"{file}.md")
    if not reason.strip():
        raise BadInputError("a --reason is required: re-accessions are logged")
    secrets = find_secrets(text)
    if secrets:
        raise RefusedError(f"the chosen lines hold a secret ({describe(secrets[0])}); it is "
                           "never copied back — pick other lines")
    if sha_or_none(root / name) is not None:
        raise BadInputError(f"{name} already exists; choose another --file")
    return Request(withdrawn, text, name, " ".join((description or text).split())[:150],
                   reason)


def reaccession(root: Path, req: Request, *, snapshot: Snapshot,
                now: datetime) -> ApplyResult:
    """Write the chosen lines as a new memory, index it and log where they came from."""
    require_snapshot(snapshot, root)
    withdrawn, name, summary, reason = req.withdrawn, req.file, req.summary, req.reason
    data = _memory_file(name, summary, req.text, withdrawn, now)
    with writing(root) as notes:
        if sha_or_none(root / name) is not None:
            raise BadInputError(f"{name} already exists; choose another --file")
        row = (now.date().isoformat(), "reaccessioned", f"`{name}`", withdrawn.register_id,
               " ".join(f"{reason.strip()}; from {withdrawn.tombstone}".split()))
        step = ReaccessionStep(
            file=name, data=pack(data), row=row, section=SECTION,
            index_line=f"- [{_title(name)}]({name}) — {summary}",
            message=f"{name} holds part of {withdrawn.original_file} "
                    f"({withdrawn.register_id}); the tombstone stays as it was")
        outcome = carried_out(root, step)
    return result(root, read_log(root), [applied_from(outcome, register_id=withdrawn.register_id,
                                                      tombstone=withdrawn.tombstone)], [], notes)


def _memory_file(name: str, summary: str, text: str, withdrawn: Withdrawn,
                 now: datetime) -> bytes:
    head = [f"name: {scalar(name.removesuffix('.md'))}", f"description: {scalar(summary)}",
            f"type: {scalar(withdrawn.memory_type or 'project')}",
            f"reaccessioned_from: {scalar(withdrawn.register_id)}",
            f"modified: {iso_utc(now)}"]
    return ("---\n" + "\n".join(head) + "\n---\n" + text + "\n").encode("utf-8")


def _title(name: str) -> str:
    words = re.sub(r"[_-]+", " ", name.removesuffix(".md")).strip()
    return words[:1].upper() + words[1:]


@kind
@dataclass(frozen=True)
class ReaccessionStep(OneStep):
    """A new memory file, its index line, a change row. Idempotent like every step: a file
    already holding the bytes is left alone, an index line already pointing at the file is
    not added twice, a row already logged is not logged again."""

    OP: ClassVar[str] = "reaccession"
    file: str
    data: str
    row: tuple[str, ...]
    index_line: str
    section: str
    message: str = ""

    def run(self, root: Path) -> StepOutcome:
        try:
            ensure_file(root / self.file, unpack(self.data))
        except StepConflict:
            return StepOutcome("reaccession", self.file, "rolled-back",
                               f"{self.file} appeared with other content; nothing was written")

        def with_line(raw: bytes) -> bytes:
            text = raw.decode("utf-8", errors="replace")
            if linking_lines(text.splitlines(), self.file):
                return raw
            return add_line(raw, self.index_line, self.section)

        edit_index(root, with_line)
        log_once(root, self.row)
        return StepOutcome("reaccession", self.file, "done", self.message)
