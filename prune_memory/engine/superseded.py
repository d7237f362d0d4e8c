"""SUPERSEDED counter-memories: `superseded_<slug>.md`, kept in retrieval to stop re-derivation."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from string import Template

import yaml

from prune_memory.engine.journal import pack
from prune_memory.errors import BadInputError
from prune_memory.plan import Inoculation
from prune_memory.resources import read_template
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import list_names, sha256
from prune_memory.store.yamlvalue import scalar

FIELDS = ("Pattern", "Period", "Evidence", "Abandonment reason", "Do not re-derive from",
          "Supersedes")
_STAMP = re.compile(r"^SUPERSEDED\s+(\d{4}-\d{2}-\d{2})\s*$")


@dataclass(frozen=True)
class Superseded:
    slug: str
    date: str
    pattern: str
    period: str
    evidence: str
    abandonment_reason: str
    do_not_rederive: str
    supersedes: str

    @property
    def file(self) -> str:
        return superseded_file(self.slug)

    @property
    def name(self) -> str:
        return f"superseded-{self.slug}"

    @property
    def description(self) -> str:
        return f"Counter-memory preventing re-derivation of {_one_line(self.pattern)}"

    def values(self) -> tuple[str, ...]:
        return (self.pattern, self.period, self.evidence, self.abandonment_reason,
                self.do_not_rederive, self.supersedes)

    def index_line(self) -> str:
        """The MEMORY.md line that makes the counter-memory reachable: one link, to it,
        whatever the fields hold (markdown that could open, close or add a link is defused)."""
        title = _inert(_shorten(self.pattern, 60))
        hook = _inert(_shorten(self.do_not_rederive, 90))
        return f"- [SUPERSEDED: {title}]({self.file}) — do not re-derive from: {hook}"


# Characters that could end the link text early, start another link, a code span, an
# escape or inline HTML; each becomes a look-alike that means nothing to markdown.
_INERT = str.maketrans({"[": "(", "]": ")", "`": "'", "\\": "/", "<": "‹", ">": "›"})


def _inert(text: str) -> str:
    return text.translate(_INERT)


def superseded_file(slug: str) -> str:
    return f"superseded_{slug}.md"


def slugify(text: str) -> str:
    """Lower-case words joined by `-`, at most 48 characters."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    slug = "-".join(words)[:48].strip("-")
    return slug or "entry"


def free_slug(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`… when a file with that slug already exists."""
    slug, n = base, 1
    while superseded_file(slug) in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


def render_superseded(record: Superseded) -> bytes:
    values = {
        "name": scalar(record.name), "description": scalar(record.description),
        "date": record.date,
        **{key: _one_line(value) for key, value in zip(_KEYS, record.values(), strict=True)},
    }
    return Template(read_template("superseded.md")).substitute(values).encode("utf-8")


def parse_superseded(raw: bytes) -> Superseded:
    """Read a counter-memory back into its fields; BadInputError when one is missing."""
    text = raw.decode("utf-8")
    if not text.startswith("---\n") or (end := text.find("\n---\n", 3)) < 0:
        raise BadInputError("not a SUPERSEDED file: no frontmatter")
    meta = yaml.safe_load(text[4:end + 1]) or {}
    if not isinstance(meta, dict) or meta.get("type") != "superseded":
        raise BadInputError("not a SUPERSEDED file: type is not `superseded`")
    body = text[end + 5:].splitlines()
    stamp = next((m.group(1) for ln in body if (m := _STAMP.match(ln))), None)
    found = {key: value.strip() for ln in body
             for key, sep, value in [ln.partition(": ")] if sep and key in FIELDS}
    missing = [key for key in FIELDS if key not in found]
    if stamp is None or missing:
        raise BadInputError(f"SUPERSEDED file lacks: {', '.join(missing) or 'its date line'}")
    slug = str(meta.get("name", "")).removeprefix("superseded-")
    return Superseded(slug, stamp, *(found[key] for key in FIELDS))


_KEYS = ("pattern", "period", "evidence", "abandonment_reason", "do_not_rederive", "supersedes")


def _one_line(text: str) -> str:
    """One line of plain text: control characters (NUL, escapes…) become spaces."""
    return " ".join("".join(" " if unicodedata.category(ch) == "Cc" else ch
                            for ch in text).split())


def _shorten(text: str, limit: int) -> str:
    flat = _one_line(text)
    return flat if len(flat) <= limit else flat[:limit - 1].rstrip() + "…"


def superseded_record(root: Path, base: str, ino: Inoculation, now: datetime,
                      supersedes: str) -> Superseded:
    """The counter-memory for `base` with a slug no existing file uses."""
    for field, value in (("pattern", ino.pattern), ("evidence", ino.evidence),
                         ("reason", ino.abandonment_reason),
                         ("do-not-rederive", ino.do_not_rederive)):
        if not value.strip():
            raise BadInputError(f"inoculate needs a non-empty --{field}")
    taken = list_names(root)
    slug = free_slug(slugify(mask_text(ino.slug or Path(base).stem)), taken)
    day = now.date().isoformat()
    # The counter-memory is loaded like any memory: nothing in it may carry a secret.
    return Superseded(slug=slug, date=day, pattern=mask_text(ino.pattern),
                      period=mask_text(ino.period or f"unknown to {day}"),
                      evidence=mask_text(ino.evidence),
                      abandonment_reason=mask_text(ino.abandonment_reason),
                      do_not_rederive=mask_text(ino.do_not_rederive),
                      supersedes=mask_text(supersedes))


@dataclass(frozen=True)
class CounterMemory:
    """A counter-memory as a step records it: the bytes to write (packed) and the index
    line that reaches it; a restore's step records only the name and the hash."""

    file: str
    sha256: str = ""
    data: str = ""
    index_line: str = ""

    @classmethod
    def of(cls, record: Superseded) -> CounterMemory:
        data = render_superseded(record)
        return cls(file=record.file, sha256=sha256(data), data=pack(data),
                   index_line=record.index_line())
