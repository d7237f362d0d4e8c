"""Withdraw: an entry into a `deaccessioned/` tombstone, with its register row — topic files
and facts written in MEMORY.md, one or many, behind `withdraw_many`.

The steps, in the order that keeps every body in one place at every moment:

- a topic file (`WithdrawStep`): SUPERSEDED file (when inoculating) → tombstone, verified →
  index line(s) out → register row (the commit point) → `[[links]]` to it unlinked →
  original removed. A file that changed before the commit point rolls the step back;
  after it, the withdrawal is cancelled and logged, and the newer text stays.
- many topic files (`WithdrawBatch`): every tombstone → all their index lines out in one
  rewrite of MEMORY.md → all register rows in one write of the log (the commit point of
  the batch) → each original removed. The index, the log and the kept files' links are
  read once and each withdrawal is worked out as if the ones before it were done
  (`Drafting`), so hundreds of entries cost one rewrite of MEMORY.md and one of the log.
- a fact in MEMORY.md (`WithdrawLineStep`), where the line is the memory: SUPERSEDED file
  → tombstone → register row (the commit point) → the line out (the SUPERSEDED line takes
  its place in the same write). Identical lines may sit elsewhere in the index, so
  "already done" is judged by how many copies of the text there are.

Each part checks the disk first, so a step run again after a crash finishes the job.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from prune_memory.engine import vault
from prune_memory.engine.entries import (
    NOT_APPLICABLE,
    Current,
    Line,
    current_line,
    entry_type,
    is_index_line,
    read_current,
    shortened,
    summary,
)
from prune_memory.engine.journal import (
    OneStep,
    Step,
    StepInterrupted,
    StepOutcome,
    carried_out,
    execute_all,
    kind,
    pack,
    unpack,
)
from prune_memory.engine.links import LinkEdit, LinkIndex, apply_edit, revert_edit
from prune_memory.engine.protect import writable
from prune_memory.engine.results import (
    Applied,
    ApplyResult,
    Skipped,
    WithdrawRequest,
    applied_from,
    result,
    with_vault_note,
)
from prune_memory.engine.session import writing
from prune_memory.engine.superseded import (
    CounterMemory,
    Superseded,
    render_superseded,
    superseded_record,
)
from prune_memory.engine.tombstone import TombstoneHeader, render_tombstone, tombstone_name
from prune_memory.errors import BadInputError, ExitCode, PruneMemoryError, RefusedError
from prune_memory.model import INDEX_FILE, TOMBSTONE_DIR
from prune_memory.plan import Inoculation
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
    sha256,
    sha_or_none,
    write_log_text,
)
from prune_memory.store.index import fact_text
from prune_memory.store.index_edit import remove_entries
from prune_memory.store.index_placement import IndexLineRecord
from prune_memory.store.pruninglog import (
    ChangeRow,
    RegisterRow,
    add_change_row,
    add_register_row,
    add_register_rows,
    code_name,
    first_cells,
    has_register_row,
    next_register_id_in,
    parse_log,
    protected_in,
    read_log,
)
from prune_memory.store.snapshot import Snapshot, require_snapshot

REASON_CHARS = 240  # in a register row; the tombstone's header keeps the whole reason
W = TypeVar("W", bound="Withdrawn")


def withdraw(root: Path, request: WithdrawRequest, *, snapshot: Snapshot,
             now: datetime) -> ApplyResult:
    """Withdraw one entry into a tombstone; RefusedError when it is protected or changed."""
    outcome = withdraw_many(root, [request], snapshot=snapshot, now=now)
    if outcome.skipped:
        first = outcome.skipped[0]
        error = BadInputError if first.code == BadInputError.exit_code else RefusedError
        raise error(first.reason)
    return outcome


def withdraw_many(root: Path, requests: Sequence[WithdrawRequest], *, snapshot: Snapshot,
                  now: datetime) -> ApplyResult:
    """Withdraw the entries: the topic files as one journalled batch, facts in MEMORY.md
    one step each; refused ones are skipped, not fatal."""
    require_snapshot(snapshot, root)
    applied: list[Applied] = []
    skipped: list[Skipped] = []
    leaving = {request.file for request in requests}
    with writing(root) as notes:
        batch, singles = _sort_requests(root, requests, skipped)
        if batch:
            done, refused = _withdraw_batch(root, batch, manifest=snapshot.manifest, now=now,
                                            spare=leaving)
            applied += done
            skipped += refused
        for request in singles:
            try:
                applied.append(withdraw_one(root, request, snapshot, now, spare=leaving))
            except StepInterrupted:
                raise  # a step is left in the journal: no further step may start
            except PruneMemoryError as err:
                skipped.append(Skipped(request.file, str(err), int(err.exit_code)))
    return result(root, read_log(root), applied, skipped, notes)


def withdraw_one(root: Path, request: WithdrawRequest, snapshot: Snapshot, now: datetime,
                 inoculation: Inoculation | None = None,
                 spare: set[str] | None = None) -> Applied:
    """One withdrawal (with its inoculation, if any) as a step of its own; the caller
    holds the write session."""
    name = writable(root, request.file)
    step: WithdrawStep | WithdrawLineStep
    if is_index_line(name):
        line = current_line(root, name, request.expected_sha256, snapshot.manifest)
        step = line_step(root, line, read_log_text(root), reason=request.reason,
                         rule=request.rule, memory_class=request.memory_class,
                         manifest=snapshot.manifest, now=now, ino=inoculation)
    else:
        current = read_current(root, name, request.expected_sha256)
        step = topic_step(root, current, read_log_text(root), reason=request.reason,
                          rule=request.rule, memory_class=request.memory_class,
                          manifest=snapshot.manifest, now=now, ino=inoculation,
                          spare=spare if request.unlink else None)
    outcome = carried_out(root, step)
    done = applied_from(outcome, register_id=step.register_id, tombstone=step.tombstone,
                        superseded=step.superseded.file if step.superseded else None,
                        linked=tuple(e.file for e in step.link_edits))
    return with_vault_note(done, step.vault)


# --- What a withdrawal writes, worked out from the disk before anything changes ---------

@dataclass
class Drafting:
    """What withdrawals are worked out against: the register ids in the log, the tombstone
    names in use and the kept files' `[[links]]`. One withdrawal reads these from disk; a
    batch reads them once and carries them from each withdrawal to the next."""

    day: str
    first_number: int  # the register number the next withdrawal gets
    taken: set[str]  # tombstone names in use (`deaccessioned/<name>`)
    links: LinkIndex | None  # None: `[[links]]` in kept files are left alone
    spare: frozenset[str] = frozenset()  # files whose links are left alone (leaving too)
    issued: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, root: Path, log_text: str, now: datetime,
             spare: Collection[str] | None) -> Drafting:
        day = now.date().isoformat()
        number = int(next_register_id_in(log_text, day).rsplit("-", 1)[1])
        taken = {f"{TOMBSTONE_DIR}/{name}" for name in list_names(root / TOMBSTONE_DIR)}
        links = None if spare is None else LinkIndex.read(root)
        return cls(day, number, taken, links, frozenset(spare or ()))

    def register_id(self) -> str:
        """The next register id; each call hands out a new one."""
        self.issued.append(f"{self.day}-{self.first_number + len(self.issued):02d}")
        return self.issued[-1]

    def link_edits(self, names: tuple[str, ...], file: str,
                   register_id: str) -> tuple[LinkEdit, ...]:
        if self.links is None:
            return ()
        return self.links.plan(names, register_id=register_id, spare={*self.spare, file})


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

    def step(self, kind: type[W], manifest: Path, now: datetime, **own: Any) -> W:
        """The step of this withdrawal: the fields every withdrawal records, and its own."""
        return kind(register_id=self.register_id, tombstone=self.tombstone,
                    link_edits=self.link_edits, tombstone_sha256=sha256(self.tombstone_data),
                    superseded=CounterMemory.of(self.superseded) if self.superseded else None,
                    row=self.row.cells(), manifest=str(manifest), date=now.date().isoformat(),
                    vault=str(self.vault) if self.vault else None, **own)


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


def topic_step(root: Path, current: Current, log_text: str, *, reason: str, rule: str,
               memory_class: str | None, manifest: Path, now: datetime,
               ino: Inoculation | None = None,
               spare: Collection[str] | None = None) -> WithdrawStep:
    """The step of one withdrawal of a topic file (with its inoculation, if any)."""
    _, records = index_edit.remove_entry(read_or_none(root / INDEX_FILE) or b"", current.file)
    done = plan_withdrawal(root, current, Drafting.read(root, log_text, now, spare),
                           reason=reason, rule=rule, memory_class=memory_class, now=now,
                           ino=ino, index_lines=records)
    return WithdrawStep.of(current, records, done, manifest, now)


def line_step(root: Path, line: Line, log_text: str, *, reason: str, rule: str,
              memory_class: str | None, manifest: Path, now: datetime,
              ino: Inoculation | None = None) -> WithdrawLineStep:
    """The step of one inline fact's withdrawal (with its inoculation, if any)."""
    said = fact_text(line.text)
    current = Current(file=line.file, raw=line.raw, sha256=sha256(line.raw), description=said,
                      memory_type=None)
    done = plan_withdrawal(root, current, Drafting.read(root, log_text, now, None),
                           reason=reason, rule=rule, memory_class=memory_class, now=now,
                           ino=replace(ino, slug=ino.slug or said) if ino else None,
                           index_lines=(line.record,))
    return done.step(WithdrawLineStep, manifest, now, file=line.file, line=line.text,
                     at=line.at, copies=line.copies, original_sha256=current.sha256,
                     tombstone_data=pack(done.tombstone_data), index_lines=(line.record,))


