from __future__ import annotations

from prune_memory.model import LinkKind
from prune_memory.store.index import parse_index
from prune_memory.store.links import find_links


def test_inline_reference_and_wiki_links() -> None:
    text = "- [A](a.md) and [B][b] and [[c-name]]\n\n[b]: b.md\n"
    links = find_links(text)
    assert [(lk.target, lk.kind) for lk in links] == [
        ("a.md", LinkKind.INLINE), ("b.md", LinkKind.REFERENCE), ("c-name", LinkKind.WIKI)]


def test_percent_encoded_and_angle_bracket_hrefs_decode() -> None:
    links = find_links("[x](my%20notes.md) [y](<other file.md>) [z](./dot.md#part)")
    assert [lk.target for lk in links] == ["my notes.md", "other file.md", "dot.md"]


def test_links_in_code_are_ignored() -> None:
    text = "`[a](a.md)`\n\n```\n[b](b.md)\n```\n\n    [c](c.md)\n"
    assert find_links(text) == ()


def test_escaping_and_external_targets_are_marked() -> None:
    links = {lk.target: lk for lk in find_links(
        "[a](../a.md) [b](/etc/passwd) [c](https://e.org/x) [d](sub/../../d.md)")}
    assert links["../a.md"].escapes and links["/etc/passwd"].escapes
    assert links["https://e.org/x"].external and not links["https://e.org/x"].escapes
    assert links["sub/../../d.md"].escapes


def test_line_numbers_follow_soft_breaks() -> None:
    links = find_links("intro\n[a](a.md) first\nsecond [b](b.md)\n")
    assert [(lk.target, lk.line) for lk in links] == [("a.md", 2), ("b.md", 3)]


def test_index_sections_and_items() -> None:
    index = parse_index(b"# Memory\n## Project\n- [A](a.md) \xe2\x80\x94 hook\n## User\n- fact\n")
    by_no = {ln.number: ln for ln in index.lines}
    assert by_no[3].section == "Project" and by_no[3].is_item
    assert by_no[5].section == "User" and by_no[5].is_item and not by_no[4].is_item
    assert index.lines_linking("a.md") == (by_no[3],)


def test_old_index_shape_links() -> None:
    index = parse_index(b"- [notes.md](notes.md): the hook\r\n")
    assert index.lines[0].links[0].target == "notes.md"
    assert index.lines[0].text == "- [notes.md](notes.md): the hook"
