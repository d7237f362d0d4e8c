"""One memory doubting another: which lines count, and which never do."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.analysis.contradictions import check_said_wrong
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree

TARGET = topic("port-notes", "The API listens on 8080.")


def doubts(tmp_path: Path, line: str, *, type_: str = "project") -> list[str]:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Ports](ports.md)\n- [Notes](notes.md)\n",
        "ports.md": TARGET,
        "notes.md": topic("notes", f"Some notes.\n{line}", type_=type_)})
    found = check_said_wrong(load_memory_dir(root))
    return [f"{file}<-{f.related[0]}:{f.evidence['sides'][0]['line']}"
            for file, items in found.items() for f in items]


@pytest.mark.parametrize("line", [
    "- [[port-notes]] needs correcting: the port moved.",
    "- [[ports]] is out of date since the proxy landed.",
    "See [the port memo](ports.md), now outdated.",
    "- [[port-notes]] 这条要校正",
    "- [[port-notes]] ist veraltet.",
])
def test_a_link_on_a_line_that_doubts_it_is_a_finding_on_the_linked_memory(
        tmp_path: Path, line: str) -> None:
    assert doubts(tmp_path, line) == ["ports.md<-notes.md:2"]


@pytest.mark.parametrize("line", [
    "- [[port-notes]] is not outdated: checked it today.",
    "- [[port-notes]] explains the port.",
    "The port memo needs correcting.",  # no link: which memory is meant is a guess
    "- [[nowhere]] needs correcting.",
])
def test_lines_that_do_not_doubt_a_linked_memory_give_nothing(tmp_path: Path,
                                                              line: str) -> None:
    assert doubts(tmp_path, line) == []


def test_a_counter_memory_naming_what_it_replaced_is_not_doubt(tmp_path: Path) -> None:
    assert doubts(tmp_path, "Superseded by [[port-notes]]; outdated pattern.",
                  type_="superseded") == []


def test_a_memory_doubting_itself_or_twice_counts_once_per_source(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Ports](ports.md)\n",
        "ports.md": topic("port-notes", "The API listens on 8080.\n"
                          "[[port-notes]] is outdated, says this very file."),
        "a.md": topic("a", "[[port-notes]] is outdated.\n[[ports]] needs updating."),
        "b.md": topic("b", "[ports](./ports.md) is wrong about the port.")})
    found = check_said_wrong(load_memory_dir(root))
    assert sorted(f.related[0] for f in found["ports.md"]) == ["a.md", "b.md"]
    assert list(found) == ["ports.md"]