# --- The steps ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Withdrawn(OneStep):
    """The fields every withdrawal step records."""

    file: str
    original_sha256: str
    register_id: str
    tombstone: str
    tombstone_sha256: str
    row: tuple[str, ...]
    manifest: str
    date: str
    index_lines: tuple[IndexLineRecord, ...] = ()
    superseded: CounterMemory | None = None
    link_edits: tuple[LinkEdit, ...] = ()
    vault: str | None = None

    def _register(self, root: Path) -> None:
        text = add_register_row(read_log_text(root), RegisterRow(*self.row),
                                manifest=self.manifest, date=self.date)
        write_log_text(root, text)


@kind
@dataclass(frozen=True, kw_only=True)
class WithdrawStep(Withdrawn):
    """The withdrawal of one topic file. The record keeps only the tombstone's header, so
    no body (and no secret in one) sits in the journal; a redacted body holds no secret
    and goes in whole (`tombstone_data`, as records before the header-only journal did)."""

    OP: ClassVar[str] = "withdraw"
    tombstone_header: str | None = None
    tombstone_data: str | None = None

    @classmethod
    def of(cls, current: Current, records: tuple[IndexLineRecord, ...], done: Withdrawal,
           manifest: Path, now: datetime) -> WithdrawStep:
        data = done.tombstone_data
        whole = pack(data) if done.vault else None
        header = None if done.vault else pack(data[: len(data) - len(current.raw)])
        return done.step(cls, manifest, now, file=current.file, index_lines=records,
                         original_sha256=current.sha256, tombstone_data=whole,
                         tombstone_header=header)

    def run(self, root: Path) -> StepOutcome:
        self.check_names(root)
        committed = has_register_row(read_log_text(root), self.register_id)
        if not self.tombstone_written(root, committed):
            return self.unwound(root, committed)
        sup = self.superseded
        replacement = sup.index_line if sup else None
        edit_index(root, lambda raw: index_edit.remove_entry(raw, self.file, replacement)[0])
        if not committed:
            self._register(root)
        return self.finish(root)

    def check_names(self, root: Path) -> None:
        for name in (self.file, self.tombstone,
                     *([self.superseded.file] if self.superseded else []),
                     *(edit.file for edit in self.link_edits)):
            inside(root, name)

    def tombstone_written(self, root: Path, committed: bool) -> bool:
        """Write the counter-memory and the tombstone; False when the file changed (or a
        name the step needs is taken) and the withdrawal cannot go on."""
        if sha_or_none(root / self.file) not in (None, self.original_sha256):
            return False
        try:
            if self.superseded:
                ensure_file(root / self.superseded.file, unpack(self.superseded.data))
            ensure_file(root / self.tombstone, tombstone_bytes(root, self))
        except StepConflict:
            if sha_or_none(root / self.file) is None:
                raise  # the file is gone and no tombstone of ours holds it: keep it for a human
            return False
        return True

    def unwound(self, root: Path, committed: bool) -> StepOutcome:
        return self.cancel(root) if committed else self.roll_back(root)

    def finish(self, root: Path) -> StepOutcome:
        """After the commit point: unlink `[[links]]` to it, then remove the original."""
        if sha_or_none(root / self.file) not in (None, self.original_sha256):
            return self.cancel(root)  # changed while we worked: keep the newer text
        edited = [e.file for e in self.link_edits if apply_edit(root, e)]
        remove_if(root / self.file, self.original_sha256)
        said = f"; unlinked the links to it in {', '.join(edited)}" if edited else ""
        return StepOutcome("withdraw", self.file, "done", f"withdrawn as {self.register_id}{said}")

    def roll_back(self, root: Path) -> StepOutcome:
        """Before the commit point: undo what the step wrote; the file keeps its new content."""
        remove_if(root / self.tombstone, self.tombstone_sha256)
        sup = self.superseded
        if sup:
            remove_if(root / sup.file, sup.sha256)
            edit_index(root, lambda raw: _drop_line(raw, sup.index_line))
        edit_index(root, lambda raw: index_edit.restore_lines(raw, self.index_lines))
        return StepOutcome("withdraw", self.file, "rolled-back",
                           f"{self.file} changed after the withdrawal began; the withdrawal "
                           "was undone and the file kept as it is now")

    def cancel(self, root: Path) -> StepOutcome:
        """After the commit point the file changed: keep it, re-index it, put back any links
        unlinked for it, log the cancellation."""
        edit_index(root, lambda raw: index_edit.restore_lines(raw, self.index_lines))
        for edit in self.link_edits:
            revert_edit(root, edit)
        row = ChangeRow(self.date, "withdrawal-cancelled", code_name(self.file),
                        self.register_id, "the file changed during the withdrawal; the newer "
                        f"text was kept, the tombstone {self.tombstone} holds the older one")
        text = read_log_text(root)
        log = parse_log(text)
        if log.restoration(self.register_id) is None and not any(
                c.register_id == self.register_id and c.change == row.change
                for c in log.changes):
            write_log_text(root, add_change_row(text, row))
        return StepOutcome("withdraw", self.file, "cancelled", row.reason)


