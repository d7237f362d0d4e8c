"""Read `pruning-log.md`: the protected list, the audits with their registers, the change rows.

The file is plain markdown that people also edit by hand, so parsing is forgiving: a
protected line may have backticks or not, a date or not. Writing lives in `logedit.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from prune_memory.model import LOG_FILE
from prune_memory.store.lineends import bare_lines
from prune_memory.store.logtable import name_from_code, split_row
from prune_memory.store.safe_read import read_regular

PROTECTED_HEADING = "## Protected"
CHANGES_HEADING = "## Changes"
REGISTER_HEADING = "#### Deaccession register"
REGISTER_COLUMNS = ("register_id", "Entry (summary)", "Type", "Reason", "Tombstone",
                    "superseded_by")
CHANGE_COLUMNS = ("date", "change", "entry", "register_id", "reason")
AUDIT_HEADING = re.compile(r"^###\s+(\d{4}-\d{2}-\d{2})\s+Audit\s*$")
REGISTER_ID = re.compile(r"^(\d{4}-\d{2}-\d{2})-(\d{2,})$")
_HEADING = re.compile(r"^(#{1,6})\s")
_BULLET = re.compile(r"^\s*[-*+]\s+(?P<item>.+?)\s*$")
_FIELD = re.compile(r"^\s*[-*+]\s+(?P<key>[^:]+?):\s*(?P<value>.*?)\s*$")
_DATE_TAIL = re.compile(
    r"\s*\((?:(?:protected|flagged)\s+(?:on\s+)?)?(\d{4}-\d{2}-\d{2})\)\s*$")
_LINK = re.compile(r"^\[[^\]]*\]\((?P<target>[^)]+)\)")
_SEPARATORS = "—–-:"


@dataclass(frozen=True)
class ProtectedItem:
    file: str
    reason: str
    since: str | None
    line: int  # 0-based line in the log


@dataclass(frozen=True)
class RegisterRow:
    register_id: str
    entry: str
    type: str
    reason: str
    tombstone: str
    superseded_by: str
    manifest: str | None = None  # the snapshot manifest of the audit the row sits in

    @property
    def file(self) -> str | None:
        """The entry's file name when the summary starts with it in backticks."""
        found = re.match(r"^`([^`]+)`", self.entry)
        return name_from_code(found.group(1)) if found else None

    def cells(self) -> tuple[str, ...]:
        return (self.register_id, self.entry, self.type, self.reason, self.tombstone,
                self.superseded_by)


@dataclass(frozen=True)
class ChangeRow:
    date: str
    change: str
    entry: str
    register_id: str
    reason: str

    def cells(self) -> tuple[str, ...]:
        return (self.date, self.change, self.entry, self.register_id, self.reason)


@dataclass(frozen=True)
class Audit:
    date: str
    fields: dict[str, str]
    rows: tuple[RegisterRow, ...]

    @property
    def manifest(self) -> str | None:
        return self.fields.get("Snapshot manifest")


@dataclass(frozen=True)
class PruningLog:
    protected: tuple[ProtectedItem, ...] = ()
    audits: tuple[Audit, ...] = ()
    changes: tuple[ChangeRow, ...] = ()
    text: str = field(default="", repr=False)

    @property
    def rows(self) -> tuple[RegisterRow, ...]:
        return tuple(row for audit in self.audits for row in audit.rows)

    def row(self, register_id: str) -> RegisterRow | None:
        return next((r for r in self.rows if r.register_id == register_id), None)

    def is_protected(self, file: str) -> bool:
        return any(item.file == file for item in self.protected)

    def restoration(self, register_id: str) -> ChangeRow | None:
        return next((c for c in self.changes
                     if c.change == "restored" and c.register_id == register_id), None)

    def audit_for(self, manifest: str) -> Audit | None:
        return next((a for a in self.audits if a.manifest == manifest), None)


def log_path(root: Path) -> Path:
    return root / LOG_FILE


def read_log(root: Path) -> PruningLog:
    """The parsed pruning log of `root`; an empty log when the file does not exist yet, or
    is a symlink (never followed: the loader reports it, and every write refuses)."""
    try:
        raw = read_regular(log_path(root))
    except OSError:  # missing, a symlink (ELOOP), a FIFO or folder: nothing of ours to read
        return PruningLog()
    return parse_log(raw.decode("utf-8", errors="replace"))


