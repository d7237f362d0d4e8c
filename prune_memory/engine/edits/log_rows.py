"""Edit the text of `pruning-log.md`: add rows and protected lines, never rewrite old rows.

Every function takes the current text and returns the new text; the caller writes it with
`atomic_write`. Lines are spliced, each keeping its own ending (CR, CRLF, LF) and
characters: hand edits — a BOM, a form feed, U+2028, bytes that are not UTF-8 (carried as
surrogate escapes by the caller) — come out exactly as they went in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prune_memory.resources import read_template
from prune_memory.secrets.mask import mask_text
from prune_memory.store.lineends import split_ends, usual_end
from prune_memory.store.logtable import render_header, render_row
from prune_memory.store.pruninglog import (
    AUDIT_HEADING,
    CHANGE_COLUMNS,
    CHANGES_HEADING,
    PROTECTED_HEADING,
    REGISTER_COLUMNS,
    REGISTER_HEADING,
    ChangeRow,
    RegisterRow,
    parse_protected_line,
)

_HEADING = re.compile(r"^(#{1,3})\s")
_FIELD = re.compile(r"^\s*[-*+]\s+(?P<key>[^:]+?):")
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
    return next((n for n in range(start + 1, len(lines)) if _HEADING.match(lines[n])),
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
