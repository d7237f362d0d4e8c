"""Index repairs: each fault mended once, and never a pointer the index already has."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


def _repairs(root: Path) -> list[tuple[str, str]]:
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    return [(r["kind"], r.get("to") or r.get("file") or r["target"])
            for r in plan.reachability["repairs"]]


def test_a_file_a_fixed_link_will_reach_is_not_indexed_again(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n- [Auth](Auth.md) — login\n",
                                       "auth.md": topic("auth", "Login uses sessions.")})
    assert _repairs(root) == [("fix-link", "auth.md")]


def test_a_link_to_a_nested_file_is_left_alone(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n- [N](notes/n.md) — nested\n",
                                       "notes/n.md": topic("n", "A note.")})
    assert _repairs(root) == []