@kind
@dataclass(frozen=True)
class WithdrawBatch(Step):
    """Many withdrawals of topic files as one step; an entry whose file changed is rolled
    back or cancelled alone, as `WithdrawStep` does; the rest go on."""

    OP: ClassVar[str] = "withdraw-batch"
    file: str  # "<n> entries"
    entries: tuple[WithdrawStep, ...]

    def outcomes(self, root: Path) -> list[StepOutcome]:
        for entry in self.entries:
            if entry.superseded:
                raise ValueError("a batch withdrawal never writes a SUPERSEDED file")
            entry.check_names(root)
        committed = first_cells(read_log_text(root)) & {e.register_id for e in self.entries}
        outcomes: dict[int, StepOutcome] = {}
        going: list[int] = []
        for k, entry in enumerate(self.entries):
            if entry.tombstone_written(root, entry.register_id in committed):
                going.append(k)
            else:
                outcomes[k] = entry.unwound(root, entry.register_id in committed)
        files = [self.entries[k].file for k in going]
        edit_index(root, lambda raw: remove_entries(raw, files)[0])
        rows = [self.entries[k] for k in going if self.entries[k].register_id not in committed]
        if rows:
            text = add_register_rows(read_log_text(root), [RegisterRow(*e.row) for e in rows],
                                     manifest=rows[0].manifest, date=rows[0].date)
            write_log_text(root, text)
        for k in going:
            outcomes[k] = self.entries[k].finish(root)
        return [outcomes[k] for k in range(len(self.entries))]


