"""text helpers: sentences across soft wraps, corrections applied once, case matching."""

from __future__ import annotations

import pytest

from prune_memory.analysis.text import match_case, mentions_change, parse_number, sentences
from prune_memory.evidence.probes.base import Correction, apply_corrections


def test_sentences_join_wrapped_lines_but_not_list_items() -> None:
    text = "One sentence wraps\nonto the next line. Two.\n- item one\n- item two\n"
    assert list(sentences(text)) == ["One sentence wraps onto the next line.", "Two.",
                                     "- item one", "- item two"]


def test_corrections_apply_once_and_only_to_standalone_text() -> None:
    text = "Use `a.py` not a.pyc or lib/a.py; then a.py again. b.py → a.py."
    fixes = [Correction("a.py", "b.py"), Correction("b.py", "c.py")]
    assert apply_corrections(text, fixes) == \
        "Use `b.py` not a.pyc or lib/a.py; then b.py again. c.py → b.py."


def test_match_case_and_numbers() -> None:
    assert [match_case(w, "vitest") for w in ("Jest", "JEST", "jest")] == \
        ["Vitest", "VITEST", "vitest"]
    assert (parse_number("1,200"), parse_number("twelve"), parse_number("many")) == \
        (1200, 12, None)


@pytest.mark.parametrize(("sentence", "tells"), [
    ("`cache.py` used to live in src/ before the split.", True),
    ("The flag we used to pass is gone.", True),
    ("Implemented in `parsers/interior.ts`; used to filter placements.", False),
    ("The key is used to sign every upload.", False),
    ("Used to filter the grid before collisions.", False),
])
def test_used_to_tells_a_change_only_as_a_past_habit(sentence: str, tells: bool) -> None:
    assert mentions_change(sentence) is tells


@pytest.mark.parametrize(("sentence", "tells"), [
    ("Bootstrap is out of the markup; its files in `wwwroot/lib/` are all видалено now.", True),
    ("Файл перейменовано в `session.py`.", True),
    ("Старый модуль удалили в июле.", True),
    ("Код удалён вместе с тестами.", True),
    ("Деплой идёт на удалённый сервер.", False),  # "remote", not "removed"
    ("Обидва хости беруть конфіг з `config.yaml`.", False),
])
def test_a_change_told_in_ukrainian_or_russian(sentence: str, tells: bool) -> None:
    assert mentions_change(sentence) is tells
