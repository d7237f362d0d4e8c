"""Re-accession: one fact of a withdrawn memory comes back as a new memory, logged, while
the tombstone keeps the whole original."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from prune_memory.engine.journal import pack
from prune_memory.engine.reaccession import ReaccessionStep
from prune_memory.store.files import sha256
from prune_memory.store.pruninglog import read_log
from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
NOW = ("--now", "2026-09-10T09:00:00Z")
TOKEN = "ghp_" + "Lm40Nb39Vc28Xz17Qa06Ws95Ed84Rf73Tg62"
BODY = ("Sprint 14 notes, mostly done.\n"
        "The image cache TTL is 900 seconds; raising it broke thumbnails.\n"
        f"Bot token was {TOKEN} during the sprint.\n")


def _withdrawn(cli: Cli, tmp_path: Path) -> tuple[Path, str]:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [Sprint 14](project_sprint14.md) — sprint notes\n",
        "project_sprint14.md": topic("project_sprint14", BODY),
    })
    done = cli("withdraw", root / "project_sprint14.md", "--reason", "sprint finished",
               "--snapshot-dir", tmp_path / "snaps", "--json", *NOW)
    assert done.code == 0, done.err
    return root, json.loads(done.out)["applied"][0]["register_id"]


def test_one_fact_comes_back_logged(cli: Cli, tmp_path: Path) -> None:
    root, rid = _withdrawn(cli, tmp_path)
    stone = next((root / "deaccessioned").iterdir())
    before = stone.read_bytes()
    shown = cli("reaccession", rid, root, "--show", *NOW)
    assert "2  The image cache TTL is 900 seconds" in shown.out and TOKEN not in shown.out
    result = cli("reaccession", rid, root, "--lines", "2", "--file", "project_image_cache",
                 "--reason", "the TTL still holds", "--snapshot-dir", tmp_path / "snaps", *NOW)
    assert result.code == 0, result.err
    new = (root / "project_image_cache.md").read_text()
    assert "The image cache TTL is 900 seconds; raising it broke thumbnails." in new
    assert f"reaccessioned_from: {rid}" in new and "Sprint 14" not in new
    assert "](project_image_cache.md) — The image cache TTL" in (root / "MEMORY.md").read_text()
    (row,) = [c for c in read_log(root).changes if c.change == "reaccessioned"]
    assert (row.entry, row.register_id) == ("`project_image_cache.md`", rid)
    assert stone.read_bytes() == before  # the rest of the original stays restorable
    again = cli("reaccession", rid, root, "--lines", "1", "--file", "project_image_cache",
                "--reason", "x", "--snapshot-dir", tmp_path / "snaps", *NOW)
    assert again.code == 2 and "already exists" in again.err


def test_a_secret_is_never_copied_back(cli: Cli, tmp_path: Path) -> None:
    root, rid = _withdrawn(cli, tmp_path)
    refused = cli("reaccession", rid, root, "--lines", "2-3", "--file", "x", "--reason", "r",
                  "--snapshot-dir", tmp_path / "snaps", *NOW)
    assert refused.code == 4 and TOKEN not in refused.err + refused.out
    assert not (root / "x.md").exists()


def test_bad_requests(cli: Cli, tmp_path: Path) -> None:
    root, rid = _withdrawn(cli, tmp_path)
    for args in (("--lines", "9", "--file", "x"), ("--lines", "two", "--file", "x"),
                 ("--lines", "2",), ("--lines", "2", "--file", "x"),
                 ("--lines", "2", "--file", "", "--reason", "r"),
                 ("--lines", "2", "--file", " ", "--reason", "r"),
                 ("--lines", "2", "--file", ".md", "--reason", "r")):
        assert cli("reaccession", rid, root, *args, *NOW).code == 2, args
    assert sorted(p.name for p in root.iterdir()) == ["MEMORY.md", "deaccessioned",
                                                      "pruning-log.md"]
    assert cli("reaccession", "2026-01-01-01", root, "--show").code == 2


def test_the_step_runs_twice_without_doubling(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# Memory\n"})
    data = b"---\nname: a\n---\nfact\n"
    step = {"op": "reaccession", "file": "a.md", "data": pack(data),
            "row": ["2026-09-10", "reaccessioned", "`a.md`", "2026-09-01-01", "why"],
            "index_line": "- [A](a.md) — fact", "section": "Re-accessioned"}
    for _ in range(2):
        assert ReaccessionStep.from_json(step).run(root).status == "done"
    assert (root / "MEMORY.md").read_text().count("(a.md)") == 1
    assert sha256((root / "a.md").read_bytes()) == sha256(data)
    assert len(read_log(root).changes) == 1
