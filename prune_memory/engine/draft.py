"""The memory directory as a list of changes would leave it, worked out in memory.

`change_preview` turns a draft into the diff and the list of files a person is shown. The
draft goes the way the apply step goes and uses the engine's own edits, so what it holds
is what applying writes: register ids handed out in the same order, `[corrected …]` marks
(`corrected.body_written`), `modified:` stamps (`rewritten`), index lines taken out
(`remove_entry`) and `[[links]]` unlinked in kept files (the batch's link index).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from prune_memory.engine.build import Current, read_current, superseded_record
from prune_memory.engine.build_line import is_index_line
from prune_memory.engine.build_update import NewText, rewritten
from prune_memory.engine.edits import indexedit, indexlines
from prune_memory.engine.edits.corrected import body_written
from prune_memory.engine.edits.wikilinks import LinkIndex
from prune_memory.engine.superseded import render_superseded
from prune_memory.engine.tombstone import tombstone_name
from prune_memory.errors import PruneMemoryError
from prune_memory.model import INDEX_FILE, LOG_FILE, TOMBSTONE_DIR
from prune_memory.plan import Inoculation
from prune_memory.store.files import list_names, read_log_text, read_or_none
from prune_memory.store.index_facts import fact_text, index_line_number
from prune_memory.store.logscan import next_register_id_in

WITHDRAW, WITHDRAW_INOCULATE, INOCULATE, UPDATE, PROTECT = (
    "withdraw", "withdraw+inoculate", "inoculate", "update", "protect")


@dataclass(frozen=True)
class Change:
    """One accepted change: a kind above, the entry, and what it needs."""

    kind: str
    file: str
    sha256: str | None = None
    text: str | None = None  # an update's new body (or an inline fact's new line)
    rule: str = ""
    inoculation: Inoculation | None = None


@dataclass
class Draft:
    """The memory directory as the changes so far would leave it."""

    root: Path
    now: datetime
    planned: list[str]  # MEMORY.md's lines when the plan was made (`#L<n>` counts these)
    index_before: bytes | None
    index: bytes
    next_id: int
    texts: dict[str, bytes | None] = field(default_factory=dict)  # changed files, None = gone
    created: dict[str, bytes] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    linked: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def read(cls, root: Path, now: datetime) -> Draft:
        before = read_or_none(root / INDEX_FILE)
        first = next_register_id_in(read_log_text(root), now.date().isoformat())
        return cls(root, now, indexedit.IndexText.parse(before or b"").lines, before,
                   before or b"", int(first.rsplit("-", 1)[1]))

    def register_id(self) -> str:
        self.next_id += 1
        return f"{self.now.date().isoformat()}-{self.next_id - 1:02d}"

    def note_path(self, path: str) -> None:
        if path not in self.order:
            self.order.append(path)

    def current(self, change: Change) -> Current:
        """The entry as apply would read it: refused when an earlier change rewrote it."""
        if change.file in self.texts:
            raise Refused("an earlier change in this pass rewrites it first (unlinking a "
                           "withdrawn memory): it is left for the next pass")
        return read_current(self.root, change.file, change.sha256)

    def guarded(self, change: Change, step: Callable[[Change], None]) -> None:
        try:
            step(change)
        except (PruneMemoryError, Refused) as err:
            self.refused.append((change.file, str(err)))

    def withdraw_batch(self, changes: Sequence[Change]) -> None:
        links = self.link_index()
        leaving = {c.file for c in changes}
        for change in changes:
            try:
                current = self.current(change)
            except (PruneMemoryError, Refused) as err:
                self.refused.append((change.file, str(err)))
                continue
            self.gone(current, self.register_id(), links, leaving, rule_words(change))
            self.index = indexedit.remove_entry(self.index, current.file)[0]

    def gone(self, current: Current, register_id: str, links: LinkIndex | None,
             spare: set[str], note: str = "") -> None:
        """The topic file moves into its tombstone; links to it in kept files are unlinked."""
        tomb = tombstone_name(current.file, self.taken(), register_id)
        self.tombstone(tomb)
        self.texts[current.file] = None
        self.note_path(current.file)
        self.notes.append(f"# withdraw {current.file}{note}: it moves into {tomb} (its bytes "
                          f"under a header, register {register_id}; `restore {register_id}` "
                          "brings it back)\n")
        edits = links.plan(current.link_names, register_id=register_id,
                           spare={*spare, current.file}) if links is not None else ()
        for edit in edits:
            self.texts[edit.file] = links.texts[edit.file] if links else None
            self.note_path(edit.file)
        self.linked[current.file] = tuple(edit.file for edit in edits)

    def link_index(self) -> LinkIndex:
        links = LinkIndex.read(self.root)
        for file, data in self.texts.items():
            if data is None:
                links.texts.pop(file, None)
            elif file in links.texts or b"[[" in data or b".md" in data:
                links.texts[file] = data
        return links

    def withdraw_line(self, change: Change, ino: Inoculation | None = None) -> None:
        number = index_line_number(change.file)
        if number is None or number > len(self.planned):
            raise Refused(f"line {number} is no longer in {INDEX_FILE}")
        register_id = self.register_id()
        line = self.planned[number - 1]
        tomb = tombstone_name(change.file, self.taken(), register_id)
        sup = self.superseded(change.file, replace(ino, slug=ino.slug or fact_text(line)), tomb) \
            if ino is not None else None
        self.tombstone(tomb)
        self.index = indexlines.remove_line(self.index, line, number - 1, sup)
        self.note_path(INDEX_FILE)
        self.notes.append(f"# withdraw {change.file}{rule_words(change)}: the line moves into a "
                          f"tombstone in {TOMBSTONE_DIR}/ (register {register_id})\n")

    def taken(self) -> set[str]:
        """Tombstone names in use, on disk and in this draft."""
        on_disk = {f"{TOMBSTONE_DIR}/{n}" for n in list_names(self.root / TOMBSTONE_DIR)}
        return on_disk | set(self.created)

    def tombstone(self, tomb: str) -> None:
        """A tombstone the change writes (under `deaccessioned/`, not shown as a diff): a
        withdrawal's, or the earlier text an update keeps with its own register id."""
        self.created[tomb] = b""
        self.note_path(tomb)

    def superseded(self, base: str, ino: Inoculation, supersedes: str) -> str:
        record = superseded_record(self.root, base, ino, self.now, supersedes=supersedes)
        self.created[record.file] = render_superseded(record)
        self.note_path(record.file)
        return record.index_line()

    def other(self, change: Change) -> None:
        if change.kind == UPDATE:
            self.update(change)
        elif change.kind == WITHDRAW_INOCULATE:
            self.withdraw_inoculate(change)
        elif change.kind == INOCULATE:
            current = self.current(change)
            line = self.superseded(current.file, needs_note(change), current.file)
            self.index = indexedit.insert_after_entry(self.index, current.file, line)
            self.note_path(INDEX_FILE)
        elif change.kind == PROTECT:
            self.notes.append(f"# {change.file} goes on the protected list in {LOG_FILE}\n")

    def withdraw_inoculate(self, change: Change) -> None:
        if is_index_line(change.file):
            self.withdraw_line(change, needs_note(change))
            return
        current = self.current(change)
        register_id = self.register_id()
        tomb = tombstone_name(current.file, self.taken(), register_id)
        line = self.superseded(current.file, needs_note(change), tomb)
        self.gone(current, register_id, self.link_index(), set(),
                  f"{rule_words(change)} and write a SUPERSEDED note")
        self.index = indexedit.remove_entry(self.index, current.file, line)[0]

    def update(self, change: Change) -> None:
        text = change.text or ""
        number = index_line_number(change.file)
        if number is not None:
            if number > len(self.planned):
                raise Refused(f"line {number} is no longer in {INDEX_FILE}")
            register_id = self.register_id()
            self.index = indexlines.remove_line(self.index, self.planned[number - 1],
                                                number - 1, text.rstrip("\r\n"))
            self.note_path(INDEX_FILE)
            self.tombstone(tombstone_name(change.file, self.taken(), register_id))
            return
        current = self.current(change)
        register_id = self.register_id()
        self.tombstone(f"{TOMBSTONE_DIR}/{Path(current.file).stem}.{register_id}.md")
        body = body_written(current.raw, text, change.rule, self.now)
        data, lines = rewritten(current, NewText(body), self.index, self.now)
        self.texts[current.file] = data
        self.note_path(current.file)
        for old, new in lines:
            self.index = indexlines.remove_line(self.index, old, 0, new)


class Refused(Exception):
    """A change the apply step would refuse, as a preview says it."""


def rule_words(change: Change) -> str:
    return f" ({change.rule})" if change.rule else ""


def needs_note(change: Change) -> Inoculation:
    if change.inoculation is None:
        raise Refused("no SUPERSEDED fields to write")
    return change.inoculation
