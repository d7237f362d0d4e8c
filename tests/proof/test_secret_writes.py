"""Nothing the tool writes into the memory directory carries a flagged value.

A withdrawal copied an index line's secret, its own or a neighbour's, into the tombstone
(which Claude's Grep and Read reach); re-indexing an orphan copied a token from its `name:`
into MEMORY.md, loaded into every session. Both now write masked text, and restore still
gives back every byte.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
OWN = "ghp_" + "Lm40Nb39Vc28Xz17Qa06Ws95Ed84Rf73Tg62"
NEIGHBOUR = "glpat-" + "Q7mZ2Lw9Rt4Yp8Zk3Vn6"


def no_piece_of(value: str, data: bytes) -> bool:
    body = value.split("_", 1)[-1].split("-", 1)[-1]
    return not any(body[i:i + 8].encode() in data for i in range(len(body) - 7))


def everything(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())


@pytest.mark.parametrize("where", ["its own line", "the line above", "the line below"])
def test_a_withdrawal_keeps_index_line_secrets_out_of_the_tombstone(
        cli: Cli, tmp_path: Path, where: str) -> None:
    own = f" (bot {OWN})" if where == "its own line" else ""
    above = f" {NEIGHBOUR}" if where == "the line above" else ""
    below = f" {NEIGHBOUR}" if where == "the line below" else ""
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": f"# Memory\n- [Style](feedback_style.md) — tabs{above}\n"
                     f"- [CI](project_ci.md) — CI notes{own}\n"
                     f"- [Ports](project_ports.md) — ports{below}\n",
        "project_ci.md": topic("ci", "Jenkins builds every branch."),
        "feedback_style.md": topic("style", "Use tabs", type_="feedback"),
        "project_ports.md": topic("ports", "Dev on 8080."),
    })
    before = {name: (memory / name).read_bytes() for name in ("MEMORY.md", "project_ci.md")}
    assert cli("withdraw", memory / "project_ci.md", "--reason", "moved", "--now",
               NOW).code == 0
    stones = everything(memory / "deaccessioned")
    assert no_piece_of(OWN, stones) and no_piece_of(NEIGHBOUR, stones)
    assert cli("restore", "2026-11-29-01", "--memory-dir", memory, "--now", NOW).code == 0
    assert {name: (memory / name).read_bytes() for name in before} == before


def test_an_orphans_name_token_never_reaches_the_index(cli: Cli, tmp_path: Path,
                                                       trust_all: Path) -> None:
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Style](feedback_style.md) — tabs\n",
        "feedback_style.md": topic("style", "Use tabs", type_="feedback"),
        "project_bot.md": f"---\nname: bot_{OWN}\ndescription: the bot {OWN}\n"
                          "type: project\n---\nThe release bot posts to #deploys.\n",
    })
    done = cli("run", memory, "--yes", "--now", NOW)
    assert done.code in (0, 1), done.err
    index = (memory / "MEMORY.md").read_bytes()
    assert b"project_bot.md" in index  # it was indexed ...
    assert no_piece_of(OWN, index)  # ... with its token masked


@pytest.mark.parametrize("how", ["withdraw", "update"])
def test_a_token_in_a_file_name_stays_out_of_what_a_withdrawal_or_update_writes(
        cli: Cli, tmp_path: Path, how: str) -> None:
    name = f"reference_bot_{OWN}.md"
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": f"# Memory\n- [Bot]({name}) — the release bot\n",
        name: topic("bot", "The release bot posts to #deploys."),
    })
    before = {p.name: p.read_bytes() for p in memory.iterdir()}
    if how == "withdraw":
        done = cli("withdraw", memory / name, "--reason", "gone", "--now", NOW)
    else:
        done = cli("sweep", memory, "--rename", "deploys=releases", "--apply", "--now", NOW)
    assert done.code in (0, 1), done.err
    assert no_piece_of(OWN, everything(memory / "deaccessioned"))
    assert no_piece_of(OWN, (memory / "pruning-log.md").read_bytes())
    assert not any(OWN[4:12] in p.name for p in (memory / "deaccessioned").iterdir())
    assert cli("restore", "2026-11-29-01", "--memory-dir", memory, "--now", NOW).code == 0
    assert {p.name: p.read_bytes() for p in memory.iterdir() if p.is_file()
            and p.name != "pruning-log.md"} == before
