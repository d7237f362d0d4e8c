"""Commands load only what they use: one command module, and no heavy library it does not need.

Speed itself is measured in bench/bench_startup.py; these tests hold the structure that makes
start-up quick, so a top-level import of GitPython or markdown-it in the wrong place fails
here instead of slowing every command down unnoticed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prune_memory.cli import COMMAND_MODULES, app, modules_for
from tests.conftest import ROOT

HEAVY = ("git", "markdown_it", "yaml", "frontmatter", "detect_secrets", "rich",
         "prune_memory.procedure.pipeline", "prune_memory.engine.withdraw")


def test_every_command_is_mapped_to_the_module_that_registers_it() -> None:
    registered = {c.name or c.callback.__name__: c.callback.__module__  # type: ignore[union-attr]
                  for c in app.registered_commands}
    for group in app.registered_groups:
        first = group.typer_instance.registered_commands[0]  # type: ignore[union-attr]
        registered[group.name] = first.callback.__module__  # type: ignore[index,union-attr]
    assert {name: f"prune_memory.cli.{module}" for name, module in COMMAND_MODULES.items()} \
        == registered


def test_a_named_command_loads_its_module_only() -> None:
    assert modules_for(["/venv/bin/prune-memory", "where", "."]) == ["view_commands"]
    assert modules_for(["/x/prune_memory/__main__.py", "jsonl", "report"]) == ["jsonl"]
    everything = sorted(set(COMMAND_MODULES.values()))
    for argv in (["prune-memory"], ["prune-memory", "--help"], ["prune-memory", "wher"],
                 ["pytest", "run"]):
        assert sorted(modules_for(argv)) == everything, argv


def _loaded(argv: list[str], tmp_path: Path, stdin: str = "") -> set[str]:
    """The HEAVY modules a fresh `python -m prune_memory ARGV` process imported."""
    probe = ("import runpy, sys, json\n"
             f"sys.argv = ['prune_memory/__main__.py', *{argv!r}]\n"
             "try:\n    runpy.run_module('prune_memory', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]), file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "state"),
           "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, check=False, cwd=tmp_path, input=stdin)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize(("argv", "allowed"), [
    (["--help"], set()),
    (["where", "--json", "."], set()),
    (["where", "."], {"rich"}),
    (["due", "MEMORY"], set()),
])
def test_everyday_commands_import_no_heavy_library(argv: list[str], allowed: set[str],
                                                   tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    argv = [str(memory) if a == "MEMORY" else a for a in argv]
    assert _loaded(argv, tmp_path) <= allowed


def test_the_import_probe_sees_a_heavy_command(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    assert "prune_memory.procedure.pipeline" in _loaded(["plan", str(tmp_path / "memory")],
                                                        tmp_path)


def test_the_write_gate_and_a_plan_load_only_what_they_use(tmp_path: Path) -> None:
    """The gate runs on every tool call Claude makes: it never parses markdown or reads git.
    A plan only reads: the write engine stays unloaded."""
    memory = tmp_path / ".claude" / "projects" / "-work-app" / "memory"  # where Claude keeps it
    memory.mkdir(parents=True)
    edit = json.dumps({"session_id": "s", "transcript_path": "/dev/null", "cwd": str(tmp_path),
                       "hook_event_name": "PreToolUse", "tool_name": "Edit",
                       "tool_input": {"file_path": str(memory / "note.md"),
                                      "old_string": "a", "new_string": "the build uses make"}})
    assert _loaded(["hook", "gate"], tmp_path, stdin=edit) == set()
    assert "prune_memory.engine.withdraw" not in _loaded(["plan", str(memory)], tmp_path)
