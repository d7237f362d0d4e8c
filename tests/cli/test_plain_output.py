"""Output that is not for a terminal: one line per entry, no boxes, no broken names; and
text wrapped by the cells a terminal gives it (a CJK character takes two)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from rich.cells import cell_len

from prune_memory.report.wrapping import labelled, wrap
from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
BOX = set("┏┓┗┛┃━│─┌┐└┘├┤┬┴┼╇╈╋")
LONG = "project_a_memory_with_a_name_long_enough_to_break_any_column.md"


WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
         "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu")


def note(n: int) -> str:
    """Words no other note shares, so no two notes read as copies of each other."""
    return " ".join(f"{WORDS[(n + k) % len(WORDS)]}{n}" for k in range(6)) + "."


def folder(root: Path, count: int = 30) -> Path:
    files: dict[str, str | bytes] = {
        "MEMORY.md": "# Memory\n" + "".join(f"- [N{n}](n{n}.md) — {note(n + 40)}\n"
                                            for n in range(count))
        + f"- [Long]({LONG}) — long name\n"}
    files.update({f"n{n}.md": topic(f"n{n}", note(n)) for n in range(count)})
    files[LONG] = topic("long", "A long-named memory.")
    return write_tree(root, files)


def test_plan_piped_is_one_line_per_entry_without_boxes(cli: Cli, tmp_path: Path) -> None:
    memory = folder(tmp_path / "memory")
    result = cli("plan", memory, "--now", "2026-11-29T12:00:00Z")
    lines = result.out.splitlines()
    assert not BOX & set(result.out)
    rows = [line for line in lines if "\t" in line and
            line.split("\t")[0].endswith(".md")]
    assert len(rows) == 31  # every entry once, on its own line
    assert any(line.startswith(LONG + "\t") for line in lines)  # never broken mid-name
    assert len(lines) < 45


def test_views_piped_are_plain_rows(cli: Cli, tmp_path: Path) -> None:
    memory = folder(tmp_path / "memory", count=3)
    inventory = cli("inventory", memory, "--now", "2026-11-29T12:00:00Z").out
    assert not BOX & set(inventory)
    assert inventory.splitlines()[1].split("\t") == ["file", "class", "signal", "type",
                                                     "age", "size", "access"]
    assert sum(1 for line in inventory.splitlines() if line.startswith("n")) == 3
    (memory / "lonely.md").write_text(topic("lonely", "x"))
    scan = cli("scan", memory).out
    assert "orphaned\tlonely.md\ton disk, not in the index" in scan.splitlines()


def test_where_piped_and_where_path(cli: Cli, tmp_path: Path) -> None:
    project = tmp_path / ("a" * 70) / "my.app"
    shown = cli("where", project).out
    assert not BOX & set(shown)
    memory_line = next(line for line in shown.splitlines() if line.startswith("memory dir"))
    bare = cli("where", project, "--path")
    assert bare.code == 0 and bare.out.endswith("\n") and bare.out.count("\n") == 1
    assert memory_line == f"memory dir\t{bare.out.strip()}"
    assert bare.out.strip() == json.loads(cli("where", project, "--json").out)["memory_dir"]


def test_cjk_wraps_at_the_cells_it_takes() -> None:
    text = "因子业务背景:alpha_src 权限模型、数据产物可再生性、当前无真正生产环境、REJECTED 因子"
    lines = wrap(text, 24, indent="  ")
    assert all(cell_len(line) <= 24 for line in lines)
    assert "".join(line.strip().replace(" ", "") for line in lines) == text.replace(" ", "")
    assert len(lines) > 3  # it breaks between characters: the run has no spaces


def test_wrap_keeps_words_paths_and_columns_whole() -> None:
    assert wrap("see src/auth/session_signing_module.py now", 20) == [
        "see", "src/auth/session_signing_module.py", "now"]
    assert labelled([("log", "a b")], 60, 11) == ["  log         a b"]
    assert wrap("", 30) == [""]


def test_where_in_a_narrow_terminal_keeps_the_path_on_one_line(tmp_path: Path) -> None:
    import os
    import sys

    import pexpect

    from tests.conftest import ROOT

    project = tmp_path / ("a" * 60) / "my.app"
    child = pexpect.spawn(sys.executable, ["-m", "prune_memory", "where", str(project)],
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, encoding="utf-8",
                          dimensions=(20, 50))
    child.expect(pexpect.EOF)
    lines = str(child.before).replace("\r", "").splitlines()
    memory = next(line for line in lines if line.startswith("memory dir"))
    assert memory.endswith("-my-app/memory") and len(memory) > 50  # one line, not folded
    assert not any(set(line) & BOX for line in lines)
