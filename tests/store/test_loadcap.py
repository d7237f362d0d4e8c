from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.store.index import parse_index
from prune_memory.store.loadcap import measure, utf16_len


def _lines(n: int, width: int = 10) -> str:
    return "".join(f"- {str(i).zfill(width - 2)}\n" for i in range(n))


def test_exactly_200_lines_all_load() -> None:
    view = measure(_lines(200))
    assert view.cap.lines == 200 and view.cap.loaded_lines == 200
    assert view.cap.usage == 1.0 and view.cap.binding_cap == "lines"


def test_line_201_is_cut() -> None:
    view = measure(_lines(201))
    assert view.cap.loaded_lines == 200 and 201 not in view.loaded
    assert view.cap.usage > 1.0


def test_199_lines_over_25000_chars_cut_at_last_newline() -> None:
    text = _lines(199, width=130)  # 199 lines of 130 chars + newline: 25,870 chars
    view = measure(text)
    assert view.cap.lines == 199
    assert view.cap.binding_cap == "chars"
    # line k ends at 131*k - 1; it is kept while that newline index is <= 25,000
    assert view.cap.loaded_lines == 25_000 // 131
    assert max(view.loaded) == 25_000 // 131


def test_utf16_counting_of_multibyte_and_astral_characters() -> None:
    assert utf16_len("é") == 1 and utf16_len("😀") == 2 and utf16_len("漢字") == 2
    line = "- " + "😀" * 100  # 202 UTF-16 units, but 102 code points
    text = (line + "\n") * 130
    view = measure(text)
    assert view.cap.chars == 130 * 202 + 129
    assert view.cap.binding_cap == "chars"
    assert view.cap.loaded_lines == 25_000 // 203


def test_frontmatter_and_html_comments_do_not_count() -> None:
    text = "---\ntitle: x\n---\n<!--\nhidden\nhidden\n-->\n- a\n- b\n"
    view = measure(text)
    assert view.cap.lines == 2 and view.cap.chars == len("- a\n- b")
    assert view.loaded == frozenset({8, 9})


def test_comment_and_frontmatter_lines_leave_room_for_200_real_lines() -> None:
    text = "<!-- note -->\n" + _lines(200)
    view = measure(text)
    assert view.cap.lines == 200 and 201 in view.loaded


def test_unloaded_entries_are_marked_on_index_lines() -> None:
    text = _lines(200) + "- [Late](late_entry.md) — past the cut\n"
    index = parse_index(text.encode())
    late = index.lines[-1]
    assert late.links[0].target == "late_entry.md" and not late.loaded


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
       | st.text(alphabet="a😀é\ud800", max_size=20))
def test_utf16_length_counts_code_units(text: str) -> None:
    assert utf16_len(text) == len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)
