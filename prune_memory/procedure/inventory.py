"""Step 1 as a table: every entry with its class, age, size and access frequency."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from prune_memory.analysis.access import Access, estimate_access
from prune_memory.analysis.classify import Classification, classify
from prune_memory.model import JSON, Entry, MemoryDir


@dataclass(frozen=True)
class InventoryRow:
    entry: Entry
    classification: Classification
    age_days: int
    age_source: str
    access: Access

    def to_json(self) -> JSON:
        e = self.entry
        return {"file": e.file, "kind": e.kind.value, "name": e.name,
                "memory_type": e.memory_type, **self.classification.to_json(),
                "age_days": self.age_days, "age_source": self.age_source, "size": e.size,
                "indexed": e.indexed, "access": self.access.to_json()}


@dataclass(frozen=True)
class Inventory:
    memdir: MemoryDir
    rows: tuple[InventoryRow, ...]

    def class_counts(self) -> dict[str, int]:
        counts = Counter(r.classification.cls.value for r in self.rows)
        return dict(sorted(counts.items()))

    def to_json(self) -> JSON:
        index = self.memdir.index
        return {
            "memory_dir": str(self.memdir.root),
            "entries": [r.to_json() for r in self.rows],
            "totals": {"entries": len(self.rows), "bytes": sum(r.entry.size for r in self.rows),
                       "by_class": self.class_counts()},
            "index": index.cap.to_json() if index else None,
            "errors": [e.to_json() for e in self.memdir.errors],
        }


def take_inventory(memdir: MemoryDir, now: datetime,
                   reads: Mapping[str, Access] | None = None) -> Inventory:
    """Classify every entry and label its age and access (measured reads when given)."""
    rows = []
    for entry in memdir.entries:
        written, source = entry.written_at
        access = (reads or {}).get(entry.file) or estimate_access(entry, memdir)
        rows.append(InventoryRow(entry, classify(entry), max((now - written).days, 0),
                                 source, access))
    return Inventory(memdir, tuple(rows))
