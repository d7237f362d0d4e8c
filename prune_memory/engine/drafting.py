"""What withdrawals are worked out against: the register ids in the log, the tombstone names
in use and the kept files' `[[links]]`. One withdrawal reads these from disk; a batch reads
them once and carries them from each withdrawal to the next, as if the ones before it were
done — which is what keeps a batch linear in the size of the directory."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prune_memory.engine.edits.wikilinks import LinkEdit, LinkIndex
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.store.files import list_names
from prune_memory.store.logscan import next_register_id_in


@dataclass
class Drafting:
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
