"""What every operation reads first: an entry as the disk holds it now, checked against
what the plan saw. A topic file is read whole (`Current`); a fact written straight into
MEMORY.md (`MEMORY.md#L<n>`) is found as its one line (`Line`).

`<n>` counts lines of MEMORY.md as the pass's snapshot holds it (the plan's view). Lines
added or removed around the fact since — by earlier steps of the same batch, say — are
followed; a fact whose own line changed is refused. Nothing is written here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from prune_memory.errors import BadInputError, FileLoadError, RefusedError
from prune_memory.model import INDEX_FILE, OWN_FILES, Entry
from prune_memory.secrets.mask import mask_text
from prune_memory.store import index_edit
from prune_memory.store.files import read_or_none, refuse_link, sha256
from prune_memory.store.frontmatter_parse import memory_type, parse_memory_text
from prune_memory.store.index import index_line_number, inline_facts, parse_index
from prune_memory.store.index_placement import IndexLineRecord
from prune_memory.store.pruninglog import code_name
from prune_memory.store.safe_read import is_member_name
from prune_memory.store.snapshot import read_snapshot_file

NOT_APPLICABLE = "N/A"


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


@dataclass(frozen=True)
class Line:
    """An inline fact as MEMORY.md holds it now: where, how many identical copies, context."""

    file: str
    text: str
    at: int  # 0-based position in MEMORY.md now
    copies: int  # lines with exactly this text in MEMORY.md now
    record: IndexLineRecord

    @property
    def raw(self) -> bytes:
        return (self.text + self.record.eol).encode("utf-8")


def is_index_line(file: str) -> bool:
    return index_line_number(file) is not None


def current_line(root: Path, file: str, expected_sha: str | None, manifest: Path) -> Line:
    """Find the fact the plan saw; RefusedError when its line changed or went away."""
    number = index_line_number(file)
    if number is None:
        raise BadInputError(f"{file} is not an index line id (MEMORY.md#L<n>)")
    refuse_link(root / INDEX_FILE, INDEX_FILE)
    now = read_or_none(root / INDEX_FILE)
    if now is None:
        raise BadInputError(f"{file}: there is no {INDEX_FILE} in {root}")
    planned = read_snapshot_file(manifest.parent, INDEX_FILE) or now
    fact = _facts(planned).get(file)
    if fact is None:
        raise BadInputError(f"{file}: line {number} of {INDEX_FILE} is not an inline fact "
                            "(a list item that links no memory file)")
    if len(fact.index_lines) > 1:
        raise RefusedError(f"{file} spans {len(fact.index_lines)} lines of {INDEX_FILE} (a fact "
                           "with lines indented under it); withdraw it by editing the index")
    if expected_sha is not None and fact.sha256 != expected_sha:
        raise RefusedError(f"{file} changed since the plan (sha256 {expected_sha[:12]}… is now "
                           f"{fact.sha256[:12]}…); skipped")
    old, current = _lines(planned), index_edit.IndexText.parse(now)
    at = index_edit.map_line(old, current.lines, number - 1)
    text = old[number - 1]
    if at is None or sha256(text.encode("utf-8")) != fact.sha256:
        raise RefusedError(f"{file} changed since the plan: its line is no longer in "
                           f"{INDEX_FILE} as it was; skipped")
    return Line(file=file, text=text, at=at, copies=current.lines.count(text),
                record=index_edit.line_record(current, at))


@lru_cache(maxsize=4)
def _lines(raw: bytes) -> list[str]:
    return index_edit.IndexText.parse(raw).lines


@lru_cache(maxsize=4)
def _facts(raw: bytes) -> dict[str, Entry]:
    """The inline facts of one index, as the loader reads them (parsed once per batch)."""
    epoch = datetime.fromtimestamp(0, UTC)
    return {fact.file: fact for fact in inline_facts(parse_index(raw), epoch)}