@lru_cache(maxsize=8)
def parse_log(text: str) -> PruningLog:
    """Parse the markdown of a pruning log (see DESIGN §5). Cached: a batch reads the
    same text several times per step, and the records are frozen."""
    lines = bare_lines(text.removeprefix("\ufeff"))
    protected: list[ProtectedItem] = []
    audits: list[Audit] = []
    changes: list[ChangeRow] = []
    for start, end in _sections(lines):
        heading = lines[start].strip()
        body = range(start + 1, end)
        if heading == PROTECTED_HEADING:
            protected.extend(protected_items(lines, body))
        elif heading == CHANGES_HEADING:
            changes.extend(ChangeRow(*cells) for cells in _table(lines, body, CHANGE_COLUMNS))
        elif found := AUDIT_HEADING.match(heading):
            audits.append(_audit(found.group(1), [lines[n] for n in body]))
    return PruningLog(tuple(protected), tuple(audits), tuple(changes), text)


def _sections(lines: list[str]) -> list[tuple[int, int]]:
    """(heading line, end) for every heading of level 2 or 3; level 4 stays inside."""
    starts = [n for n, ln in enumerate(lines)
              if (m := _HEADING.match(ln)) and len(m.group(1)) in (1, 2, 3)]
    return [(s, starts[i + 1] if i + 1 < len(starts) else len(lines))
            for i, s in enumerate(starts)]


def protected_items(lines: list[str], body: range) -> list[ProtectedItem]:
    found: list[ProtectedItem] = []
    for number in body:
        item = parse_protected_line(lines[number])
        if item is not None:
            found.append(ProtectedItem(item[0], item[1], item[2], number))
    return found


def parse_protected_line(line: str) -> tuple[str, str, str | None] | None:
    """(file, reason, date) from `- file.md — reason (protected YYYY-MM-DD)` and its variants."""
    bullet = _BULLET.match(line)
    if bullet is None:
        return None
    item = bullet.group("item")
    since = None
    if dated := _DATE_TAIL.search(item):
        since, item = dated.group(1), item[:dated.start()]
    if item.startswith("`"):
        close = item.find("`", 1)
        file, rest = (item[1:close], item[close + 1:]) if close > 0 else (item.strip("`"), "")
    elif link := _LINK.match(item):
        file, rest = link.group("target"), item[link.end():]
    else:
        file, _, rest = item.partition(" ")
        if file.endswith(":"):
            file, rest = file[:-1], ":" + rest
    file = file.strip().removeprefix("./")
    reason = rest.strip().lstrip(_SEPARATORS).strip()
    return (file, reason, since) if file else None


def _audit(date: str, body: list[str]) -> Audit:
    fields: dict[str, str] = {}
    rows: list[RegisterRow] = []
    in_register = False
    for line in body:
        if line.strip() == REGISTER_HEADING:
            in_register = True
        elif not in_register and (found := _FIELD.match(line)):
            fields.setdefault(found.group("key").strip(), found.group("value"))
    register = [n for n, ln in enumerate(body) if ln.strip() == REGISTER_HEADING]
    if register:
        table = _table(body, range(register[0] + 1, len(body)), REGISTER_COLUMNS)
        manifest = fields.get("Snapshot manifest")
        rows = [RegisterRow(*cells[:6], manifest=manifest) for cells in table]  # type: ignore[misc]
    return Audit(date=date, fields=fields, rows=tuple(rows))


def _table(lines: list[str], body: range, columns: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Data rows of the first table in `body` padded or cut to `columns`; header skipped."""
    header = [c.lower() for c in columns]
    rows: list[tuple[str, ...]] = []
    started = False
    for number in body:
        line = lines[number].strip()
        if not line.startswith("|"):
            if started:
                break
            continue
        started = True
        cells = split_row(line)
        if ("---" in line and _is_rule(cells)) or [c.lower() for c in cells] == header:
            continue
        rows.append(tuple((cells + [""] * len(columns))[:len(columns)]))
    return rows


def _is_rule(cells: list[str]) -> bool:
    return bool(cells) and all(re.fullmatch(r":?-{1,}:?", c.strip()) for c in cells)


def register_ids(log: PruningLog) -> list[str]:
    """Every register id the log has ever used (rows and change rows)."""
    seen = [r.register_id for r in log.rows] + [c.register_id for c in log.changes]
    return [rid for rid in seen if REGISTER_ID.match(rid)]


def next_register_id(log: PruningLog, day: str, taken: tuple[str, ...] = ()) -> str:
    """`YYYY-MM-DD-NN`: one past the highest number used on `day` anywhere in the log."""
    numbers = [int(m.group(2)) for rid in (*register_ids(log), *taken)
               if (m := REGISTER_ID.match(rid)) and m.group(1) == day]
    return f"{day}-{max(numbers, default=0) + 1:02d}"


def heading_level(line: str) -> int:
    """How many `#` open a markdown heading line; 0 for any other line."""
    found = _HEADING.match(line)
    return len(found.group(1)) if found else 0
