from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.errors import BadInputError
from prune_memory.model import EntryKind
from prune_memory.procedure.reachability import scan
from prune_memory.store.frontmatter_parse import bounded_json, json_safe
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.safe_read import MAX_FILE_BYTES
from tests.conftest import topic, write_tree

INDEX = "# Memory\n\n## Project\n- [Auth](project_auth.md) — where auth lives\n"


def test_both_frontmatter_shapes_and_modified_stamp(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "MEMORY.md": INDEX + "- [Ref](ref.md) — docs\n",
        "project_auth.md": topic("auth", "Auth is in `src/auth.py`.",
                                 extra="modified: 2026-03-02T10:00:00Z\n"),
        "ref.md": "---\nname: ref\ndescription: d\nmetadata:\n  type: reference\n---\nSee x.\n",
    })
    memdir = load_memory_dir(tmp_path)
    auth, ref = memdir.entry("project_auth.md"), memdir.entry("ref.md")
    assert auth is not None and ref is not None
    assert auth.memory_type == "project" and ref.memory_type == "reference"
    assert auth.modified is not None and auth.modified.isoformat() == "2026-03-02T10:00:00+00:00"
    assert auth.written_at[1] == "modified" and ref.written_at[1] == "mtime"
    assert auth.index_lines == (4,)
    assert memdir.errors == ()


def test_missing_frontmatter_is_allowed(tmp_path: Path) -> None:
    write_tree(tmp_path, {"MEMORY.md": "- [N](notes.md)\n", "notes.md": "Just a note.\n"})
    entry = load_memory_dir(tmp_path).entry("notes.md")
    assert entry is not None and entry.name == "notes" and entry.memory_type is None


def test_inline_index_fact_becomes_an_entry(tmp_path: Path) -> None:
    write_tree(tmp_path, {"MEMORY.md": INDEX + "- Deploys go out on Tuesdays\n",
                          "project_auth.md": topic("auth", "x")})
    fact = load_memory_dir(tmp_path).entry("MEMORY.md#L5")
    assert fact is not None and fact.kind is EntryKind.INDEX_LINE
    assert fact.body == "Deploys go out on Tuesdays"


def test_wiki_links_in_bodies_but_not_in_code(tmp_path: Path) -> None:
    body = "See [[deploy]].\n\n```\n[[not-a-link]]\n```\nAnd `[[nope]]` too."
    write_tree(tmp_path, {"a.md": topic("a", body)})
    entry = load_memory_dir(tmp_path).entry("a.md")
    assert entry is not None
    assert [lk.target for lk in entry.links] == ["deploy"]


def test_missing_directory_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="not found"):
        load_memory_dir(tmp_path / "nope")


def test_a_file_is_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(BadInputError, match="not a directory"):
        load_memory_dir(tmp_path / "f")


@pytest.mark.parametrize(("name", "content", "message"), [
    ("bad.md", b"\xff\xfe not utf8", "not valid UTF-8"),
    ("nul.md", b"text\x00more", "NUL bytes"),
    ("yaml.md", b"---\n{broken\n---\nbody\n", "malformed YAML"),
    ("list.md", b"---\n- a\n- b\n---\nbody\n", "not a mapping"),
    ("open.md", b"---\nname: x\nbody never closes\n", "never closes"),
])
def test_bad_files_are_reported_and_the_rest_still_load(
        tmp_path: Path, name: str, content: bytes, message: str) -> None:
    write_tree(tmp_path, {"MEMORY.md": INDEX, "project_auth.md": topic("auth", "ok"),
                          name: content})
    memdir = load_memory_dir(tmp_path)
    assert [e.file for e in memdir.errors] == [name]
    assert message in memdir.errors[0].message
    assert memdir.entry("project_auth.md") is not None


def test_huge_file_is_skipped_without_reading(tmp_path: Path) -> None:
    write_tree(tmp_path, {"big.md": b"x" * (MAX_FILE_BYTES + 1)})
    memdir = load_memory_dir(tmp_path)
    assert "too large" in memdir.errors[0].message


def test_symlink_out_of_the_directory_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(topic("secret", "outside"))
    memory = write_tree(tmp_path / "memory", {"MEMORY.md": INDEX})
    os.symlink(outside, memory / "evil.md")
    memdir = load_memory_dir(memory)
    assert memdir.errors[0].file == "evil.md"
    assert "leaves the memory directory" in memdir.errors[0].message
    assert memdir.entry("evil.md") is None


def test_index_link_leaving_the_directory_is_a_finding_on_its_line(tmp_path: Path) -> None:
    """Real indexes point at project files with `../`: that is reported on the line by the
    reachability scan, never a file the load rejects, and the target is never opened."""
    write_tree(tmp_path, {"MEMORY.md": "- [x](../../etc/passwd)\n- [y](/etc/hosts)\n"})
    memdir = load_memory_dir(tmp_path)
    assert memdir.errors == ()
    outside = scan(memdir).outside
    assert [(o["line"], o["target"]) for o in outside] == [(1, "../../etc/passwd"),
                                                           (2, "/etc/hosts")]


def test_tombstones_and_own_files_are_not_entries(tmp_path: Path) -> None:
    write_tree(tmp_path, {"MEMORY.md": INDEX, "project_auth.md": topic("auth", "x"),
                          "pruning-log.md": "# Pruning log\n",
                          "retention-policy.md": "# Policy\n",
                          "deaccessioned/old.md": "---\nname: withdrawn-old\n---\nx\n"})
    memdir = load_memory_dir(tmp_path)
    assert [e.file for e in memdir.topics] == ["project_auth.md"]
    assert memdir.tombstones == ("old.md",)


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                     st.text(max_size=8), st.dates(), st.datetimes())


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _SCALARS | st.lists(_SCALARS, max_size=3)
                       | st.dictionaries(st.text(max_size=4), _SCALARS, max_size=3),
                       max_size=6))
def test_frontmatter_values_come_out_json_safe_either_way(meta: dict[str, object]) -> None:
    """Flat frontmatter takes a short path; the result is what the full walk gives."""
    assert bounded_json(meta) == json_safe(meta)
