from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from prune_memory.engine import session
from prune_memory.errors import RefusedError


def test_one_holder_at_a_time_and_release(tmp_path: Path) -> None:
    with session.holding(tmp_path) as held:
        assert held.stale_pid is None
        assert session.lock_path(tmp_path).read_text().strip().isdigit()
        with pytest.raises(RefusedError, match="locked by pid"):
            session.acquire(tmp_path)
    assert not session.lock_path(tmp_path).exists()
    with session.holding(tmp_path):
        pass


def test_a_dead_holder_lock_is_taken_over_with_a_message(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(dead.stdout)
    session.lock_path(tmp_path).write_text(f"{pid}\n")
    with session.holding(tmp_path) as held:
        assert held.stale_pid == pid
        assert held.message is not None and str(pid) in held.message


def test_a_live_holder_in_another_process_refuses(tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from prune_memory.engine import session\n"
        "held = session.acquire(Path(sys.argv[1]))\n"
        "print('held', flush=True)\n"
        "time.sleep(30)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(RefusedError, match=f"pid {holder.pid}"):
            session.acquire(tmp_path)
    finally:
        holder.kill()
        holder.wait()
    deadline = time.monotonic() + 120  # a hang guard, not a speed test: load only slows it
    while True:  # the kernel drops the flock with the process
        try:
            with session.holding(tmp_path) as held:
                assert held.stale_pid == holder.pid
            break
        except RefusedError:
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_the_lock_is_reentrant_within_one_process(tmp_path: Path) -> None:
    from prune_memory.engine import session

    with session.holding(tmp_path) as outer, session.holding(tmp_path) as inner:
        assert inner.fd == outer.fd
    with session.holding(tmp_path):  # released after the outer block: can be taken again
        pass


def test_a_holder_with_another_state_directory_still_excludes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-a"))
    held = session.acquire(memory)
    try:
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-b"))
        with pytest.raises(RefusedError, match="another state directory"):
            session.acquire(memory)
        assert not session.lock_path(memory).exists()  # refused before it wrote a pid file
    finally:
        session.release(held)
    with session.holding(memory):
        assert sorted(p.name for p in memory.iterdir()) == []  # no lock file in the directory
