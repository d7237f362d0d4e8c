"""What the lint reads of one entry or record, how a store record becomes one, and what a
check finds in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from prune_memory.analysis.hygiene import allowed_labels
from prune_memory.jsonstore.records import StoreRecord
from prune_memory.model import JSON
from prune_memory.secrets.base import SecretHit
from prune_memory.secrets.pii import find_pii
from prune_memory.secrets.scan import find_secrets, without_allowed

_STORE_NOT_SCANNED = frozenset({"id", "allow_secret", "created_at", "updated_at", "created",
                                "updated", "last_recalled_at", "recall_count", "pinned",
                                "importance", "trust", "type"})


class LintCheck(StrEnum):
    NO_PROVENANCE = "no-provenance"
    STALE = "stale"
    SECRET = "secret"
    POISON = "poison"
    DUPLICATE = "duplicate"
    OVER_CAP = "over-cap"
    PII = "pii"
    MALFORMED = "malformed"


@dataclass(frozen=True)
class Violation:
    check: LintCheck
    item: str
    message: str
    evidence: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"check": self.check.value, "item": self.item, "message": self.message,
                "evidence": self.evidence}


@dataclass(frozen=True)
class LintItem:
    """One entry or record, reduced to what the checks read."""

    id: str
    text: str  # what the memory says (description and body, or the record's text)
    body: str  # what duplicates are compared on (frontmatter-free)
    meta: JSON
    memory_type: str | None
    written: datetime | None
    written_from: str
    secrets: tuple[tuple[str, SecretHit], ...] = ()
    pii: tuple[SecretHit, ...] = ()


def store_item(record: StoreRecord) -> LintItem:
    """A store record as the lint reads it: text, dates, secrets and personal data."""
    meta = record.raw
    written, written_from = next(((getattr(record, name), _spelled(meta, name))
                                  for name in ("updated_at", "created_at")
                                  if getattr(record, name) is not None), (None, ""))
    found = [("text", hit) for hit in find_secrets(record.text)]
    found += [(key, hit) for key, value in meta.items()
              if key not in _STORE_NOT_SCANNED and key != "text" and isinstance(value, str)
              for hit in find_secrets(value)]
    kept = set(without_allowed((hit for _, hit in found), allowed_labels(meta)))
    kind = meta.get("type")
    return LintItem(id=record.id, text=record.text, body=record.text, meta=meta,
                    memory_type=str(kind).lower() if kind is not None else None,
                    written=written, written_from=written_from,
                    secrets=tuple((part, hit) for part, hit in found if hit in kept),
                    pii=find_pii(record.text))


def _spelled(meta: JSON, name: str) -> str:
    """The field as the store spells it (`updated` or `updated_at`), for messages."""
    short = name.removesuffix("_at")
    return short if name not in meta and short in meta else name
