"""Where a removed index line goes back: the record a tombstone keeps of each line it
removed (`IndexLineRecord`), and its place reconstructed from what tombstones saw.

Each tombstone remembers the lines around each line it removed. Those are facts about
the index's order ("X came before Y") that stay true while other lines come and go, so a
restore picks the place that contradicts the fewest facts — following chains through
lines that are themselves still withdrawn — then the place whose neighbours match best,
then the one nearest the old line number."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from prune_memory.model import JSON

CONTEXT = 3  # non-blank lines remembered on each side of a removed line
_EDGE = "\0edge-of-file"


@dataclass(frozen=True)
class IndexLineRecord:
    """One removed index line: its text and line ending, the lines around it at the time
    (nearest first: `prev` above, `next` below, each up to the third line that was unique
    in the index; `*_edge` when the file ended first) and its 0-based line number then."""

    text: str
    eol: str
    prev: tuple[str, ...] = ()
    next: tuple[str, ...] = ()
    at: int = 0
    prev_edge: bool = False
    next_edge: bool = False
    seq: str = ""  # register id of the withdrawal, filled in when read from a tombstone
    under: str = ""  # for a sub-item that left with its pointer: that pointer line

    def to_json(self) -> JSON:
        data: JSON = {"line": self.text, "eol": self.eol, "prev": list(self.prev),
                                "next": list(self.next), "at": self.at}
        data.update({key: True for key in ("prev_edge", "next_edge") if getattr(self, key)})
        if self.seq:
            data["seq"] = self.seq
        if self.under:
            data["under"] = self.under
        return data

    @classmethod
    def from_json(cls, data: JSON) -> IndexLineRecord:
        return cls(text=str(data["line"]), eol=str(data.get("eol", "\n")),
                   prev=tuple(str(x) for x in data.get("prev") or ()),
                   next=tuple(str(x) for x in data.get("next") or ()),
                   at=int(data.get("at") or 0), prev_edge=bool(data.get("prev_edge")),
                   next_edge=bool(data.get("next_edge")), seq=str(data.get("seq") or ""),
                   under=str(data.get("under") or ""))


def context(lines: Iterable[str], counts: Counter[str]) -> tuple[tuple[str, ...], bool]:
    """The lines next to a removed one, nearest first, up to the third that is unique in
    the index, and whether the file ended first. Blank and repeated lines ride along
    without counting: alone they cannot say where a line was, but how many of them sit
    between it and a unique line can."""
    kept: list[str] = []
    solid = 0
    for line in lines:
        kept.append(line)
        solid += counts[line] == 1 and bool(line.strip())
        if solid == CONTEXT:
            return tuple(kept), False
    return tuple(kept), True


@dataclass(frozen=True)
class _Scene:
    """What every placement decision in one restore shares: the index as it is now and
    the order facts from every record, ours and the other tombstones'."""

    lines: list[str]
    unique: set[str]
    records: dict[str, IndexLineRecord]
    after: dict[str, set[str]]  # text → texts known to come right after it
    before: dict[str, set[str]]
    blind: frozenset[str]  # texts that may be a copy in a code block: no neighbour match


def position(lines: list[str], record: IndexLineRecord,
             hints: Sequence[IndexLineRecord] = (), ambiguous: Collection[str] = (),
             blind: Collection[str] = ()) -> int:
    """The 0-based place at which to insert `record.text` into `lines`. Texts in
    `ambiguous` may name different lines in different records: they give no order facts;
    those in `blind` may not be the line a record saw at all: they match no neighbour."""
    return _place(_scene(lines, [record, *hints], ambiguous, blind), record, frozenset())


def _scene(lines: list[str], records: list[IndexLineRecord],
           ambiguous: Collection[str] = (), blind: Collection[str] = ()) -> _Scene:
    counts = Counter(lines)
    unique = {text for text, n in counts.items() if n == 1}
    # Lines that repeat (blank lines, a heading used twice) say nothing about order.
    repeated = (set(counts) - unique) | set(ambiguous)
    chains = [[*reversed(rec.prev), rec.text, *rec.next] for rec in records]
    for chain in chains:
        repeated |= {text for text, n in Counter(chain).items() if n > 1}
    after: defaultdict[str, set[str]] = defaultdict(set)
    before: defaultdict[str, set[str]] = defaultdict(set)
    for chain in chains:
        for first, second in pairwise(t for t in chain if t not in repeated):
            after[first].add(second)
            before[second].add(first)
    return _Scene(lines, unique, {r.text: r for r in records}, after, before,
                  frozenset(blind))


