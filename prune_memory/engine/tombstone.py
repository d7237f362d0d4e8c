"""Tombstones: `deaccessioned/<name>.md`, a YAML header (DESIGN §5) then the original bytes.

Beyond the contract fields the header carries `original_file` (the name to restore to,
which differs from the tombstone's own name when that name was used before) and
`index_lines` (the index lines that pointed at the entry, with their neighbours, so
`restore` can put each back where it was). Optional lines follow when they apply: `vault`
(the original held a secret: the body below is redacted and the bytes are in the private
vault), `superseded_sha256` (the counter-memory written with it, so `restore` can take it
away again), `link_edits` (the `[[links]]` unlinked in kept memories, so `restore` can put
them back), and for the earlier version an update replaced, `change: update` with
`updated_sha256` and `index_change`; `index_lines_vault` when an index line or a neighbour
held a secret (the header keeps them masked; the exact records are in the private vault),
and `original_file_vault` when the file's own name holds one (the same, for the name).
The records of every tombstone (restored ones too) are restore's placement hints
(`index_records`): they tell it which lines sat next to which.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from string import Template
from typing import Any

import yaml

from prune_memory.errors import BadInputError
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.resources import read_template
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import file_key, is_link, regular_files
from prune_memory.store.frontmatter_parse import bounded_json
from prune_memory.store.index import index_line_number
from prune_memory.store.index_placement import IndexLineRecord
from prune_memory.store.pruninglog import keeps_exactly
from prune_memory.store.safe_read import NAME_MAX, is_member_name, read_regular
from prune_memory.store.yamlvalue import flow, scalar

CONTRACT_FIELDS = ("name", "description", "deaccessioned_at", "reason", "rule",
                   "superseded_by", "register_id", "original_sha256")
EXTRA_FIELDS = ("original_file", "index_lines")
OPTIONAL_FIELDS = ("vault", "superseded_sha256", "link_edits", "change", "updated_sha256",
                   "index_change", "index_change_vault", "index_lines_vault",
                   "original_file_vault")
_FLOW_FIELDS = ("index_lines", "link_edits", "index_change")
NOT_APPLICABLE = "N/A"


@dataclass(frozen=True)
class TombstoneHeader:
    original_file: str
    deaccessioned_at: datetime
    reason: str
    rule: str
    register_id: str
    original_sha256: str
    superseded_by: str | None = None
    index_lines: tuple[IndexLineRecord, ...] = ()
    extras: tuple[tuple[str, Any], ...] = ()  # OPTIONAL_FIELDS that apply, in that order

    def extra(self, key: str) -> Any:
        return next((value for name, value in self.extras if name == key), None)

    @property
    def vault(self) -> str | None:
        """Where the original bytes are when the body below the header is redacted."""
        value = self.extra("vault")
        return str(value) if value else None

    @property
    def is_update(self) -> bool:
        return bool(self.extra("change") == "update")

    @property
    def name(self) -> str:
        """What recall shows of the tombstone: the stem, any secret in it masked (only
        `original_file` keeps the name exactly, for restore)."""
        return f"withdrawn-{mask_text(Path(tombstone_base(self.original_file)).stem)}"

    @property
    def description(self) -> str:
        day = self.deaccessioned_at.date().isoformat()
        return f"WITHDRAWN {day} — not current memory. {' '.join(self.reason.split())}"

    def fields(self) -> dict[str, str]:
        """Header values in file order, as the strings the file holds."""
        return {
            "name": self.name, "description": self.description,
            "deaccessioned_at": iso_utc(self.deaccessioned_at),
            "reason": " ".join(self.reason.split()), "rule": self.rule,
            "superseded_by": self.superseded_by or NOT_APPLICABLE,
            "register_id": self.register_id, "original_sha256": self.original_sha256,
            "original_file": self.original_file,
        }


@dataclass(frozen=True)
class Tombstone:
    header: TombstoneHeader
    original: bytes
    fields: dict[str, str]


def iso_utc(stamp: datetime) -> str:
    return stamp.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def render_tombstone(header: TombstoneHeader, original: bytes) -> bytes:
    """The tombstone file: header from the template, then `original` byte for byte."""
    values = {key: scalar(value) for key, value in header.fields().items()}
    values["index_lines"] = flow([rec.to_json() for rec in header.index_lines])
    values["extra"] = "".join(
        f"{key}: {flow(value) if key in _FLOW_FIELDS else scalar(str(value))}\n"
        for key in OPTIONAL_FIELDS if (value := header.extra(key)) is not None)
    head = Template(read_template("tombstone.md")).substitute(values)
    return head.encode("utf-8") + original


def parse_tombstone(raw: bytes) -> Tombstone:
    """Split a tombstone into its header and the original bytes; BadInputError if malformed."""
    if not raw.startswith(b"---\n"):
        raise BadInputError("not a tombstone: no YAML header")
    end = raw.find(b"\n---\n", 3)
    if end < 0:
        raise BadInputError("not a tombstone: header never closes")
    try:
        meta = yaml.safe_load(raw[4:end + 1].decode("utf-8"))
        bounded_json(meta, limit=1_000_000)  # alias bombs and deep nesting are refused
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError, ValueError) as err:
        raise BadInputError(f"tombstone header is not valid YAML: {err}") from err
    if not isinstance(meta, dict) or any(key not in meta for key in CONTRACT_FIELDS):
        raise BadInputError("tombstone header lacks the DESIGN §5 fields")
    fields = {str(k): _as_text(v) for k, v in meta.items() if k not in _FLOW_FIELDS}
    original = raw[end + 5:]
    extras = tuple((key, meta[key] if key in _FLOW_FIELDS else fields[key])
                   for key in OPTIONAL_FIELDS if meta.get(key) is not None)
    return Tombstone(header=replace(_header(fields, meta.get("index_lines")), extras=extras),
                     original=original, fields=fields)


def _header(fields: dict[str, str], lines: Any) -> TombstoneHeader:
    stem = fields["name"].removeprefix("withdrawn-")
    superseded = fields["superseded_by"]
    return TombstoneHeader(
        original_file=fields.get("original_file") or f"{stem}.md",
        deaccessioned_at=datetime.fromisoformat(fields["deaccessioned_at"].replace("Z", "+00:00")),
        reason=fields["reason"], rule=fields["rule"], register_id=fields["register_id"],
        original_sha256=fields["original_sha256"],
        superseded_by=None if superseded == NOT_APPLICABLE else superseded,
        index_lines=tuple(IndexLineRecord.from_json(item) for item in lines or []
                          if isinstance(item, dict)),
    )


def tombstone_base(original_file: str) -> str:
    """The file name a tombstone is named after: an inline fact `MEMORY.md#L21` becomes
    `MEMORY.md-L21.md` (no `#` in a file name, and still a `.md` file)."""
    if index_line_number(original_file) is not None:
        return original_file.replace("#", "-") + ".md"
    return original_file


def tombstone_name(original_file: str, taken: set[str], register_id: str, *,
                   numbered: bool = False) -> str:
    """`deaccessioned/<name>`, or `<stem>.<register id>.md` when that name is already used,
    or when the name would not survive the register's Tombstone column as it is (runs of
    white space, line breaks, anything unprintable) or carries a secret: then the stem is
    masked and every such character becomes `_`. The header keeps the exact name."""
    base = tombstone_base(original_file)
    plain = f"{TOMBSTONE_DIR}/{base}"
    if not numbered and plain not in taken and keeps_exactly(base) and mask_text(base) == base:
        return plain
    tail = f".{register_id}.md"  # unique with the register id; the stem is cut to fit
    stem = "".join(c if keeps_exactly(c) or c == " " else "_"
                   for c in mask_text(Path(base).stem))
    stem = stem if keeps_exactly(stem) else stem.replace(" ", "_")
    room = NAME_MAX - len(tail.encode("utf-8"))
    cut = stem.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return f"{TOMBSTONE_DIR}/{cut}{tail}"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _as_text(value: Any) -> str:
    if isinstance(value, datetime):
        return iso_utc(value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


def read_tombstone(root: Path, rel: str) -> Tombstone | None:
    """The tombstone at `rel` under `root`, or None when it is missing or unreadable.

    `rel` comes from the pruning log, which people edit: anything but a plain file directly
    in a real `deaccessioned/` folder is never opened.
    """
    folder, _, name = rel.partition("/")
    path = root / rel
    if folder != TOMBSTONE_DIR or not is_member_name(name) or is_link(root / TOMBSTONE_DIR):
        return None
    try:
        return parse_tombstone(read_regular(path))
    except (OSError, BadInputError, ValueError, KeyError):
        return None


def index_records(root: Path, skip: str = "") -> list[IndexLineRecord]:
    """The index-line records of every tombstone (restored ones too): restore's placement hints."""
    found: list[IndexLineRecord] = []
    for path in regular_files(root / TOMBSTONE_DIR, ".md"):
        rel = f"{TOMBSTONE_DIR}/{path.name}"
        if rel == skip:
            continue
        quick = _cached_records(path)
        if quick is None:
            stone = read_tombstone(root, rel)
            quick = [] if stone is None else [replace(rec, seq=stone.header.register_id)
                                              for rec in stone.header.index_lines]
        found.extend(quick)
    return found


