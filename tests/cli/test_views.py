from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.store.safe_read import MAX_FILE_BYTES
from tests.conftest import CliResult, topic, tree_hash, write_tree

Cli = Callable[..., CliResult]
GOOD = {"MEMORY.md": "# Memory\n- [A](a.md) — a\n", "a.md": topic("a", "A fact.")}


def test_inventory_json(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, GOOD)
    result = cli("inventory", tmp_path, "--json", "--now", "2026-11-29T00:00:00Z")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert [e["file"] for e in data["entries"]] == ["a.md"]


def test_inventory_table(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, GOOD)
    result = cli("inventory", tmp_path)
    assert result.code == 0 and "a.md" in result.out and "estimate" in result.out


def test_scan_exit_codes(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, GOOD)
    assert cli("scan", tmp_path).code == 0
    (tmp_path / "lonely.md").write_text(topic("lonely", "x"))
    result = cli("scan", tmp_path, "--json")
    assert result.code == 1 and json.loads(result.out)["orphaned"][0]["file"] == "lonely.md"


def test_where_json(cli: Cli, tmp_path: Path) -> None:
    result = cli("where", tmp_path / "my.app", "--json")
    assert result.code == 0
    assert json.loads(result.out)["name"].endswith("-my-app")


def test_project_option_finds_the_directory(cli: Cli, tmp_path: Path) -> None:
    from prune_memory.claude.locate import locate

    memory = locate(tmp_path).memory_dir
    write_tree(memory, GOOD)
    result = cli("inventory", "--project", tmp_path, "--json")
    assert result.code == 0 and json.loads(result.out)["memory_dir"] == str(memory)


def _outside_symlink(root: Path) -> None:
    target = root.parent / "elsewhere.md"
    target.write_text("secret")
    os.symlink(target, root / "evil.md")


BAD_INPUTS: dict[str, Callable[[Path], None]] = {
    "malformed-frontmatter": lambda r: (r / "bad.md").write_text("---\n{x\n---\nb\n"),
    "non-utf8": lambda r: (r / "bad.md").write_bytes(b"\xff\xfe\xfa"),
    "symlink-out": _outside_symlink,
    "huge-file": lambda r: (r / "big.md").write_bytes(b"a" * (MAX_FILE_BYTES + 10)),
}


@pytest.mark.parametrize("command", ["inventory", "scan"])
@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_exit_2_one_line_nothing_changed(
        cli: Cli, tmp_path: Path, case: str, command: str) -> None:
    root = write_tree(tmp_path / "memory", GOOD)
    BAD_INPUTS[case](root)
    before = tree_hash(tmp_path)
    result = cli(command, root, "--json")
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert result.err.startswith("prune-memory: ")
    assert tree_hash(tmp_path) == before
    if command == "inventory":  # the good file was still processed
        assert "a.md" in [e["file"] for e in json.loads(result.out)["entries"]]


def test_an_index_line_leaving_the_directory_is_a_scan_finding_not_bad_input(
        cli: Cli, tmp_path: Path) -> None:
    """Real indexes point at project files with `../`: scan reports the line (exit 1) and
    never opens the target; inventory reads everything else as usual."""
    root = write_tree(tmp_path / "memory", GOOD)
    (root / "MEMORY.md").write_text("- [A](a.md)\n- [p](../../etc/passwd)\n")
    scanned = cli("scan", root, "--json")
    assert scanned.code == 1
    assert [(o["line"], o["target"]) for o in json.loads(scanned.out)["outside"]] == [
        (2, "../../etc/passwd")]
    assert cli("inventory", root, "--json").code == 0


@pytest.mark.parametrize("command", ["inventory", "scan"])
def test_missing_directory(cli: Cli, tmp_path: Path, command: str) -> None:
    result = cli(command, tmp_path / "nope")
    assert result.code == 2 and result.err.strip().count("\n") == 0
    assert "not found" in result.err


def test_usage_error_is_exit_2(cli: Cli) -> None:
    assert cli("inventory", "--no-such-flag").code == 2


def test_scan_on_the_demo_finds_exactly_the_planted_problems(cli: Cli) -> None:
    from tests.conftest import DEMO_MEMORY

    result = cli("scan", DEMO_MEMORY, "--json")
    data = json.loads(result.out)
    assert result.code == 1
    assert [d["target"] for d in data["dangling"]] == ["project_release_checklist.md"]
    assert [o["file"] for o in data["orphaned"]] == ["project_log_format.md"]
    assert not any(data[k] for k in ("degraded", "wiki_missing", "unloaded",
                                     "unregistered_tombstones", "missing_tombstones"))


def test_due_and_status_cli(cli: Cli, tmp_path: Path) -> None:
    memory = write_tree(tmp_path / "-p" / "memory", GOOD)
    result = cli("due", memory, "--json", "--now", "2026-11-29T00:00:00Z")
    assert result.code == 1 and json.loads(result.out)["due"] is True
    status = cli("status", tmp_path, "--json")
    assert status.code == 0 and json.loads(status.out)["projects"][0]["entries"] == 1
    assert cli("status", tmp_path / "nope").code == 2


def test_plan_markdown_format(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, GOOD)
    result = cli("plan", tmp_path, "--format", "markdown", "--now", "2026-11-29T00:00:00Z")
    assert result.code == 0 and result.out.startswith("# Pruning plan")
    assert "| `a.md` |" in result.out


def _rows(out: str) -> dict[str, str]:
    """Piped output: one tab-separated line per entry, the file first."""
    return {line.split("\t")[0]: line for line in out.splitlines() if line.count("\t") > 2}


def test_the_plan_table_is_short_for_a_keep_and_says_what_a_review_suggests(
        cli: Cli, tmp_path: Path, demo_memory: Path, demo_repo: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    write_tree(tmp_path / "m", {"MEMORY.md": "# Memory\n- [A](a.md) — a\n",
                                "a.md": topic("a", "Settings live in `conf/app.toml`.")})
    keep = _rows(cli("plan", tmp_path / "m", "--now", "2026-11-29T00:00:00Z").out)["a.md"]
    assert "checked 1 claim" in keep and "no usable git repo" not in keep  # JSON has it
    demo = _rows(cli("plan", demo_memory, "--repo", demo_repo, "--now",
                     "2026-11-29T12:00:00Z").out)
    assert "(suggests withdraw)" in demo["project_upload_outage.md"]


def test_a_long_table_is_drawn_in_part_and_json_holds_every_row(cli: Cli,
                                                                 tmp_path: Path) -> None:
    files = {f"orphan_{n:03d}.md": topic(f"o{n}", f"Orphan fact {n}.") for n in range(70)}
    write_tree(tmp_path, {"MEMORY.md": "# Memory\n", **files})
    table = cli("scan", tmp_path)
    assert "orphan_049.md" in table.out and "orphan_050.md" not in table.out
    assert "… and 20 more findings" in " ".join(table.out.split())
    data = json.loads(cli("scan", tmp_path, "--json").out)
    assert len(data["orphaned"]) == 70
    inventory = cli("inventory", tmp_path)
    assert "… and 20 more entries" in " ".join(inventory.out.split())
    plan = cli("plan", tmp_path, "--now", "2026-11-29T00:00:00Z")
    assert "more entries (proposals first)" in " ".join(plan.out.split())
