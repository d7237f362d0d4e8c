"""A cloned repository cannot make the pass run a program of its choosing.

Each key below names a program git would start on some read. The repo plants each one to
create a marker file; a whole plan (every git call the pass makes) must leave no marker.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.evidence.gitrepo import grep_lines, ignored_paths, read_repo_facts
from prune_memory.evidence.gitrun import NEUTRAL_CONFIG, git_argv
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from tests.conftest import topic, write_tree
from tests.evidence.probes.gitbuild import GitRepo

# (config key, value) planted in .git/config; {marker} is the file the program would create.
PLANTED = [
    ("core.fsmonitor", "touch {marker}; false"),
    ("core.pager", "touch {marker}; cat"),
    ("pager.log", "touch {marker}; cat"),
    ("core.hooksPath", "{hooks}"),
    ("diff.external", "{script}"),
    ("diff.planted.textconv", "{script}"),
    ("core.sshCommand", "{script}"),
    ("core.askPass", "{script}"),
    ("credential.helper", "!touch {marker}"),
    ("gpg.program", "{script}"),
    ("log.showSignature", "true"),
    ("core.alternateRefsCommand", "{script}"),
]


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"src/old.py": "".join(f"line {n}\n" for n in range(40)),
                ".gitattributes": "*.py diff=planted\n"}).commit("add")
    repo.mv("src/old.py", "src/new.py").commit("rename")
    marker = tmp_path / "pwned"
    script = tmp_path / "planted.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\ncat \"$@\" 2>/dev/null\n")
    script.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("post-checkout", "post-index-change", "reference-transaction"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {marker}\n")
        (hooks / name).chmod(0o755)
    for key, value in PLANTED:
        repo.git("config", key, value.format(marker=marker, script=script, hooks=hooks))
    return repo.root, marker


def test_a_whole_plan_runs_no_program_the_repo_names(hostile: tuple[Path, Path],
                                                     tmp_path: Path) -> None:
    root, marker = hostile
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "- [Layout](project_layout.md) — where the code is\n",
        "project_layout.md": topic("layout", "The entry point is `src/old.py`; see `main()`.\n"),
    })
    plan = build_plan(memory, PassOptions(repo=root, now=datetime(2026, 12, 1, tzinfo=UTC)))
    assert plan.repo is not None
    grep_lines(root, ["line 1"])
    ignored_paths(root, ["build/x.o"])
    assert not marker.exists()


def test_the_repo_is_still_read(hostile: tuple[Path, Path]) -> None:
    root, marker = hostile
    facts = read_repo_facts(root)
    assert facts.available and "src/new.py" in facts.tracked
    assert "src/old.py" in facts.renames
    assert not marker.exists()


def test_every_planted_program_key_is_blanked_on_the_command_line() -> None:
    argv = git_argv("log")
    blanked = {argv[i + 1].split("=", 1)[0] for i, a in enumerate(argv) if a == "-c"}
    planted = {key for key, _ in PLANTED if not key.startswith("diff.planted")}
    assert planted <= blanked
    assert "--no-pager" in argv and argv[-1] == "log"
    assert all("=" in pair for pair in NEUTRAL_CONFIG)
