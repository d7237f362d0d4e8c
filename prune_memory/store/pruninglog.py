"""The pruning log, `pruning-log.md`: read it (the protected and flagged lists, the audits
with their registers, the change rows) and append to it (register rows, change rows, audit
fields, list items), as byte-preserving edits of its text.

The file is plain markdown that people also edit by hand, so parsing is forgiving: a
protected line may have backticks or not, a date or not. The questions a write step asks
(the next register id, which ids have rows) are answered from the text in one pass,
without a full parse; table cells are escaped and masked on the way in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from prune_memory.model import LOG_FILE
from prune_memory.resources import read_template
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import read_log_text, write_log_text
from prune_memory.store.lineends import bare_lines, split_ends, usual_end
from prune_memory.store.safe_read import read_regular

_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def cell(text: str) -> str:
    """Text made safe for one table cell: a single line, pipes escaped, and any secret
    masked (the log sits in the memory directory: nothing written there carries one)."""
    return mask_text(" ".join(text.split())).replace("|", "\\|")


def render_row(cells: tuple[str, ...] | list[str]) -> str:
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def render_header(columns: tuple[str, ...]) -> list[str]:
    return [render_row(columns), "|" + "---|" * len(columns)]


def split_row(line: str) -> list[str]:
    """Cells of one `| a | b |` line, unescaped and trimmed."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [part.strip().replace("\\|", "|") for part in _UNESCAPED_PIPE.split(inner)]


def keeps_exactly(text: str) -> bool:
    """True when a table cell (and a pair of backticks) hold `text` exactly as it is."""
    return text == " ".join(text.split()) and text.isprintable() and "`" not in text \
        and not text.startswith('"')


def code_name(name: str) -> str:
    """A file name in backticks for a log row. A name a cell would change — runs of spaces,
    tabs, line or page breaks, a backtick, anything unprintable — is written as a JSON
    string (every such character escaped), so the name reads back exactly."""
    if keeps_exactly(name):
        return f"`{name}`"
    quoted = json.dumps(name).replace(" ", "\\u0020").replace("`", "\\u0060")
    return f"`{quoted}`"


def name_from_code(text: str) -> str:
    """The file name `code_name` wrote (between the backticks)."""
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        try:
            name = json.loads(text)
        except ValueError:
            return text
        return name if isinstance(name, str) else text
    return text


_ROW_ID = re.compile(r"^[ \t]*\|[ \t]*(\d{4}-\d{2}-\d{2})-(\d{2,})[ \t]*\|", re.MULTILINE)


def next_register_id_in(text: str, day: str) -> str:
    """`next_register_id` straight from the log's text: cheap enough to call every step."""
    numbers = [int(m.group(2)) for m in _ROW_ID.finditer(_lf(text)) if m.group(1) == day]
    return f"{day}-{max(numbers, default=0) + 1:02d}"


def first_cells(text: str) -> set[str]:
    """The first cell of every table row in the log: with `has_register_row`'s reading, the
    register ids a batch of steps asks about, in one pass over the text."""
    return {m.group(1) for m in _FIRST_CELL.finditer(_lf(text))}


_FIRST_CELL = re.compile(r"^[ \t]*\|[ \t]*([^|\n]*?)[ \t]*\|", re.MULTILINE)


def has_register_row(text: str, register_id: str) -> bool:
    pattern = rf"^[ \t]*\|[ \t]*{re.escape(register_id)}[ \t]*\|"
    return re.search(pattern, _lf(text), re.MULTILINE) is not None