@kind
@dataclass(frozen=True, kw_only=True)
class WithdrawLineStep(Withdrawn):
    """The withdrawal of a fact written in MEMORY.md: before the commit point the line is
    untouched, so a line someone changed meanwhile rolls the step back; after it, the line
    is taken out."""

    OP: ClassVar[str] = "withdraw-line"
    line: str
    at: int
    copies: int
    tombstone_data: str

    def run(self, root: Path) -> StepOutcome:
        if not has_register_row(read_log_text(root), self.register_id):
            if self._copies(root) < self.copies:
                return self._roll_back(root)  # the line changed before the commit point
            try:
                if self.superseded:
                    ensure_file(root / self.superseded.file, unpack(self.superseded.data))
                ensure_file(root / self.tombstone, unpack(self.tombstone_data))
            except StepConflict:
                return self._roll_back(root)  # the line is still in the index: nothing lost
            self._register(root)
        edit_index(root, self._take_out)
        return StepOutcome("withdraw", self.file, "done", f"withdrawn as {self.register_id}")

    def _take_out(self, raw: bytes) -> bytes:
        replacement = self.superseded.index_line if self.superseded else None
        if index_edit.count_line(raw, self.line) >= self.copies:
            return index_edit.remove_line(raw, self.line, self.at, replacement)
        if replacement is None or index_edit.has_line(raw, replacement):
            return raw
        # The line went some other way after the commit point: keep the counter-memory indexed.
        (record,) = self.index_lines
        return index_edit.restore_lines(raw, [replace(record, text=replacement)])

    def _roll_back(self, root: Path) -> StepOutcome:
        """Before the commit point: remove what the step wrote; the index stays as it is."""
        remove_if(root / self.tombstone, self.tombstone_sha256)
        if self.superseded:
            remove_if(root / self.superseded.file, self.superseded.sha256)
        return StepOutcome("withdraw", self.file, "rolled-back",
                           f"{self.file} changed after the withdrawal began (or a file name it "
                           "needed was taken); the withdrawal was undone and the index left "
                           "as is")

    def _copies(self, root: Path) -> int:
        return index_edit.count_line(read_or_none(root / INDEX_FILE) or b"", self.line)


