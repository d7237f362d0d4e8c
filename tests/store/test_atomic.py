from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from prune_memory.store import atomic, temps


def test_writes_and_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "MEMORY.md"
    atomic.atomic_write(target, b"first\n")
    atomic.atomic_write(target, b"second\r\n")
    assert target.read_bytes() == b"second\r\n"
    assert temps.leftover_temps(tmp_path) == []


def test_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "private.md"
    target.write_bytes(b"x")
    target.chmod(0o600)
    atomic.atomic_write(target, b"y")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_failed_write_leaves_the_old_bytes_and_no_temp_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    target = tmp_path / "topic.md"
    target.write_bytes(b"old")

    def fail(fd: int, data: bytes) -> None:
        os.write(fd, data[:1])
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(atomic, "write_all", fail)
    with pytest.raises(OSError) as raised:
        atomic.atomic_write(target, b"new bytes")
    assert raised.value.errno == code
    assert target.read_bytes() == b"old"
    assert temps.leftover_temps(tmp_path) == []


def test_clean_temps_removes_only_temps_it_noted(tmp_path: Path) -> None:
    ours = tmp_path / f".{'ab' * 16}.pm-tmp"
    temps.note_temp(ours)  # what atomic_write does just before it creates the temp
    ours.write_bytes(b"half")
    lookalikes = [".hidden.md", ".MEMORY.md.1a2b3c4d.pm-tmp", f".{'cd' * 16}.pm-tmp",
                  "notes.pm-tmp"]
    for name in lookalikes:
        (tmp_path / name).write_bytes(b"a user's file")
    assert atomic.clean_temps(tmp_path) == [ours]
    assert not ours.exists()
    assert all((tmp_path / name).read_bytes() == b"a user's file" for name in lookalikes)
    assert atomic.clean_temps(tmp_path) == []


def test_temp_names_fit_whatever_the_target_name(tmp_path: Path) -> None:
    target = tmp_path / ("x" * 252 + ".md")  # 255 bytes: the longest name there can be
    atomic.atomic_write(target, b"long")
    assert target.read_bytes() == b"long" and temps.leftover_temps(tmp_path) == []


def test_remove_file_reports_whether_there_was_one(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_bytes(b"x")
    assert atomic.remove_file(path) is True
    assert atomic.remove_file(path) is False