_RECORDS: dict[tuple[str, int, int, int], list[IndexLineRecord] | None] = {}


def _cached_records(path: Path) -> list[IndexLineRecord] | None:
    """`_quick_records` of a tombstone, kept while the file is unchanged (a pass that
    restores several entries reads the same few hundred headers each time)."""
    key = file_key(path)
    if key not in _RECORDS:
        try:
            _RECORDS[key] = _quick_records(read_regular(path))
        except OSError:
            return None
    return _RECORDS[key]


def _quick_records(raw: bytes) -> list[IndexLineRecord] | None:
    """The records straight from the two header lines that hold them (we write
    `index_lines` as JSON on one line); None sends the caller to the full YAML parse."""
    end = raw.find(b"\n---\n", 3)
    if not raw.startswith(b"---\n") or end < 0:
        return None
    fields = dict(line.partition(": ")[::2] for line in
                  raw[4:end].decode("utf-8", "replace").splitlines())
    register_id, lines = fields.get("register_id", ""), fields.get("index_lines")
    if lines is None or not re.fullmatch(r"\d{4}-\d{2}-\d{2}-\d+", register_id):
        return None
    try:
        items = json.loads(lines)
    except ValueError:
        return None
    return [replace(IndexLineRecord.from_json(item), seq=register_id) for item in items
            if isinstance(item, dict)]
