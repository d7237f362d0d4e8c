"""Update: a real, reversible change of an entry — a topic file's body, description and
index line rewritten together, or a fact's one line of MEMORY.md swapped — behind
`update_entry`. The earlier version is kept as a tombstone with its own register id and
row, and `restore <id>` takes the update back (restore.py: `RevertUpdateStep`).

The steps: tombstone of the earlier version, verified → register row (the commit point) →
the new bytes (or line) → the index line(s) rewritten. Before the commit point a file
someone else changed rolls the step back; after it, the newer text wins and the change is
logged. A revert puts the earlier bytes back while the file still holds what the update
wrote, then the index lines, then a `restored` row. Each step is idempotent.

What an update writes into a topic file is worked out here too: the body replaced and
`modified:` stamped (the rest of the frontmatter kept, line endings too); a drift
correction marks each paragraph, item or row it changed `[corrected <date>]`; and the
body's own corrections (a word-level diff of old against new) are carried over to the
`description` and the index line, where Claude reads first.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from prune_memory.engine import vault
from prune_memory.engine.entries import (
    NOT_APPLICABLE,
    Current,
    Line,
    current_line,
    entry_type,
    is_index_line,
    read_current,
    summary,
)
from prune_memory.engine.journal import OneStep, StepOutcome, carried_out, kind, pack, unpack
from prune_memory.engine.protect import writable
from prune_memory.engine.results import ApplyResult, applied_from, result
from prune_memory.engine.session import writing
from prune_memory.engine.tombstone import (
    TombstoneHeader,
    iso_utc,
    render_tombstone,
    tombstone_name,
)
from prune_memory.engine.withdraw import tombstone_bytes
from prune_memory.errors import BadInputError
from prune_memory.model import INDEX_FILE, TOMBSTONE_DIR
from prune_memory.secrets.mask import mask_text
from prune_memory.store import index_edit
from prune_memory.store.files import (
    StepConflict,
    edit_index,
    ensure_file,
    inside,
    list_names,
    read_log_text,
    read_or_none,
    remove_if,
    replace_if,
    sha256,
    sha_or_none,
    write_log_text,
)
from prune_memory.store.frontmatter_parse import parse_memory_text
from prune_memory.store.index import linking_lines
from prune_memory.store.lineends import split_ends, usual_end
from prune_memory.store.pruninglog import (
    RegisterRow,
    add_register_row,
    code_name,
    has_register_row,
    log_once,
    next_register_id_in,
    read_log,
)
from prune_memory.store.snapshot import Snapshot, require_snapshot
from prune_memory.store.yamlvalue import scalar

_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def update_entry(root: Path, file: str, body: str, *, reason: str, snapshot: Snapshot,
                 now: datetime, expected_sha256: str | None = None,
                 rule: str = "4-stale-known-correction", description: str | None = None,
                 index_line: str | None = None, memory_class: str | None = None,
                 pairs: tuple[tuple[str, str], ...] = ()) -> ApplyResult:
    """Rewrite an entry's body, description and index line together (`modified:` stamped);
    the earlier version is kept as a tombstone with a register id, so `restore` reverts it.
    Without an explicit description or index line, the body's corrections carry over; a
    drift correction marks each body line it changed `[corrected <date>]`. A fact written
    in MEMORY.md gets `body` as its new line."""
    require_snapshot(snapshot, root)
    with writing(root) as notes:
        name = writable(root, file)
        step: UpdateEntryStep | UpdateLineStep
        if is_index_line(name):
            line = current_line(root, name, expected_sha256, snapshot.manifest)
            step = line_step(root, line, body.rstrip("\r\n"), reason=reason, rule=rule,
                             log_text=read_log_text(root), manifest=snapshot.manifest, now=now)
        else:
            current = read_current(root, name, expected_sha256)
            body = body_written(current.raw, body, rule, now)
            step = topic_step(root, current, NewText(body, description, index_line, pairs),
                              reason=reason, rule=rule, memory_class=memory_class,
                              log_text=read_log_text(root), manifest=snapshot.manifest,
                              now=now)
        done = applied_from(carried_out(root, step), register_id=step.register_id,
                            tombstone=step.tombstone)
    return result(root, read_log(root), [done], [], notes)


# --- What an update writes ---------------------------------------------------------------

@dataclass(frozen=True)
class NewText:
    """What an update writes: the body, and optionally the description and index line (when
    not given, the body's own corrections are carried over to them)."""

    body: str
    description: str | None = None
    index_line: str | None = None
    pairs: tuple[tuple[str, str], ...] = ()  # corrections to carry besides the body's own


def topic_step(root: Path, current: Current, new: NewText, *, reason: str, rule: str,
               memory_class: str | None, log_text: str, manifest: Path,
               now: datetime) -> UpdateEntryStep:
    """The step of one update of `current` to `new`."""
    data, changes = rewritten(current, new, read_or_none(root / INDEX_FILE) or b"", now)
    register_id = next_register_id_in(log_text, now.date().isoformat())
    tomb = tombstone_name(current.file, set(), register_id, numbered=True)  # no secret in it
    kept = vault.put(root, current.raw) if vault.holds_secret(current.raw) else None
    extras: tuple[tuple[str, Any], ...] = (("vault", str(kept)),) if kept else ()
    # The index lines it changes, masked as they sit in the tombstone; the exact ones, when
    # a secret was masked, in the vault for the undo.
    exact = [list(change) for change in changes]
    shown = [[mask_text(old), mask_text(line)] for old, line in changes]
    extras += (("change", "update"), ("updated_sha256", sha256(data)), ("index_change", shown))
    if shown != exact:
        kept_lines = vault.put(root, json.dumps(exact, ensure_ascii=False).encode("utf-8"))
        extras += (("index_change_vault", str(kept_lines)),)
    header = vault.shielded(root, TombstoneHeader(
        original_file=current.file, deaccessioned_at=now, rule=rule, register_id=register_id,
        reason=mask_text(f"earlier version of {current.file}, replaced by an update: {reason}"),
        original_sha256=current.sha256, extras=extras))
    stone = render_tombstone(header, vault.redact(current.raw) if kept else current.raw)
    row = RegisterRow(register_id, summary(current), entry_type(current, memory_class),
                      mask_text(f"{rule}: updated — {reason}"), tomb, NOT_APPLICABLE)
    return UpdateEntryStep(
        file=current.file, original_sha256=current.sha256, after_sha256=sha256(data),
        data=pack(data), tombstone=tomb, tombstone_sha256=sha256(stone),
        tombstone_data=pack(stone) if kept else None,
        tombstone_header=None if kept else pack(stone[: len(stone) - len(current.raw)]),
        register_id=register_id, index_change=tuple(changes), row=row.cells(),
        manifest=str(manifest), date=now.date().isoformat())


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
    lines = index_edit.IndexText.parse(index).lines
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


def line_step(root: Path, line: Line, new_line: str, *, reason: str, rule: str,
              log_text: str, manifest: Path, now: datetime) -> UpdateLineStep:
    """The step that rewrites one inline fact's line to `new_line`: the line is the memory,
    so the earlier line is what its tombstone keeps."""
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
    return UpdateLineStep(file=line.file, line=line.text, new_line=new_line, tombstone=tomb,
                          tombstone_data=pack(stone), tombstone_sha256=sha256(stone),
                          register_id=register_id, row=row.cells(), manifest=str(manifest),
                          date=now.date().isoformat())


# --- The steps ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class _Registered(OneStep):
    """An update's fields: the earlier version's tombstone, its register row, the day."""

    file: str
    tombstone: str
    tombstone_sha256: str
    register_id: str
    row: tuple[str, ...]
    manifest: str
    date: str

    def _register(self, root: Path) -> None:
        write_log_text(root, add_register_row(read_log_text(root), RegisterRow(*self.row),
                                              manifest=self.manifest, date=self.date))

    def _cancelled(self, root: Path, what: str) -> StepOutcome:
        reason = (f"{self.file} changed during the update; the newer {what} was kept, the "
                  f"tombstone {self.tombstone} holds the earlier one")
        log_once(root, (self.date, "update-cancelled", code_name(self.file), self.register_id,
                        reason))
        return StepOutcome("update", self.file, "cancelled", reason)


@kind
@dataclass(frozen=True, kw_only=True)
class UpdateEntryStep(_Registered):
    """The update of a topic file; the record keeps only the tombstone's header (or a
    redacted tombstone whole), as a withdrawal's does."""

    OP: ClassVar[str] = "update-entry"
    original_sha256: str
    after_sha256: str
    data: str
    index_change: tuple[tuple[str, str], ...]
    tombstone_header: str | None = None
    tombstone_data: str | None = None

    def run(self, root: Path) -> StepOutcome:
        target, stone = inside(root, self.file), inside(root, self.tombstone)
        if not has_register_row(read_log_text(root), self.register_id):
            if sha_or_none(target) != self.original_sha256:
                return self._roll_back(root)
            try:
                ensure_file(stone, tombstone_bytes(root, self))
            except StepConflict:
                return self._roll_back(root)
            self._register(root)
        if sha_or_none(target) == self.original_sha256:
            replace_if(target, self.original_sha256, unpack(self.data))
        if sha_or_none(target) != self.after_sha256:
            return self._cancelled(root, "text")
        rewrite_lines(root, self.index_change)
        return StepOutcome("update", self.file, "done", f"updated as {self.register_id}")

    def _roll_back(self, root: Path) -> StepOutcome:
        remove_if(root / self.tombstone, self.tombstone_sha256)
        return StepOutcome("update", self.file, "rolled-back",
                           f"{self.file} changed before the update was written; left as it is")


@kind
@dataclass(frozen=True, kw_only=True)
class UpdateLineStep(_Registered):
    """The update of a fact in MEMORY.md: tombstone of the earlier line, verified →
    register row (the commit point) → the line swapped."""

    OP: ClassVar[str] = "update-line"
    line: str
    new_line: str
    tombstone_data: str

    def run(self, root: Path) -> StepOutcome:
        if not has_register_row(read_log_text(root), self.register_id):
            raw = read_or_none(root / INDEX_FILE) or b""
            if not index_edit.has_line(raw, self.line):
                return StepOutcome("update", self.file, "rolled-back", f"{self.file} changed "
                                   "before the update was written; left as it is")
            try:
                ensure_file(inside(root, self.tombstone), unpack(self.tombstone_data))
            except StepConflict:
                return StepOutcome("update", self.file, "rolled-back",
                                   f"{self.tombstone} is taken; {self.file} left as it is")
            self._register(root)
        rewrite_lines(root, ((self.line, self.new_line),))
        if not index_edit.has_line(read_or_none(root / INDEX_FILE) or b"", self.new_line):
            return self._cancelled(root, "line")
        return StepOutcome("update", self.file, "done", f"updated as {self.register_id}")


def rewrite_lines(root: Path, changes: tuple[tuple[str, str], ...]) -> None:
    """Each (old, new) index line: the copy of old becomes new, unless new is already there."""
    for old, new in changes:
        edit_index(root, partial(_swap_line, old=old, new=new))


def _swap_line(raw: bytes, *, old: str, new: str) -> bytes:
    return raw if index_edit.has_line(raw, new) else index_edit.remove_line(raw, old, 0, new)


_TOKEN = re.compile(r"[\w][\w./-]*[\w]|[\w]|\s+|[^\w\s]")
MAX_PHRASE_TOKENS = 7  # a longer rewrite is a new sentence, not a correction to carry


def corrections(old: str, new: str) -> list[tuple[str, str]]:
    """(old phrase, new phrase) for each short replacement in the change from `old` to `new`."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    pairs: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or max(i2 - i1, j2 - j1) > MAX_PHRASE_TOKENS:
            continue
        before, after = "".join(a[i1:i2]).strip(), "".join(b[j1:j2]).strip()
        if re.search(r"\w\w", before) and before != after and after:
            pairs.append((before, after))
    return list(dict.fromkeys(pairs))


def carry(text: str, pairs: Sequence[tuple[str, str]]) -> str:
    """`text` with every correction applied where the old phrase stands as whole words."""
    for before, after in sorted(pairs, key=lambda p: len(p[0]), reverse=True):
        pattern = re.compile(r"(?<![\w])" + re.escape(before) + r"(?![\w])")
        text = pattern.sub(after.replace("\\", "\\\\"), text)
    return text


# The decision-tree rules whose update is a correction of drift (step 10 of the procedure);
# 2-failed-fidelity is the name plans written by earlier versions gave it.
CORRECTION_RULES = frozenset({"4-stale-known-correction", "2-failed-fidelity"})
_MARK = re.compile(r"\s*\[corrected \d{4}-\d{2}-\d{2}\]")
_FENCE = re.compile(r"^\s*(?:```|~~~)")


def annotate(old_body: str, new_body: str, now: datetime) -> str:
    """`new_body` with `[corrected <date>]` on every non-blank line that differs from
    `old_body` (an earlier mark on the line gives way to the new date)."""
    old = [_MARK.sub("", line) for line in old_body.splitlines()]
    new = new_body.splitlines()
    changed: set[int] = set()
    matcher = difflib.SequenceMatcher(a=old, b=[_MARK.sub("", line) for line in new],
                                      autojunk=False)
    for tag, _a0, _a1, b0, b1 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(b0, b1))
    mark = f"[corrected {now.date().isoformat()}]"
    fenced = _fenced_lines(new)
    ends = {_block_end(new, n, fenced) for n in changed if new[n].strip() and n not in fenced}
    out = [_marked(line, mark) if n in ends else line for n, line in enumerate(new)]
    return "\n".join(out) + ("\n" if new_body.endswith("\n") else "")


def without_marks(text: str) -> str:
    """`text` with every `[corrected <date>]` mark taken out: what the words say."""
    return _MARK.sub("", text)


def annotated_body(raw: bytes, new_body: str, now: datetime) -> str:
    """`annotate` against the body of the file as it is on disk."""
    old = parse_memory_text("entry", raw.decode("utf-8", errors="replace")).body
    return annotate(old, new_body, now)


def body_written(raw: bytes, new_body: str, rule: str, now: datetime) -> str:
    """The body an update by `rule` writes: marked where a drift correction changed it.
    Applying and every preview of an update (the review's diff, `plan --diff`) call this,
    so the diff a person approves is the text written, marks included."""
    return annotated_body(raw, new_body, now) if rule in CORRECTION_RULES else new_body


_SENTENCE_ENDS = (".", "!", "?", ":", ";", ")", "|", "。", "！", "？", "`")
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|\||>|```|~~~)")


def _block_end(lines: list[str], n: int, fenced: set[int]) -> int:
    """The last line of the sentence line `n` starts: the lines a paragraph wraps it over,
    up to one that ends a sentence (a line of its own in a line-per-fact memory)."""
    end = n
    while end + 1 < len(lines) and lines[end + 1].strip() and end + 1 not in fenced \
            and not _BLOCK_START.match(lines[end + 1]) \
            and not lines[end].rstrip().endswith(_SENTENCE_ENDS):
        end += 1
    return end


def _marked(line: str, mark: str) -> str:
    bare = _MARK.sub("", line).rstrip()
    if bare.endswith("|") and bare.count("|") >= 2:  # a table row: inside its last cell
        return f"{bare[:-1].rstrip()} {mark} |"
    return f"{bare} {mark}"


def _fenced_lines(lines: list[str]) -> set[int]:
    inside = False
    out: set[int] = set()
    for n, line in enumerate(lines):
        if _FENCE.match(line):
            inside = not inside
            out.add(n)
        elif inside:
            out.add(n)
    return out


_MODIFIED = re.compile(r"^modified\s*:")
_DESCRIPTION = re.compile(r"^description\s*:")


def with_new_body(raw: bytes, body: str, stamp: str, description: str | None = None) -> bytes:
    """`raw` with its body replaced by `body`; frontmatter kept, `modified: <stamp>` set, and
    `description:` rewritten when a new one is given.

    Like Claude Code, only a file that already has frontmatter gets the stamp. The lines
    kept keep their own endings (CR, CRLF or LF); new lines take the file's usual one.
    """
    decoded = raw.decode("utf-8")
    bom = "\ufeff" if decoded.startswith("\ufeff") else ""
    lines, ends = split_ends(decoded[len(bom):])
    eol = usual_end(ends)
    new_body = body.rstrip("\n").replace("\n", eol) + eol
    close = next((n for n in range(1, len(lines)) if lines[n] == "---"), None) \
        if lines and lines[0] == "---" else None
    if close is None:
        return (bom + new_body).encode("utf-8")
    kept = [(line, end) for line, end in zip(lines[1:close], ends[1:close], strict=True)
            if not _MODIFIED.match(line)]
    if description is not None:
        kept = _described(kept, description, eol)
    head = "".join(line + end for line, end in kept)
    after = close + 1
    while after < len(lines) and lines[after] == "":
        after += 1
    gap = "".join(ends[close + 1:after])  # the blank lines before the body, kept as they were
    body_text = new_body.lstrip("\r\n")
    text = f"---{ends[0]}{head}modified: {stamp}{eol}---{ends[close] or eol}{gap}{body_text}"
    return (bom + text).encode("utf-8")


def _described(head: list[tuple[str, str]], description: str,
               eol: str) -> list[tuple[str, str]]:
    """The frontmatter lines with `description:` (and any indented continuation) replaced."""
    at = next((n for n, (ln, _) in enumerate(head) if _DESCRIPTION.match(ln)), None)
    line = (f"description: {scalar(' '.join(description.split()))}", eol)
    if at is None:
        return [*head, line]
    end = at + 1
    while end < len(head) and head[end][0][:1] in (" ", "\t"):
        end += 1
    return [*head[:at], (line[0], head[at][1] or eol), *head[end:]]