def _place(scene: _Scene, record: IndexLineRecord, visiting: frozenset[str]) -> int:
    lines, unique = scene.lines, scene.unique
    earlier, later = _reach(scene.before, record.text), _reach(scene.after, record.text)
    by_text = {text: rec for text, rec in scene.records.items() if text != record.text}
    beside = _vouched(lines, record, by_text) | _beside_gone(scene, record, visiting)
    gone_now = set(by_text) - set(lines)
    unseen = {rec.text for rec in by_text.values() if _earlier(rec.seq, record.seq)} - \
        set(record.prev) - set(record.next)
    above = _expected(record, by_text, gone_now, up=True)
    below = _expected(record, by_text, gone_now, up=False)
    # wrong[at]: order facts broken by inserting at `at` (later lines above, earlier below)
    wrong = [sum(1 for ln in lines if ln in unique and ln in earlier)]
    for line in lines:
        known = line in unique
        wrong.append(wrong[-1] + (known and line in later) - (known and line in earlier))

    def rank(at: int) -> tuple[int, int, int, int, int]:
        score = _matched(lines, at - 1, -1, above, unseen, scene.blind) + \
            _matched(lines, at, 1, below, unseen, scene.blind)
        return (wrong[at], -int(at in beside), -score, abs(at - record.at), at)

    return min(range(len(lines) + 1), key=rank)


def _beside_gone(scene: _Scene, record: IndexLineRecord, visiting: frozenset[str]) -> set[int]:
    """When the line right next to ours (by our memory or by its own) is withdrawn too,
    ours goes where that one would go back — judged without asking us in turn."""
    visiting = visiting | {record.text}
    if len(visiting) > 4:
        return set()
    present = set(scene.lines)
    neighbours = {*record.prev[:1], *record.next[:1]}
    places: set[int] = set()
    for text, other in scene.records.items():
        if text in present or text in visiting:
            continue
        if text in neighbours or record.text in (*other.prev[:1], *other.next[:1]):
            places.add(_place(scene, other, visiting))
    return places


def _reach(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(edges.get(start, ()))
    while todo:
        text = todo.pop()
        if text not in seen and text != start:
            seen.add(text)
            todo.extend(edges.get(text, ()))
    return seen


def _vouched(lines: list[str], record: IndexLineRecord,
             by_text: dict[str, IndexLineRecord]) -> set[int]:
    """Places another tombstone vouches for: it saw our line k lines from its own, and
    the k lines in between are still the ones it saw."""
    places: set[int] = set()
    for at, line in enumerate(lines):
        hint = by_text.get(line)
        if hint is None or (record.text not in hint.next and record.text not in hint.prev):
            continue
        for k, text in enumerate(hint.next):
            if text == record.text and lines[at + 1:at + 1 + k] == list(hint.next[:k]):
                places.add(at + 1 + k)
        for k, text in enumerate(hint.prev):
            if text == record.text and lines[max(0, at - k):at][::-1] == list(hint.prev[:k]):
                places.add(at - k)
    return places


def _expected(record: IndexLineRecord, hints: dict[str, IndexLineRecord], gone_now: set[str],
              *, up: bool) -> list[str]:
    """The remembered lines on one side, without those withdrawn since; when the last one
    is gone, its own tombstone's memory carries on (so an edge two entries away is seen)."""
    items = list(record.prev if up else record.next)
    edge = record.prev_edge if up else record.next_edge
    out: list[str] = []
    for _ in range(8):  # a few hops through withdrawn neighbours
        for text in items:
            if text not in gone_now:
                out.append(text)
        last = items[-1] if items else None
        if edge or last not in gone_now or last not in hints:
            break
        hop = hints[last]
        items, edge = (list(hop.prev), hop.prev_edge) if up else (list(hop.next), hop.next_edge)
    return [*out, _EDGE] if edge else out


def _matched(lines: list[str], start: int, step: int, wanted: list[str],
             unseen: set[str], blind: frozenset[str] = frozenset()) -> int:
    """How many remembered lines agree walking from `start` by `step`, nearest first;
    reaching the file's edge counts once. A present line that was withdrawn when the
    record was made (`unseen`) is stepped over; one that may be a copy (`blind`) ends it."""
    count, i, j = 0, start, 0
    while j < len(wanted):
        have = lines[i] if 0 <= i < len(lines) else _EDGE
        if have != _EDGE and have in unseen:
            i += step
            continue
        if have != wanted[j] or have in blind:
            break
        count += 1
        if have == _EDGE:
            break
        i, j = i + step, j + 1
    return count


def _earlier(first: str, second: str) -> bool:
    """Was the withdrawal `first` made before `second`? Unknown order counts as no."""
    if not first or not second:
        return False
    return _seq_key(first) < _seq_key(second)


def _seq_key(seq: str) -> tuple[str, int]:
    head, _, tail = seq.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (seq, 0)
