"""The seven-record worked example of the original JSONL audit (seed 000), rebuilt from a table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-10-12"
GREEK = "alpha beta gamma delta epsilon zeta eta theta iota"

# id, created, last recalled, recalls, pinned, text
_ROWS: list[tuple[str, str, str | None, int, bool, str]] = [
    ("m1", "2026-10-01", "2026-10-10", 6, False, f"{GREEK} kappa"),
    ("m2", "2026-10-02", None, 0, False, f"{GREEK} kappa"),
    ("m3", "2026-09-20", "2026-10-05", 2, False, f"{GREEK} lambda"),
    ("m4", "2024-01-01", None, 0, False, "Old vendor pricing was forty dollars per seat"),
    ("m5", "2026-08-01", "2026-10-01", 3, False, "The office wifi is not open to guests"),
    ("m6", "2026-09-01", "2026-10-02", 1, False, "The office wifi is open to guests"),
    ("m7", "2024-06-01", None, 0, True, "Pinned safety note keep this record"),
]


def _record(row: tuple[str, str, str | None, int, bool, str]) -> dict[str, Any]:
    rid, created, recalled, recalls, pinned, text = row
    record: dict[str, Any] = {"id": rid, "text": text, "created_at": created,
                              "recall_count": recalls}
    if recalled:
        record["last_recalled_at"] = recalled
    if pinned:
        record["pinned"] = True
    return record


RECORDS = [_record(row) for row in _ROWS]

CHECKS = [
    {"query": "office wifi guests", "expect_id": "m5"},
    {"query": "alpha beta gamma", "expect_id": "m1"},
]
CHECK_ARCHIVED = {"query": "vendor pricing seat", "expect_id": "m4"}


def write_store(path: Path, *, as_list: bool = False) -> Path:
    if as_list:
        path.write_text(json.dumps(RECORDS, indent=1), encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path
