"""How often a memory is read: measured by the read hook, otherwise an honest estimate."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from prune_memory.model import JSON, Entry, EntryKind, Index, MemoryDir


@dataclass(frozen=True)
class Access:
    """`reads` is None unless a read counter measured it; `label` says which it is."""

    reads: int | None
    measured: bool
    label: str
    sessions: int | None = None
    since: str | None = None
    last: str | None = None  # ISO time of the newest measured read

    @property
    def last_read(self) -> datetime | None:
        return datetime.fromisoformat(self.last) if self.last else None

    def to_json(self) -> JSON:
        out: JSON = {"reads": self.reads, "measured": self.measured, "label": self.label}
        if self.measured:
            out.update({"sessions": self.sessions, "since": self.since, "last": self.last})
        return out


def estimate_access(entry: Entry, memdir: MemoryDir) -> Access:
    """No read counter: say only what the index guarantees, and call it an estimate."""
    if entry.kind is EntryKind.INDEX_LINE:
        loaded = _line_loaded(memdir, entry.index_lines)
        label = ("in the index text: read every session" if loaded
                 else "past the load cap: never read")
    elif not entry.indexed:
        label = "not in the index: only found by searching"
    elif _line_loaded(memdir, entry.index_lines):
        label = "index line read every session; body reads unknown"
    else:
        label = "index line past the load cap: rarely if ever read"
    return Access(reads=None, measured=False, label=f"estimate: {label}")


def _line_loaded(memdir: MemoryDir, numbers: tuple[int, ...]) -> bool:
    if memdir.index is None:
        return False
    return not _loaded_lines(memdir.index).isdisjoint(numbers)


_LOADED: list[tuple[Index, frozenset[int]]] = []


def _loaded_lines(index: Index) -> frozenset[int]:
    """Numbers of the loaded index lines, kept for the last index seen: an inventory asks
    once per entry, and rebuilding the set each time made it quadratic."""
    last = _LOADED[0] if _LOADED else None  # one read: another thread may replace it
    if last is None or last[0] is not index:
        last = (index, frozenset(ln.number for ln in index.lines if ln.loaded))
        _LOADED[:] = [last]
    return last[1]
