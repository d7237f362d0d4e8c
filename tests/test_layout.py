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
