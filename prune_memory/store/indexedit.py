"""Edit MEMORY.md one line at a time: every byte of the lines not edited stays as it was.

Line endings (LF or CRLF, per line), a missing final newline and a UTF-8 BOM all survive
an edit, and removing lines then putting them back gives the original bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prune_memory.errors import RefusedError
from prune_memory.store.indexlinks import linking_lines
from prune_memory.store.tombstone import IndexLineRecord

BOM = "\ufeff"


@dataclass
class IndexText:
    """The index as lines without their endings, the endings, and the BOM if there was one."""

    bom: str
    lines: list[str]
    eols: list[str]

    @classmethod
    def parse(cls, raw: bytes) -> IndexText:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RefusedError(f"MEMORY.md is not valid UTF-8 (byte {err.start}); "
                               "not editing it") from err
        bom = BOM if text.startswith(BOM) else ""
        lines: list[str] = []
        eols: list[str] = []
        for piece in text[len(bom):].split("\n"):
            lines.append(piece[:-1] if piece.endswith("\r") else piece)
            eols.append("\r\n" if piece.endswith("\r") else "\n")
        if lines[-1] == "" and eols[-1] == "\n":
            lines.pop()  # the text ended with a newline: no line after it
            eols.pop()
        else:
            lines[-1] += "\r" if eols[-1] == "\r\n" else ""
            eols[-1] = ""
        return cls(bom=bom, lines=lines, eols=eols)

    def render(self) -> bytes:
        body = "".join(line + eol for line, eol in zip(self.lines, self.eols, strict=True))
        return (self.bom + body).encode("utf-8")

    def insert(self, at: int, line: str, eol: str) -> None:
        """Insert one line at position `at`, keeping a missing final newline missing."""
        if at == len(self.lines) and self.lines and self.eols[-1] == "":
            self.eols[-1] = eol or "\n"
            eol = ""
        elif not eol:
            eol = self._neighbour_eol(at)
        self.lines.insert(at, line)
        self.eols.insert(at, eol)

    def _neighbour_eol(self, at: int) -> str:
        for pos in (at - 1, at):
            if 0 <= pos < len(self.eols) and self.eols[pos]:
                return self.eols[pos]
        return "\n"


def links_file(raw: bytes, file: str) -> bool:
    return bool(linking_lines(IndexText.parse(raw).lines, file))


def has_line(raw: bytes, text: str) -> bool:
    return text in IndexText.parse(raw).lines


def remove_entry(raw: bytes, file: str,
                 replacement: str | None = None) -> tuple[bytes, tuple[IndexLineRecord, ...]]:
    """Drop the lines linking `file` (putting `replacement` where the first one was)."""
    index = IndexText.parse(raw)
    doomed = linking_lines(index.lines, file)
    records = [_record(index, n) for n in doomed]
    first_eol = index.eols[doomed[0]] if doomed else "\n"
    for n in reversed(doomed):
        del index.lines[n]
        del index.eols[n]
    if doomed and records[-1].eol == "" and index.lines and doomed[-1] >= len(index.lines):
        # The last line had no newline: the line now last gives up its own, and the
        # record keeps it so a restore can hand it back.
        moved = index.eols[-1]
        index.eols[-1] = ""
        records[-1] = IndexLineRecord(records[-1].text, moved, records[-1].after,
                                      records[-1].before)
    if replacement is not None and not has_line_in(index, replacement):
        at = doomed[0] if doomed else len(index.lines)
        index.insert(at, replacement, first_eol if doomed else "")
    return index.render(), tuple(records)


def insert_after_entry(raw: bytes, file: str, line: str) -> bytes:
    """Add `line` just after the last line linking `file` (at the end if none does)."""
    index = IndexText.parse(raw)
    if line in index.lines:
        return raw
    linked = linking_lines(index.lines, file)
    at = linked[-1] + 1 if linked else len(index.lines)
    index.insert(at, line, index.eols[linked[-1]] if linked else "")
    return index.render()


def restore_lines(raw: bytes, records: Sequence[IndexLineRecord],
                  hints: Sequence[IndexLineRecord] = ()) -> bytes:
    """Put removed lines back where they were; lines already present are left alone."""
    index = IndexText.parse(raw)
    for record in records:
        if record.text in index.lines:
            continue
        index.insert(_position(index.lines, record, hints), record.text, record.eol)
    return index.render()


def has_line_in(index: IndexText, text: str) -> bool:
    return text in index.lines


def _record(index: IndexText, n: int) -> IndexLineRecord:
    return IndexLineRecord(
        text=index.lines[n], eol=index.eols[n],
        after=index.lines[n - 1] if n > 0 else None,
        before=index.lines[n + 1] if n + 1 < len(index.lines) else None,
    )


def _position(lines: list[str], record: IndexLineRecord,
              hints: Sequence[IndexLineRecord]) -> int:
    """Where a removed line goes: between its old neighbours, else next to the line
    another tombstone says it sat beside, else after its old predecessor, else the end."""
    for at in range(len(lines) + 1):
        before_ok = at == 0 if record.after is None else at > 0 and lines[at - 1] == record.after
        after_ok = (at == len(lines) if record.before is None
                    else at < len(lines) and lines[at] == record.before)
        if before_ok and after_ok:
            return at
    for at, line in enumerate(lines):
        for hint in hints:
            if hint.text == line and hint.after == record.text:
                return at
            if hint.text == line and hint.before == record.text:
                return at + 1
    if record.after is None:
        return 0
    if record.after in lines:
        return lines.index(record.after) + 1
    if record.before is not None and record.before in lines:
        return lines.index(record.before)
    return len(lines)
