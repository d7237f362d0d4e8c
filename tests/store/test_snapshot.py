from __future__ import annotations

import os
import stat
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.errors import RefusedError
from prune_memory.store.snapshot import (
    MANIFEST,
    load_snapshot,
    read_manifest,
    require_snapshot,
    take_snapshot,
)
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": "# Memory\n- [A](a.md) — a\n",
        "a.md": topic("a", "body a"),
        "odd name\\with\nnewline.md": "strange",
        "deaccessioned/old.md": "---\nname: withdrawn-old\n---\nold",
        "notes.txt": b"\x00\x01binary",
    })


def test_copies_everything_outside_and_sha256sum_checks_it(memory: Path) -> None:
    snap = take_snapshot(memory, NOW)
    assert snap.path.name == "20261129T120000Z"
    assert memory.resolve() not in snap.path.parents
    assert stat.S_IMODE(snap.path.stat().st_mode) == 0o700
    assert snap.files == 5
    assert (snap.path / "a.md").read_bytes() == (memory / "a.md").read_bytes()
    checked = subprocess.run(["sha256sum", "--strict", "-c", MANIFEST], cwd=snap.path,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": OK") == 5
    assert set(read_manifest(snap.manifest)) == {
        "MEMORY.md", "a.md", "odd name\\with\nnewline.md", "deaccessioned/old.md", "notes.txt"}


def test_sha256sum_catches_a_tampered_copy(memory: Path) -> None:
    snap = take_snapshot(memory, NOW)
    (snap.path / "a.md").write_bytes(b"tampered")
    checked = subprocess.run(["sha256sum", "-c", MANIFEST], cwd=snap.path, capture_output=True)
    assert checked.returncode != 0
    with pytest.raises(RefusedError, match="does not verify"):
        load_snapshot(memory, snap.manifest, NOW)


def test_two_snapshots_in_one_second_get_two_folders(memory: Path) -> None:
    first, second = take_snapshot(memory, NOW), take_snapshot(memory, NOW)
    assert first.path != second.path and second.path.name == "20261129T120000Z-2"


@pytest.mark.parametrize("target", ["inside", "self", "via-link"])
def test_a_target_inside_the_memory_directory_is_refused(memory: Path, tmp_path: Path,
                                                         target: str) -> None:
    link = tmp_path / "innocent-looking"
    link.symlink_to(memory / "deaccessioned")
    chosen = {"inside": memory / "snaps", "self": memory, "via-link": link / "snaps"}[target]
    with pytest.raises(RefusedError, match="inside the memory directory"):
        take_snapshot(memory, NOW, chosen)
    assert not (memory / "snaps").exists()
    assert not (memory / "deaccessioned" / "snaps").exists()


def test_symlinks_are_copied_as_links_never_followed(memory: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside.md"
    secret.write_text("not part of the memory")
    (memory / "escape.md").symlink_to(secret)
    (memory / "linked-dir").symlink_to(tmp_path)
    snap = take_snapshot(memory, NOW, tmp_path / "snaps")
    assert snap.links == ("linked-dir", "escape.md")
    assert os.readlink(snap.path / "escape.md") == str(secret)
    assert "escape.md" not in read_manifest(snap.manifest)
    assert not (snap.path / "linked-dir" / "outside.md").is_file() or \
        (snap.path / "linked-dir").is_symlink()


def test_the_gate_wants_a_verified_snapshot_of_the_same_directory(memory: Path,
                                                                 tmp_path: Path) -> None:
    with pytest.raises(RefusedError, match="no verified snapshot"):
        require_snapshot(None, memory)
    snap = take_snapshot(memory, NOW)
    assert require_snapshot(snap, memory) is snap
    other = write_tree(tmp_path / "other", {"MEMORY.md": ""})
    with pytest.raises(RefusedError, match="not of"):
        require_snapshot(snap, other)
    snap.manifest.unlink()
    with pytest.raises(RefusedError, match="gone"):
        require_snapshot(snap, memory)


def test_a_snapshot_from_another_process_is_re_verified(memory: Path) -> None:
    snap = take_snapshot(memory, NOW)
    again = load_snapshot(memory, snap.manifest, NOW)
    assert require_snapshot(again, memory).manifest == snap.manifest


def test_a_copy_that_does_not_match_is_refused(memory: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from prune_memory.store import atomic

    real = atomic.write_all

    def bit_rot(fd: int, data: bytes) -> None:
        real(fd, data.replace(b"body a", b"body A"))

    monkeypatch.setattr(atomic, "write_all", bit_rot)
    with pytest.raises(RefusedError, match="does not verify"):
        take_snapshot(memory, NOW)