class Tombstoning(Protocol):
    """A step that writes a tombstone of `file`: what it recorded to write it from."""

    @property
    def file(self) -> str: ...
    @property
    def original_sha256(self) -> str: ...
    @property
    def tombstone(self) -> str: ...
    @property
    def tombstone_sha256(self) -> str: ...
    @property
    def tombstone_header(self) -> str | None: ...
    @property
    def tombstone_data(self) -> str | None: ...
    @property
    def manifest(self) -> str: ...


def tombstone_bytes(root: Path, step: Tombstoning) -> bytes:
    """The recorded header, then the original as its file holds it now (or, when the
    record holds it, the whole tombstone). The original is removed only after its
    tombstone is verified, so it is there whenever this is needed."""
    if step.tombstone_data is not None:
        return unpack(step.tombstone_data)
    written = read_or_none(root / step.tombstone)
    if written is not None and sha256(written) == step.tombstone_sha256:
        return written
    original = read_or_none(root / step.file)
    if original is None or sha256(original) != step.original_sha256:
        raise StepConflict(f"{step.file} disappeared before its tombstone was written; "
                           f"its bytes are in the snapshot {step.manifest}")
    return unpack(step.tombstone_header or "") + original

def _drop_line(raw: bytes, line: str) -> bytes:
    index = index_edit.IndexText.parse(raw)
    if line not in index.lines:
        return raw
    at = index.lines.index(line)
    del index.lines[at]
    del index.eols[at]
    return index.render()


# --- The batch ---------------------------------------------------------------------------

Accepted = tuple[Current, WithdrawRequest]


def _sort_requests(root: Path, requests: Sequence[WithdrawRequest],
                   skipped: list[Skipped]) -> tuple[list[Accepted], list[WithdrawRequest]]:
    """The topic files that may go in the batch (read and checked now), and the requests
    that go one step each (facts in MEMORY.md, withdrawals that leave links alone). A
    refused request is added to `skipped`."""
    protected = protected_in(read_log_text(root))
    batch: list[Accepted] = []
    singles: list[WithdrawRequest] = []
    seen: set[str] = set()
    for request in requests:
        try:
            name = writable(root, request.file, protected)
            if is_index_line(name) or not request.unlink:
                singles.append(request)
            elif name in seen:
                skipped.append(Skipped(name, "listed twice; withdrawn once",
                                       int(ExitCode.REFUSED)))
            else:
                batch.append((read_current(root, name, request.expected_sha256), request))
                seen.add(name)
        except PruneMemoryError as err:
            skipped.append(Skipped(request.file, str(err), int(err.exit_code)))
    return batch, singles


def _withdraw_batch(root: Path, batch: Sequence[Accepted], *, manifest: Path, now: datetime,
                    spare: set[str]) -> tuple[list[Applied], list[Skipped]]:
    """Journal and carry out the batch; what was withdrawn, and what was not."""
    step = batch_step(root, batch, manifest=manifest, now=now, spare=spare)
    applied: list[Applied] = []
    skipped: list[Skipped] = []
    for entry, outcome in zip(step.entries, execute_all(root, step), strict=True):
        if outcome.status == "done":
            done = applied_from(outcome, register_id=entry.register_id,
                                tombstone=entry.tombstone,
                                linked=tuple(e.file for e in entry.link_edits))
            applied.append(with_vault_note(done, entry.vault))
        else:
            skipped.append(Skipped(outcome.file, outcome.message, int(ExitCode.REFUSED)))
    return applied, skipped


def batch_step(root: Path, batch: Sequence[Accepted], *, manifest: Path, now: datetime,
               spare: set[str]) -> WithdrawBatch:
    """The step of the whole batch: one withdrawal of a topic file per entry, in order."""
    _, removed = remove_entries(read_or_none(root / INDEX_FILE) or b"",
                                [current.file for current, _ in batch])
    drafting = Drafting.read(root, read_log_text(root), now, spare)
    entries = []
    for (current, request), records in zip(batch, removed, strict=True):
        done = plan_withdrawal(root, current, drafting, reason=request.reason,
                               rule=request.rule, memory_class=request.memory_class, now=now,
                               ino=None, index_lines=records)
        entries.append(WithdrawStep.of(current, records, done, manifest, now))
    return WithdrawBatch(file=f"{len(entries)} entries", entries=tuple(entries))
