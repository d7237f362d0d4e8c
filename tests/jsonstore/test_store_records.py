from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.errors import BadInputError
from prune_memory.jsonstore.records import load_store


def _write(tmp_path: Path, text: str, name: str = "s.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_jsonl_with_blank_lines_and_optional_fields(tmp_path: Path) -> None:
    path = _write(tmp_path, '\n{"id": "a", "text": "x", "created_at": "2026-01-02", "extra": 1}\n\n'
                            '{"id": "b", "text": "y", "updated_at": "2026-02-01T10:00:00Z",'
                            ' "recall_count": "3", "pinned": "true", "key": "k"}\n')
    first, second = load_store(path)
    assert first.created_at == datetime(2026, 1, 2, tzinfo=UTC) and first.raw["extra"] == 1
    assert (first.recall_count, first.pinned, first.key, first.line) == (0, False, None, 2)
    assert second.updated_at == datetime(2026, 2, 1, 10, tzinfo=UTC)
    assert (second.recall_count, second.pinned, second.key) == (3, True, "k")


def test_json_list_with_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes('\ufeff[{"id": "a", "text": "x", "created_at": "2026-01-02"}]'.encode())
    assert [r.id for r in load_store(path)] == ["a"]


@pytest.mark.parametrize(("text", "message"), [
    ('{"id": "a", "text": "x", "created_at": "2026-01-01"}\nnot json\n', "line 2 is not JSON"),
    ('{"text": "x", "created_at": "2026-01-01"}\n', "`id` must be a non-empty string"),
    ('{"id": "a", "text": 5, "created_at": "2026-01-01"}\n', "`text` must be a string"),
    ('{"id": "a", "text": "x"}\n', "needs `created_at`"),
    ('{"id": "a", "text": "x", "created_at": "soon"}\n', "not an ISO 8601 date"),
    ('{"id": "a", "text": "x", "created_at": "2026-01-01", "recall_count": -1}\n', "recall_count"),
    ('{"id": "a", "text": "x", "created_at": "2026-01-01", "pinned": "maybe"}\n', "pinned"),
    ('{"id": "a", "text": "x", "created_at": "2026-01-01", "key": 3}\n', "`key`"),
    ('[1, 2]', "not a JSON object"),
    ('{"id": "a", "text": "x", "created_at": "2026-01-01"}\n'
     '{"id": "a", "text": "y", "created_at": "2026-01-01"}\n', "appears twice"),
    ('[{"id": "a",', "invalid JSON"),
    ('5', "line 1: not a JSON object"),
])
def test_unusable_records_are_bad_input(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(BadInputError, match=message) as caught:
        load_store(_write(tmp_path, text))
    assert "\n" not in str(caught.value)


def test_missing_or_unreadable_store(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="store not found"):
        load_store(tmp_path / "absent.jsonl")
    with pytest.raises(BadInputError, match="not a file"):
        load_store(tmp_path)
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(BadInputError, match="not UTF-8"):
        load_store(binary)
