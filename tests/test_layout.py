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


def test_no_module_outgrows_one_concept() -> None:
    """A module holds one concept however long; past about 600 lines it holds two."""
    big = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not big, f"split these along their concepts: {big}"


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


# The layers, highest first (references/architecture.md). A module imports its own layer or
# one below it, never one above; a name belongs to the longest prefix listed. `config` reads
# the config file (store/) and names evidence classes, and the probes read it, so it sits
# between evidence/ and analysis/ with the class names (vocabulary, no git) beneath it.
LAYERS = ("prune_memory.__main__", "prune_memory.cli", "prune_memory.report",
          "prune_memory.procedure", "prune_memory.lint", "prune_memory.jsonstore",
          "prune_memory.engine", "prune_memory.claude.hooks", "prune_memory.claude",
          "prune_memory.evidence", "prune_memory.config", "prune_memory.evidence.classes",
          "prune_memory.analysis", "prune_memory.store", "prune_memory.secrets",
          "prune_memory.matching", "prune_memory")


def _layer(module: str) -> int:
    """The rank of `module` in LAYERS (0 is the top), by the longest prefix that names it."""
    owners = [name for name in LAYERS if module == name or module.startswith(f"{name}.")]
    return LAYERS.index(max(owners, key=len))


def _upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of `graph` from a lower layer to a higher one."""
    return sorted(f"{source} -> {target}" for source, targets in graph.items()
                  for target in targets if _layer(target) < _layer(source))


def test_imports_go_down_the_layers() -> None:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: _imports(path, set(files)) for name, path in files.items()}
    assert not _upward(graph), "imports up the layers:\n" + "\n".join(_upward(graph))


def test_the_direction_check_finds_an_upward_import() -> None:
    graph = {"prune_memory.engine.apply": {"prune_memory.procedure.finish",
                                           "prune_memory.store.files"},
             "prune_memory.evidence.probes.paths": {"prune_memory.evidence.classes",
                                                    "prune_memory.analysis.text"},
             "prune_memory.config": {"prune_memory.evidence.probes.base"},
             "prune_memory.store.loader": {"prune_memory.model"}}
    assert _upward(graph) == ["prune_memory.config -> prune_memory.evidence.probes.base",
                              "prune_memory.engine.apply -> prune_memory.procedure.finish"]


# Only store/ touches the memory directory: these packages reach files through it. The
# modules named here keep the tool's own files elsewhere, each for the reason given.
NO_FILE_ACCESS = ("engine", "procedure", "analysis", "lint", "evidence/classes.py")
ELSEWHERE = {
    "engine/session.py": "lock files under the state directory; a flock on the folder itself",
    "engine/journal.py": "journal records under the state directory",
    "engine/passrecord.py": "pass records, undo archives and open-pass markers beside them, "
                            "under the state directory",
    "engine/undo.py": "a snapshot's manifest, under the state directory",
    "engine/vault.py": "the private vault of withdrawn secrets, under the state directory",
    "procedure/review_state.py": "a saved review under the state directory",
    "analysis/instruction_files.py": "the project's instruction files (CLAUDE.md, AGENTS.md, ...)",
}
_PATH_CALLS = {"read_text", "read_bytes", "write_text", "write_bytes", "exists", "is_file",
               "is_dir", "is_symlink", "iterdir", "glob", "rglob", "unlink", "mkdir", "rmdir",
               "touch", "stat", "lstat", "readlink", "open"}
_MODULE_CALLS = {"os", "shutil", "io"}


def _file_calls(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            found.append(f"{node.lineno}: open")
        elif isinstance(func, ast.Attribute) and (
                func.attr in _PATH_CALLS or (isinstance(func.value, ast.Name)
                and func.value.id in _MODULE_CALLS and func.attr != "environ")):
            found.append(f"{node.lineno}: {ast.unparse(func)}")
    return found


def test_only_store_touches_files() -> None:
    checked = [p for kind in NO_FILE_ACCESS for p in sorted((PACKAGE / kind).rglob("*.py"))
               if (PACKAGE / kind).is_dir()] + [PACKAGE / k for k in NO_FILE_ACCESS
                                                 if k.endswith(".py")]
    assert len(checked) > 60
    touching = {rel: calls for p in checked
                if (rel := p.relative_to(PACKAGE).as_posix()) not in ELSEWHERE
                and (calls := _file_calls(p))}
    assert not touching, f"file access outside store/: {touching}"


def test_the_file_access_check_sees_a_read(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nPath('x').read_bytes()\nos.listdir('.')\nopen('y')\n"
                      "''.replace('a', 'b')\n", encoding="utf-8")
    assert _file_calls(sample) == ["2: Path('x').read_bytes", "3: os.listdir", "4: open"]
