"""Memory text never drives the terminal: every command shows control characters as
visible escapes, in tables, plain lines, errors and JSON alike."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.printable import has_break, printable
from tests.conftest import CliResult, write_tree

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
ESC, CSI8 = "\x1b", "\x9b"
TITLE = f"{ESC}]0;pwned\x07"
NAME = f"evil{ESC}[31m.md"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": f"# Memory\n- [Evil {TITLE}]({NAME}) — desc {ESC}[2J\n"
                     f"- [Other](other.md) — o {CSI8}31m\n- [Gone](gone{ESC}[8m.md) — x\n",
        NAME: f"---\nname: evil {ESC}[31m\ndescription: d {ESC}[2J\ntype: project\n---\n"
              f"Fixed on 2026-03-02 in session 4; body {ESC}[31m red {CSI8}c1 \x08\x08\n"
              "second line\n",
        "other.md": "---\nname: other\ndescription: o\ntype: project\n---\nSee [x]"
                    f"(ghost{ESC}[1m.md).\n",
    })


def clean(done: CliResult) -> None:
    for stream in (done.out, done.err):
        assert ESC not in stream and CSI8 not in stream and "\x08" not in stream, stream
        assert "\x07" not in stream


def test_every_view_shows_control_characters_as_escapes(cli: Cli, memory: Path) -> None:
    for args in (("inventory", memory), ("scan", memory), ("lint", memory),
                 ("plan", memory, "--now", NOW), ("plan", memory, "--format", "markdown",
                                                  "--now", NOW),
                 ("run", memory, "--dry-run", "--now", NOW), ("status", memory.parent),
                 ("sweep", memory, "--rename", "evil=good")):
        done = cli(*args)
        clean(done)
    shown = cli("inventory", memory).out
    assert "\\x1b[31m" in shown  # visible, not dropped: the reader sees something is there


@pytest.mark.parametrize("args", [("inventory", "--json"), ("scan", "--json"),
                                  ("plan", "--json"), ("lint", "--json")])
def test_json_keeps_its_own_escapes(cli: Cli, memory: Path, args: tuple[str, ...]) -> None:
    done = cli(args[0], memory, *args[1:], "--now", NOW) if args[0] == "plan" else \
        cli(args[0], memory, *args[1:])
    clean(done)
    json.loads(done.out)  # still JSON, the same values


def test_restore_list_and_reaccession_show_no_escapes(cli: Cli, memory: Path) -> None:
    done = cli("withdraw", memory / NAME, "--reason", f"gone {ESC}[2J", "--now", NOW)
    assert done.code == 0, done.err
    clean(done)
    for args in (("restore", "--list", "--memory-dir", memory),
                 ("reaccession", "2026-11-29-01", "--memory-dir", memory, "--show"),
                 ("reaccession", "2026-11-29-01", "--memory-dir", memory, "--lines", "1",
                  "--file", f"back{ESC}[2J.md", "--now", NOW)):
        clean(cli(*args))


def test_printable_keeps_text_and_line_ends() -> None:
    assert printable("a\tb\r\nc\n") == "a\tb\nc\n"
    assert printable(f"x{ESC}[0m\ry\x7f") == "x\\x1b[0m\\x0dy\\x7f"
    assert has_break("a\u2028b") and has_break("a\rb") and not has_break("a\tb")



TOKEN = "ghp_" + "Lm40Nb39Vc28Xz17Qa06Ws95Ed84Rf73Tg62"


def pieces(value: str, size: int = 6) -> list[str]:
    return [value[i:i + size] for i in range(0, len(value) - size + 1)]


@pytest.mark.parametrize("columns", ["60", "80"])
def test_a_token_is_masked_whole_however_the_table_wraps(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": f"# Memory\n- [Pebble](project_pebble.md) — pebble bot {TOKEN}\n"
                     f"- [Ref](ref_{TOKEN}.md) — see it\n",
        "project_pebble.md": "---\nname: pebble\ndescription: pebble\ntype: project\n---\n"
                             f"pebble deploys with {TOKEN} daily, see [x](gone_{TOKEN}.md)\n",
        f"ref_{TOKEN}.md": "---\nname: ref\ndescription: r\ntype: reference\n---\nref\n",
        f"orphan_{TOKEN}.md": "---\nname: orphan\ndescription: o\ntype: project\n---\no\n",
    })
    for args in (("inventory", memory), ("scan", memory), ("lint", memory),
                 ("plan", memory, "--now", NOW), ("run", memory, "--dry-run", "--now", NOW),
                 ("sweep", memory, "--rename", "pebble=cairn")):
        done = cli(*args)
        leaked = [p for p in pieces(TOKEN.removeprefix("ghp_")) if p in done.out + done.err]
        assert not leaked, (args, leaked)


def test_restore_list_json_keeps_the_pass_stamps_usable(cli: Cli, tmp_path: Path) -> None:
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [A](a.md) — a\n",
        "a.md": "---\nname: a\ndescription: a\ntype: project\n---\nbody\n"})
    assert cli("withdraw", memory / "a.md", "--reason", "x", "--now", NOW).code == 0
    listed = json.loads(cli("restore", "--list", "--json", "--memory-dir", memory).out)
    (stamp,) = [p["pass"] for p in listed["passes"]]
    assert stamp == "20261129T120000Z"
    assert cli("restore", "--pass", stamp, "--memory-dir", memory, "--now", NOW).code == 0