def _lf(text: str) -> str:
    """`text` with CR and CRLF line ends read as LF, for the line-anchored searches."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def protected_in(text: str) -> tuple[ProtectedItem, ...]:
    """Just the `## Protected` list (the check every write makes first)."""
    return listed_in(text, PROTECTED_HEADING)


def flagged_items(text: str) -> dict[str, ProtectedItem]:
    """The `## Flagged` list by file."""
    return {item.file: item for item in listed_in(text, FLAGGED_HEADING)}


def listed_in(text: str, heading: str) -> tuple[ProtectedItem, ...]:
    """The `- file — reason (date)` items under a level-2 `heading` (Protected, Flagged)."""
    lines = bare_lines(text.removeprefix("\ufeff"))
    start = next((n for n, ln in enumerate(lines) if ln.strip() == heading), None)
    if start is None:
        return ()
    end = next((n for n in range(start + 1, len(lines))
                if 0 < heading_level(lines[n]) <= 3), len(lines))
    return tuple(protected_items(lines, range(start + 1, end)))


PROTECTED_HEADING = "## Protected"
FLAGGED_HEADING = "## Flagged"
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


_SECTION_START = re.compile(r"^(#{1,3})\s")  # a heading that ends a section of the log
AUDIT_FIELDS = ("Entries audited", "Entries withdrawn", "Entries updated", "Snapshot manifest",
                "Staleness found", "Fidelity failures", "Protected")


def new_log_text() -> str:
    return read_template("pruning-log.md")


def add_register_row(text: str, row: RegisterRow, *, manifest: str, date: str) -> str:
    """Append `row` to the register of the audit that used `manifest`, opening it if needed."""
    return add_register_rows(text, [row], manifest=manifest, date=date)


def add_register_rows(text: str, rows: Sequence[RegisterRow], *, manifest: str,
                      date: str) -> str:
    """Append `rows`, in order, to the register of the audit that used `manifest`."""
    bom, lines, eol = _split(text)
    lines, start = _open_audit(lines, manifest, date, eol)
    end = _section_end(lines, start)
    heading = next((n for n in range(start, end) if lines[n].strip() == REGISTER_HEADING), None)
    if heading is None:
        lines[end:end] = _new(eol, "", REGISTER_HEADING, *render_header(REGISTER_COLUMNS))
        heading, end = end + 1, end + 3
    _insert_row(lines, heading + 1, end, [render_row(row.cells()) for row in rows],
                REGISTER_COLUMNS, eol)
    return _join(bom, lines, eol)


def set_audit_fields(text: str, *, manifest: str, date: str,
                     fields: list[tuple[str, str]]) -> str:
    """Give the audit of `manifest` these summary bullets (in order); register rows untouched."""
    bom, lines, eol = _split(text)
    lines, start = _open_audit(lines, manifest, date, eol)
    end = _section_end(lines, start)
    register = next((n for n in range(start, end) if lines[n].strip() == REGISTER_HEADING), end)
    keys = {key for key, _ in fields}
    kept = [ln for ln in lines[start + 1:register]
            if not ((m := _FIELD.match(ln)) and m.group("key").strip() in keys)]
    bullets = _new(eol, *(f"- {key}: {mask_text(' '.join(value.split()))}"
                          for key, value in fields))
    body = bullets + [ln for ln in kept if ln.strip()]
    tail = _new(eol, "") if register < end or end < len(lines) else []
    lines[start + 1:register] = body + tail
    return _join(bom, lines, eol)


def add_protected(text: str, file: str, reason: str, date: str) -> str:
    """Add `file` to the `## Protected` list."""
    return add_listed(text, PROTECTED_HEADING, file, reason, f"protected {date}")


def remove_protected(text: str, file: str) -> str:
    """Drop every `## Protected` line naming `file`."""
    return remove_listed(text, PROTECTED_HEADING, file)


def add_listed(text: str, heading: str, file: str, reason: str, stamp: str) -> str:
    """Add `- `file` — reason (stamp)` to the list under `heading`, opened before `## Changes`."""
    bom, lines, eol = _split(text)
    start = _ensure_section(lines, heading, before=CHANGES_HEADING, eol=eol)
    end = _section_end(lines, start)
    last = max((n for n in range(start + 1, end) if parse_protected_line(lines[n])),
               default=start)
    reason_text = mask_text(" ".join(reason.split())) or "no reason given"
    lines[last + 1:last + 1] = _new(eol, f"- `{file}` — {reason_text} ({stamp})")
    return _join(bom, lines, eol)


def remove_listed(text: str, heading: str, file: str) -> str:
    """Drop every line of the list under `heading` that names `file`."""
    bom, lines, eol = _split(text)
    start = _find(lines, heading)
    if start is None:
        return text
    end = _section_end(lines, start)
    keep = [n for n in range(start + 1, end)
            if (item := parse_protected_line(lines[n])) is None or item[0] != file]
    lines[start + 1:end] = [lines[n] for n in keep]
    return _join(bom, lines, eol)


def add_change_row(text: str, row: ChangeRow) -> str:
    """Append a protection change, restoration, inoculation or update to `## Changes`."""
    return add_change_rows(text, [row])


def add_change_rows(text: str, rows: Sequence[ChangeRow]) -> str:
    """Append `rows`, in order, to `## Changes` (one reading of the log for all of them)."""
    bom, lines, eol = _split(text)
    start = _ensure_section(lines, CHANGES_HEADING, before=None, eol=eol)
    end = _section_end(lines, start)
    _insert_row(lines, start + 1, end, [render_row(row.cells()) for row in rows],
                CHANGE_COLUMNS, eol)
    return _join(bom, lines, eol)


def contains_row(text: str, cells: tuple[str, ...]) -> bool:
    """True when this exact row is already in the log (used to keep steps idempotent)."""
    rendered = render_row(cells)
    return any(line.strip() == rendered for line in split_ends(text)[0])


def _insert_row(lines: list[str], first: int, end: int, rows: list[str],
                columns: tuple[str, ...], eol: str) -> None:
    table = next((n for n in range(first, end) if lines[n].lstrip().startswith("|")), None)
    if table is None:
        lines[first:first] = _new(eol, *render_header(columns), *rows)
        return
    last = table
    while last + 1 < end and lines[last + 1].lstrip().startswith("|"):
        last += 1
    lines[last + 1:last + 1] = _new(eol, *rows)


def _ensure_section(lines: list[str], heading: str, before: str | None, eol: str) -> int:
    found = _find(lines, heading)
    if found is not None:
        return found
    anchor = _find(lines, before) if before else None
    if anchor is None:
        anchor = next((n for n, ln in enumerate(lines) if AUDIT_HEADING.match(ln.strip())),
                      len(lines))
    if heading == CHANGES_HEADING:
        block = [heading, *render_header(CHANGE_COLUMNS), ""]
    else:
        block = [heading, ""]
    gap = anchor > 0 and bool(lines[anchor - 1].strip())
    lines[anchor:anchor] = _new(eol, *([""] if gap else []), *block)
    return anchor + gap


def _open_audit(lines: list[str], manifest: str, date: str,
                eol: str) -> tuple[list[str], int]:
    """The audit section of `manifest`, appended (with an empty register) if there is none.
    The lines before it are left as they are, trailing blank lines included."""
    start = _audit_start(lines, manifest)
    if start is not None:
        return lines, start
    gap = [""] if lines and lines[-1].strip() else []
    opened = _new(eol, *gap, f"### {date} Audit", f"- Snapshot manifest: {manifest}", "",
                  REGISTER_HEADING, *render_header(REGISTER_COLUMNS))
    return [*lines, *opened], len(lines) + len(gap)


def _audit_start(lines: list[str], manifest: str) -> int | None:
    for n, line in enumerate(lines):
        if AUDIT_HEADING.match(line.strip()):
            end = _section_end(lines, n)
            wanted = f"Snapshot manifest: {manifest}"
            if any(ln.strip().lstrip("-*+ ").strip() == wanted for ln in lines[n + 1:end]):
                return n
    return None


def _section_end(lines: list[str], start: int) -> int:
    return next((n for n in range(start + 1, len(lines)) if _SECTION_START.match(lines[n])),
                len(lines))


def _find(lines: list[str], heading: str) -> int | None:
    return next((n for n, ln in enumerate(lines) if ln.strip() == heading), None)


def _split(text: str) -> tuple[str, list[str], str]:
    """The BOM (kept apart so headings still match), the lines each with its own ending,
    and the ending new lines get."""
    if not text.strip():
        text = new_log_text()
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    bare, ends = split_ends(text[len(bom):])
    return bom, [line + end for line, end in zip(bare, ends, strict=True)], usual_end(ends)


def _new(eol: str, *lines: str) -> list[str]:
    return [line + eol for line in lines]


def _join(bom: str, lines: list[str], eol: str) -> str:
    """The text again; a line that had no ending gets one only when a line now follows."""
    return bom + "".join(line if line.endswith(("\n", "\r")) or n == len(lines) - 1
                         else line + eol for n, line in enumerate(lines))


def log_once(root: Path, cells: tuple[str, ...]) -> None:
    """Append a change row, unless one with exactly these cells is there (a step run again)."""
    text = read_log_text(root)
    if not contains_row(text, tuple(cells)):
        write_log_text(root, add_change_row(text, ChangeRow(*cells)))
