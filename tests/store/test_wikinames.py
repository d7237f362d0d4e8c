"""One link normaliser: the scan's guess for a loose link and the unlinker's key agree."""

from __future__ import annotations

from prune_memory.store.wikinames import close_match, wiki_key

FILES = ("feedback_gates_pattern.md", "project_auth.md", "MEMORY.md")


def test_a_loose_link_without_the_type_prefix_finds_its_file() -> None:
    # The scan's old key kept `feedback_`, so it called this link dangling while the
    # unlinker, which drops the prefix, unlinked it when the file was withdrawn.
    assert close_match("gates-pattern.md", FILES) == "feedback_gates_pattern.md"
    assert close_match("Gates Pattern", FILES) == "feedback_gates_pattern.md"
    assert wiki_key("gates-pattern.md") == wiki_key("feedback_gates_pattern.md")


def test_the_scan_and_the_unlinker_resolve_every_loose_name_alike() -> None:
    for name in ("gates-pattern", "GATES_PATTERN.md", "notes/project-auth.md", "auth"):
        near = close_match(name, FILES)
        assert near is None or wiki_key(near) == wiki_key(name.rsplit("/", 1)[-1])
    assert close_match("auth", FILES) == "project_auth.md"


def test_two_files_answering_to_one_key_are_no_guess() -> None:
    assert close_match("gates-pattern", (*FILES, "gates_pattern.md")) is None
    assert close_match("nothing-like-it.md", FILES) is None
