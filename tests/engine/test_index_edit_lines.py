"""Line-level edits for inline index facts: find a planned line again, take it out, put it back."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from prune_memory.engine.tombstone import TombstoneHeader, tombstone_name
from prune_memory.store import index_edit
from prune_memory.store.index import index_line_number
from prune_memory.store.index_placement import IndexLineRecord


@pytest.mark.parametrize(("old", "new", "at", "expected"), [
    ("AXB", "AXB", 1, 1),
    ("AXB", "AB", 2, 1),  # a line above was taken out
    ("AXB", "QAXB", 1, 2),  # a line was added above
    ("AXB", "AYB", 1, None),  # our line was changed
    ("AXB", "AB", 1, None),  # our line was taken out
    ("XX", "X", 1, 0),  # an identical neighbour went first: the copy left can be ours
    ("AXBXC", "ABXC", 3, 2),
    ("AXBXC", "ABXC", 1, None),
    ("AXBXC", "QAXBXC", 3, 4),
    ("AB", "AB", 5, None),
])
def test_map_line(old: str, new: str, at: int, expected: int | None) -> None:
    assert index_edit.map_line(list(old), list(new), at) == expected


def test_remove_line_takes_the_copy_nearest_its_place() -> None:
    raw = b"- same\n- other\n- same\n- same"
    assert index_edit.remove_line(raw, "- same", 2) == b"- same\n- other\n- same"
    assert index_edit.remove_line(raw, "- same", 3) == b"- same\n- other\n- same\n"
    assert index_edit.remove_line(raw, "- same", 0) == b"- other\n- same\n- same"
    assert index_edit.remove_line(raw, "- absent", 0) == raw
    assert index_edit.count_line(raw, "- same") == 3


def test_remove_line_can_leave_a_replacement_in_its_place() -> None:
    raw = b"# M\r\n- fact\r\n- [A](a.md)\r\n"
    assert index_edit.remove_line(raw, "- fact", 1, "- [S](superseded_x.md)") == \
        b"# M\r\n- [S](superseded_x.md)\r\n- [A](a.md)\r\n"


def test_insert_line_goes_back_beside_an_identical_copy() -> None:
    raw = b"# M\n- same\n- [A](a.md)\n- same\n"
    index = index_edit.IndexText.parse(raw)
    record = index_edit.line_record(index, 3)
    taken = index_edit.remove_line(raw, "- same", 3)
    assert index_edit.insert_line(taken, record) == raw


REPEATED = ["# M", "", "## A", "- [A](a.md) x"]  # lines that repeat but are never facts


def random_batch(seed: int, pool: list[str]) -> tuple[bytes, bytes, list[IndexLineRecord]]:
    """An index of 30 lines, facts taken out one by one by their planned numbers (as a
    batch does): the index before, the index after, and each removal's record."""
    rng = random.Random(seed)
    lines = [rng.choice(pool) if rng.random() < 0.5 else f"- fact {n}" for n in range(30)]
    eols = [rng.choice(["\n", "\r\n"]) for _ in lines]
    eols[-1] = rng.choice(["", "\n"])
    raw = ("\ufeff" * rng.randint(0, 1) +
           "".join(a + b for a, b in zip(lines, eols, strict=True))).encode()
    planned = index_edit.IndexText.parse(raw).lines
    facts = [n for n, line in enumerate(planned) if line.startswith("- ") and "](" not in line]
    now, records = raw, []
    for k, at in enumerate(rng.sample(facts, min(len(facts), rng.randint(1, 12)))):
        current = index_edit.IndexText.parse(now)
        here = index_edit.map_line(planned, current.lines, at)
        assert here is not None and current.lines[here] == planned[at]
        record = index_edit.line_record(current, here)
        records.append(replace(record, seq=f"2026-11-29-{k + 1:02d}"))
        now = index_edit.remove_line(now, planned[at], here)
    assert len(index_edit.IndexText.parse(now).lines) == len(planned) - len(records)
    return raw, now, records


def put_back(now: bytes, records: list[IndexLineRecord], order: list[IndexLineRecord]) -> bytes:
    restored: set[str] = set()
    for record in order:
        now = index_edit.insert_line(now, record, [r for r in records if r is not record],
                                    restored)
        restored.add(record.seq)
    return now


@pytest.mark.parametrize("seed", range(40))
def test_distinct_facts_come_back_byte_identical_in_any_order(seed: int) -> None:
    raw, now, records = random_batch(seed, REPEATED)
    assert put_back(now, records, records[::-1]) == raw
    assert put_back(now, records, random.Random(seed).sample(records, len(records))) == raw


@pytest.mark.parametrize("seed", range(40))
def test_identical_facts_come_back_byte_identical_in_reverse_order(seed: int) -> None:
    """With copies of one fact in the index, any order brings back the same lines; the
    reverse of the withdrawal order also puts each copy back in its own place."""
    raw, now, records = random_batch(seed, [*REPEATED, "- same", "- same"])
    assert put_back(now, records, records[::-1]) == raw
    shuffled = put_back(now, records, random.Random(seed).sample(records, len(records)))
    assert sorted(shuffled.splitlines()) == sorted(raw.splitlines())


def test_index_line_ids_and_their_tombstone_names() -> None:
    assert index_line_number("MEMORY.md#L21") == 21
    assert index_line_number("./MEMORY.md#L3") == 3
    for other in ("MEMORY.md", "MEMORY.md#L0", "MEMORY.md#L", "x.md#L2", "MEMORY.md#L2x"):
        assert index_line_number(other) is None
    assert tombstone_name("MEMORY.md#L21", set(), "2026-11-29-01") == \
        "deaccessioned/MEMORY.md-L21.md"
    assert tombstone_name("MEMORY.md#L21", {"deaccessioned/MEMORY.md-L21.md"},
                          "2026-11-29-04") == "deaccessioned/MEMORY.md-L21.2026-11-29-04.md"


def test_tombstone_header_name_of_a_fact() -> None:
    from datetime import UTC, datetime

    header = TombstoneHeader("MEMORY.md#L7", datetime(2026, 11, 29, tzinfo=UTC), "why",
                             "1-ephemeral", "2026-11-29-01", "0" * 64,
                             index_lines=(IndexLineRecord(text="- x", eol="\n"),))
    assert header.name == "withdrawn-MEMORY.md-L7"
