"""The architecture's rules, checked: stages never print, only the CLI talks to people."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "prune_memory"
CORE = [p for p in PACKAGE.rglob("*.py")
        if p.parent.name not in ("cli", "report") and "hooks" not in p.parts
        and p.name != "__main__.py"]


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_modules_never_print_or_import_the_cli(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
            raise AssertionError(f"{path.name}:{node.lineno} prints")
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith(("typer", "rich", "prune_memory.cli")), \
                f"{path.name} imports {node.module}"
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith(("typer", "rich")) for a in node.names), path.name


def test_tests_mirror_the_package() -> None:
    for folder in ("procedure", "analysis", "evidence", "engine", "store", "claude", "lint",
                   "matching", "secrets", "jsonstore", "cli"):
        assert (ROOT / "tests" / folder).is_dir(), folder


def test_modules_stay_small() -> None:
    big = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 300}
    assert not big, f"split these modules: {big}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Every prune_memory module `path` imports, wherever the import sits (inside a function
    or under TYPE_CHECKING too: a circle a lazy import hides is still a circle)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules
                         else node.module for a in node.names)
    return {name for name in found if name in modules} - {_module_name(path)}


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of `graph`, or [] when there is none (depth-first, three colours)."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (circle := visit(nxt)):
                return circle
        state[node] = 2
        path.pop()
        return []

    for start in sorted(graph):
        if start not in state and (circle := visit(start)):
            return circle
    return []


def test_no_import_circles() -> None:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: _imports(path, set(files)) for name, path in files.items()}
    assert not _circle(graph), " -> ".join(_circle(graph))


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) == []
