"""Every path read back from a file the tool wrote earlier stays where it belongs.

Pass records, tombstone headers and review sessions sit where anything can edit them. Each
case tampers with one and checks the command refuses in one line (exit 2 or 4) without
reading or writing anything outside, and without changing the memory directory.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.engine import passrecord
from prune_memory.engine.tombstone import parse_tombstone
from prune_memory.errors import ExitCode
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.state import state_root
from tests.conftest import CliResult, topic, tree_hash, write_tree
from tests.engine.test_undo import a_pass
from tests.engine.test_undo import memory as memory
from tests.engine.test_vault import TOKEN, withdraw_ci

Cli = Callable[..., CliResult]
LATER = "2026-11-30T09:00:00Z"
VICTIM = b"the user's own file\n"


def tampered(memory: Path, change: Callable[[dict[str, object], Path], None],
             tmp_path: Path) -> Path:
    a_pass(memory)
    (record,) = passrecord.passes_dir(memory).glob("*.pass.json")
    data = json.loads(record.read_text())
    change(data, tmp_path)
    record.write_text(json.dumps(data))
    return record


def _outside(data: dict[str, object], tmp_path: Path) -> None:
    (tmp_path / "victim.txt").write_bytes(VICTIM)
    after = data["after"]
    assert isinstance(after, dict)
    after["../victim.txt"] = hashlib.sha256(VICTIM).hexdigest()  # "the pass left it so"


def _absolute(data: dict[str, object], tmp_path: Path) -> None:
    (tmp_path / "victim.txt").write_bytes(VICTIM)
    after = data["after"]
    assert isinstance(after, dict)
    after[str(tmp_path / "victim.txt")] = hashlib.sha256(VICTIM).hexdigest()


def _through_link(data: dict[str, object], tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "memory" / "sub").symlink_to(tmp_path / "elsewhere")
    after = data["after"]
    assert isinstance(after, dict)
    after["sub/x.md"] = None


CHANGES: dict[str, Callable[[dict[str, object], Path], None]] = {
    "dotdot": _outside, "absolute": _absolute, "symlinked folder": _through_link,
    "stamp with a path": lambda d, _: d.update(stamp="../../../../escape"),
    "after is a list": lambda d, _: d.update(after=["MEMORY.md"]),
    "hash not text": lambda d, _: d.update(after={"MEMORY.md": 7}),
    "vault name a path": lambda d, _: d.update(names={"MEMORY.md": "../../../etc/passwd"}),
    "register ids an object": lambda d, _: d.update(register_ids={"a": 1}),
    "manifest elsewhere": lambda d, t: d.update(manifest=str(t / "MANIFEST.sha256")),
    "undone a number": lambda d, _: d.update(undone=3),
    "not an object": lambda d, _: (d.clear(), d.update({"": None})),
}


@pytest.mark.parametrize("case", sorted(CHANGES))
def test_a_tampered_pass_record_is_refused_before_anything_moves(
        cli: Cli, memory: Path, tmp_path: Path, case: str) -> None:
    tampered(memory, CHANGES[case], tmp_path)
    before = tree_hash(tmp_path)
    for args in (("restore", "--pass", "last"), ("restore", "--list"),
                 ("restore", "--list", "--json")):
        done = cli(*args, "--memory-dir", memory, "--now", LATER)
        assert done.code == ExitCode.BAD_INPUT, (args, done.err)
        assert "pass record" in done.err and "nothing was changed" in done.err
        assert len(done.err.strip().splitlines()) == 1 and "Traceback" not in done.err
    assert tree_hash(tmp_path) == before
    if (tmp_path / "victim.txt").exists():
        assert (tmp_path / "victim.txt").read_bytes() == VICTIM
    assert not list(state_root().rglob("victim.txt")) and not list(state_root().rglob(
        "escape*"))


def test_a_record_that_is_not_json_is_refused(cli: Cli, memory: Path,
                                              tmp_path: Path) -> None:
    a_pass(memory)
    (record,) = passrecord.passes_dir(memory).glob("*.pass.json")
    record.write_text('{"after": [[[[')
    done = cli("restore", "--pass", "last", "--memory-dir", memory, "--now", LATER)
    assert done.code == ExitCode.BAD_INPUT and "does not read as JSON" in done.err


def test_a_tombstone_vault_path_never_leads_out_of_the_vault(
        cli: Cli, tmp_path: Path) -> None:
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [CI bot](reference_ci.md) — how CI reports\n",
        "reference_ci.md": topic("ci", f"The bot uses the token {TOKEN} for statuses.")})
    withdraw_ci(memory)
    stone_path = memory / TOMBSTONE_DIR / "reference_ci.md"
    stone = parse_tombstone(stone_path.read_bytes())
    kept = Path(str(stone.header.vault))
    evil = b"---\nname: ci\n---\nplanted from outside the vault\n"
    evil_sha = hashlib.sha256(evil).hexdigest()
    vaults = state_root() / "vault"
    (vaults.parent / evil_sha).write_bytes(evil)  # beside the vault, not in it
    raw = stone_path.read_bytes().replace(str(kept).encode(),
                                          f"{vaults}/../{evil_sha}".encode())
    raw = raw.replace(f"original_sha256: {stone.header.original_sha256}".encode(),
                      f"original_sha256: {evil_sha}".encode())
    stone_path.write_bytes(raw)
    done = cli("restore", "2026-11-29-01", memory, "--now", LATER)
    restored = memory / "reference_ci.md"
    assert not (restored.exists() and restored.read_bytes() == evil), done.out


def test_a_tampered_old_record_does_not_turn_a_new_pass_into_an_error(
        cli: Cli, memory: Path, tmp_path: Path) -> None:
    tampered(memory, _outside, tmp_path)
    done = cli("withdraw", memory / "project_ci.md", "--reason", "x", "--now", LATER)
    assert done.code == 0, done.err
    assert not (memory / "project_ci.md").exists()


def test_a_tombstones_superseded_file_is_never_a_path_out(cli: Cli, tmp_path: Path) -> None:
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [CI](project_ci.md) — ci\n",
        "project_ci.md": topic("ci", "Jenkins builds.")})
    victim = tmp_path / "victim.txt"
    victim.write_bytes(VICTIM)
    assert cli("withdraw", memory / "project_ci.md", "--reason", "x", "--now", LATER).code == 0
    stone = memory / TOMBSTONE_DIR / "project_ci.md"
    raw = stone.read_text()
    head, _, body = raw[4:].partition("\n---\n")
    head = head.replace("superseded_by: N/A", "superseded_by: ../victim.txt")
    head += f"\nsuperseded_sha256: {hashlib.sha256(VICTIM).hexdigest()}"
    stone.write_text(f"---\n{head}\n---\n{body}")
    cli("restore", "2026-11-30-01", "--memory-dir", memory, "--now", LATER)
    assert victim.read_bytes() == VICTIM
