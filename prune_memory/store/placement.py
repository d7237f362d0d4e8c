"""Where a removed index line goes back: reconstructing its place from what tombstones saw.

Each tombstone remembers the lines around each line it removed. Those are facts about
the index's order ("X came before Y") that stay true while other lines come and go, so a
restore picks the place that contradicts the fewest facts — following chains through
lines that are themselves still withdrawn — then the place whose neighbours match best,
then the one nearest the old line number.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import pairwise

from prune_memory.store.tombstone import IndexLineRecord

CONTEXT = 3  # lines remembered on each side of a removed line
_EDGE = "\0edge-of-file"


def position(lines: list[str], record: IndexLineRecord,
             hints: Sequence[IndexLineRecord] = (), depth: int = 0) -> int:
    """The 0-based place at which to insert `record.text` into `lines`."""
    unique = {text for text, n in Counter(lines).items() if n == 1}
    earlier, later = _known_order(record, hints, set(lines) - unique)
    by_text = {hint.text: hint for hint in hints}
    beside = _vouched(lines, record, hints) | _beside_gone(lines, record, hints, depth)
    gone_then = {hint.text for hint in hints if _earlier(hint.seq, record.seq)}

    def rank(at: int) -> tuple[int, int, int, int]:
        wrong = sum(1 for ln in lines[:at] if ln in unique and ln in later) + \
            sum(1 for ln in lines[at:] if ln in unique and ln in earlier)
        return (wrong, -int(at in beside), -_score(lines, at, record, by_text, gone_then),
                abs(at - record.at))

    return min(range(len(lines) + 1), key=lambda at: (rank(at), at))


def _beside_gone(lines: list[str], record: IndexLineRecord,
                 hints: Sequence[IndexLineRecord], depth: int) -> set[int]:
    """When the line right above (or below) ours is withdrawn too, ours goes where that
    one would go back."""
    if depth >= 4:
        return set()
    present = set(lines)
    places: set[int] = set()
    for neighbour in (record.prev[:1], record.next[:1]):
        text = neighbour[0] if neighbour else None
        hint = next((h for h in hints if h.text == text), None)
        if text is None or text in present or hint is None:
            continue
        others = [*(h for h in hints if h.text != text), record]  # ours is gone too
        places.add(position(lines, hint, others, depth + 1))
    return places


def _known_order(record: IndexLineRecord, hints: Sequence[IndexLineRecord],
                 repeated: set[str]) -> tuple[set[str], set[str]]:
    """Texts known to come before, and after, `record.text` (transitively). Lines that
    repeat (blank lines, a heading used twice) say nothing about order and are skipped."""
    chains = [[*reversed(rec.prev), rec.text, *rec.next] for rec in (record, *hints)]
    for chain in chains:
        repeated |= {text for text, n in Counter(chain).items() if n > 1}
    after: defaultdict[str, set[str]] = defaultdict(set)  # text → texts right after it
    for chain in chains:
        kept = [text for text in chain if text not in repeated]
        for first, second in pairwise(kept):
            after[first].add(second)
    before: defaultdict[str, set[str]] = defaultdict(set)
    for first, seconds in after.items():
        for second in seconds:
            before[second].add(first)
    return _reach(before, record.text), _reach(after, record.text)


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
             hints: Sequence[IndexLineRecord]) -> set[int]:
    """Places another tombstone vouches for: it saw our line k lines from its own, and
    the k lines in between are still the ones it saw."""
    places: set[int] = set()
    by_text = {hint.text: hint for hint in hints}
    for at, line in enumerate(lines):
        hint = by_text.get(line)
        if hint is None:
            continue
        for k, text in enumerate(hint.next):
            if text == record.text and lines[at + 1:at + 1 + k] == list(hint.next[:k]):
                places.add(at + 1 + k)
        for k, text in enumerate(hint.prev):
            if text == record.text and lines[max(0, at - k):at][::-1] == list(hint.prev[:k]):
                places.add(at - k)
    return places


def _score(lines: list[str], at: int, record: IndexLineRecord, hints: dict[str, IndexLineRecord],
           gone_then: set[str]) -> int:
    gone_now = set(hints) - set(lines)
    unseen = gone_then - set(record.prev) - set(record.next)
    above = [*reversed(lines[:at]), _EDGE]
    below = [*lines[at:], _EDGE]
    return (_matched(above, _expected(record, hints, gone_now, up=True), unseen)
            + _matched(below, _expected(record, hints, gone_now, up=False), unseen))


def _expected(record: IndexLineRecord, hints: dict[str, IndexLineRecord], gone_now: set[str],
              *, up: bool) -> list[str]:
    """The remembered lines on one side, without those withdrawn since; when the last one
    is gone, its own tombstone's memory carries on (so an edge two entries away is seen)."""
    items = list(record.prev if up else record.next)
    edge = len(items) < CONTEXT
    out: list[str] = []
    for _ in range(8):  # a few hops through withdrawn neighbours
        for text in items:
            if text not in gone_now:
                out.append(text)
        last = items[-1] if items else None
        if edge or last not in gone_now or last not in hints:
            break
        items = list(hints[last].prev if up else hints[last].next)
        edge = len(items) < CONTEXT
    return [*out, _EDGE] if edge else out


def _matched(actual: list[str], wanted: list[str], unseen: set[str]) -> int:
    """How many remembered lines agree, nearest first; reaching the file's edge counts once.
    A present line that was withdrawn when the record was made (`unseen`) is stepped over."""
    count, i, j = 0, 0, 0
    while i < len(actual) and j < len(wanted):
        if actual[i] in unseen:
            i += 1
        elif actual[i] == wanted[j]:
            count += 1
            if actual[i] == _EDGE:
                break
            i, j = i + 1, j + 1
        else:
            break
    return count


def _earlier(first: str, second: str) -> bool:
    """Was the withdrawal `first` made before `second`? Unknown order counts as no."""
    if not first or not second:
        return False
    return _seq_key(first) < _seq_key(second)


def _seq_key(seq: str) -> tuple[str, int]:
    head, _, tail = seq.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (seq, 0)
