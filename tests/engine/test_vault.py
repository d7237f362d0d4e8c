"""A withdrawn secret leaves the memory directory: redacted tombstone, original in the vault."""

from __future__ import annotations

import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.engine import vault
from prune_memory.engine.restore import restore
from prune_memory.engine.results import ApplyResult, WithdrawRequest
from prune_memory.engine.tombstone import parse_tombstone
from prune_memory.engine.withdraw import withdraw
from prune_memory.lint.checks import lint_memory_dir
from prune_memory.lint.options import LintOptions
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TOKEN = "ghp_" + "Q7mZ2Lw9Rt4Yp8Zk3Vn6Bc1x0aDEMOfakeTOKEN"[:36]


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [CI bot](reference_ci.md) — how CI reports\n"
                     "- [Style](feedback_style.md) — tabs\n",
        "reference_ci.md": topic("ci", f"The bot uses the token {TOKEN} for statuses."),
        "feedback_style.md": topic("style", "Use tabs", type_="feedback"),
    })


def everything_under(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())


def withdraw_ci(memory: Path) -> ApplyResult:
    return withdraw(memory, WithdrawRequest("reference_ci.md", "leaked token"),
                          snapshot=take_snapshot(memory, NOW), now=NOW)


def test_the_secret_leaves_the_directory_and_restore_gives_the_exact_bytes(
        memory: Path) -> None:
    original = (memory / "reference_ci.md").read_bytes()
    index = (memory / "MEMORY.md").read_bytes()
    done = withdraw_ci(memory)
    assert TOKEN.encode() not in everything_under(memory)
    stone = parse_tombstone((memory / TOMBSTONE_DIR / "reference_ci.md").read_bytes())
    assert stone.header.original_sha256 == vault.sha256(original)
    assert b"[github-token ghp_" in stone.original  # redacted, still says what was there
    kept = Path(str(stone.header.vault))
    assert kept.read_bytes() == original
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert memory.resolve() not in kept.resolve().parents
    assert "rotate" in done.applied[0].message and done.applied[0].vault == str(kept)

    restore(memory, done.register_ids[0], now=NOW)
    assert (memory / "reference_ci.md").read_bytes() == original
    assert (memory / "MEMORY.md").read_bytes() == index


def test_a_redacted_tombstone_is_not_reported_but_an_old_verbatim_one_is(
        memory: Path) -> None:
    withdraw_ci(memory)
    register = [(r.register_id, r.tombstone) for r in read_log(memory).rows]
    assert scan(load_memory_dir(memory), register).secret_tombstones == ()
    # What a version before the vault wrote: the original, token and all, below the header.
    path = memory / TOMBSTONE_DIR / "reference_ci.md"
    raw = path.read_bytes()
    path.write_bytes(raw[:raw.index(b"\n---\n") + 5] + f"token {TOKEN}\n".encode())
    memdir = load_memory_dir(memory)
    (found,) = scan(memdir, register).secret_tombstones
    assert found["tombstone"] == "deaccessioned/reference_ci.md"
    assert TOKEN not in str(found) and "github-token" in str(found)
    report = lint_memory_dir(memdir, now=NOW, options=LintOptions())
    hits = [v for v in report.violations if v.item == "deaccessioned/reference_ci.md"]
    assert hits and hits[0].check.value == "secret" and TOKEN not in hits[0].message


def test_a_lost_vault_copy_falls_back_to_the_snapshot(memory: Path) -> None:
    original = (memory / "reference_ci.md").read_bytes()
    done = withdraw_ci(memory)
    for path in vault.vault_dir(memory).iterdir():
        path.unlink()
    back = restore(memory, done.register_ids[0], now=NOW)
    assert (memory / "reference_ci.md").read_bytes() == original
    assert back.findings and "snapshot" in back.findings[0].message


def test_a_vault_path_written_into_a_tombstone_by_hand_is_not_followed(
        memory: Path, tmp_path: Path) -> None:
    decoy = tmp_path / "elsewhere" / vault.sha256(b"x")
    decoy.parent.mkdir()
    decoy.write_bytes(b"x")
    assert vault.get(memory, vault.sha256(b"x"), str(decoy)) is None
    assert vault.get(memory, vault.sha256(b"x"), None) is None


def test_a_vault_that_cannot_be_written_refuses_before_anything_changes(
        memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from prune_memory.errors import RefusedError
    from prune_memory.store import atomic
    from tests.conftest import tree_hash

    snap = take_snapshot(memory, NOW)
    before = tree_hash(memory)
    real = atomic.atomic_write

    def full(path: Path, data: bytes) -> None:
        if "vault" in path.parts:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(atomic, "atomic_write", full)
    with pytest.raises(RefusedError, match="private vault"):
        withdraw(memory, WithdrawRequest("reference_ci.md", "leaked"), snapshot=snap,
                       now=NOW)
    assert tree_hash(memory) == before
