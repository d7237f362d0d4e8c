"""What a set of changes would write, byte for byte, worked out without writing anything:
the diff the review shows for each proposal and `plan --diff` shows for a whole plan.

The directory as the changes would leave it is drafted in memory the way the apply step
goes — plain withdrawals of topic files first as one batch, then facts in MEMORY.md, then
the rest in order, then the index repairs — with the engine's own edits (`body_written`,
`rewritten`, `remove_entry`, the link index, `repaired`), so register ids, `[corrected …]`
marks, `modified:` stamps and unlinked `[[links]]` read as they will be written. From the
draft come the unified diff of every file, the files touched, and how MEMORY.md grows
against its load cap. Like `ruff --diff`, `plan_diff` shows updates as the file's new
text, each withdrawal as a `#` line naming the file and its tombstone; `held_diff` shows
the same for suggestions the automation gate held back. Secrets are masked in every line."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from prune_memory.engine.entries import Current, is_index_line, read_current
from prune_memory.engine.links import LinkIndex
from prune_memory.engine.repairs import repaired
from prune_memory.engine.superseded import render_superseded, superseded_record
from prune_memory.engine.tombstone import tombstone_name
from prune_memory.engine.update import NewText, body_written, rewritten
from prune_memory.errors import PruneMemoryError
from prune_memory.model import INDEX_FILE, JSON, LOG_FILE, TOMBSTONE_DIR, Action, LoadCap
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.secrets.mask import mask_text
from prune_memory.store import index_edit
from prune_memory.store.files import list_names, read_log_text, read_or_none
from prune_memory.store.index import fact_text, index_line_number, parse_index
from prune_memory.store.pruninglog import next_register_id_in

_KINDS = {Action.WITHDRAW: "withdraw", Action.WITHDRAW_INOCULATE: "withdraw+inoculate",
          Action.INOCULATE: "inoculate", Action.UPDATE: "update"}


def plan_diff(root: Path, plan: Plan, *, repairs: bool = True) -> str:
    """Every change the plan proposes, as one unified diff (empty: nothing would change)."""
    changes = [change for entry in plan.entries if (change := as_change(entry)) is not None]
    fixes = plan.reachability.get("repairs", []) if repairs else []
    return preview(root, plan.now, changes, fixes).diff


def held_diff(root: Path, plan: Plan) -> str:
    """What accepting every suggestion held for review would write, as `plan_diff` shows it."""
    held = tuple(replace(e, action=e.suggested_action) for e in plan.entries
                 if e.action is Action.REVIEW and e.suggested_action is not None)
    return plan_diff(root, replace(plan, entries=held), repairs=False) if held else ""


def as_change(entry: PlanEntry, action: Action | None = None) -> Change | None:
    """The plan entry's proposal (or `action` instead) as a change to preview; None for a
    proposal that writes nothing (keep, flag, review, an update with no text)."""
    kind = _KINDS.get(action or entry.action)
    if kind is None or (kind == "update" and entry.proposed_text is None) or (
            kind in ("inoculate", "withdraw+inoculate") and entry.inoculation is None):
        return None
    return Change(kind, entry.file, entry.sha256, text=entry.proposed_text,
                  rule=entry.rule or "", inoculation=entry.inoculation)


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
        return cls(root, now, index_edit.IndexText.parse(before or b"").lines, before,
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
            self.index = index_edit.remove_entry(self.index, current.file)[0]

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
        self.index = index_edit.remove_line(self.index, line, number - 1, sup)
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
            self.index = index_edit.insert_after_entry(self.index, current.file, line)
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
        self.index = index_edit.remove_entry(self.index, current.file, line)[0]

    def update(self, change: Change) -> None:
        text = change.text or ""
        number = index_line_number(change.file)
        if number is not None:
            if number > len(self.planned):
                raise Refused(f"line {number} is no longer in {INDEX_FILE}")
            register_id = self.register_id()
            self.index = index_edit.remove_line(self.index, self.planned[number - 1],
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
            self.index = index_edit.remove_line(self.index, old, 0, new)


class Refused(Exception):
    """A change the apply step would refuse, as a preview says it."""


def rule_words(change: Change) -> str:
    return f" ({change.rule})" if change.rule else ""


def needs_note(change: Change) -> Inoculation:
    if change.inoculation is None:
        raise Refused("no SUPERSEDED fields to write")
    return change.inoculation
