"""The write session every engine operation runs in: one writer per memory directory (the
lock), then recovery of any step a crash left.

The lock is a pid file under the state directory, held with flock, and a flock on the
memory directory itself. The kernel drops a flock when its holder dies, so a lock left by
a killed process is recognised as stale even if its pid has been reused; the pid in the
file is for messages. The pid file's place depends on `XDG_STATE_HOME`; the flock on the
directory is what two processes with different state homes both see (and it puts no file
in the directory for a snapshot or a scan to trip over)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from prune_memory.engine import passrecord
from prune_memory.engine.journal import StepOutcome
from prune_memory.engine.recovery import Recovery, recover_pending
from prune_memory.errors import RefusedError
from prune_memory.state import dir_key, state_subdir, unwritable
from prune_memory.store.safe_read import refuse_linked_own_paths, require_directory


@contextmanager
def writing(root: Path) -> Iterator[list[str]]:
    """Hold the lock of `root` and settle any interrupted step; yields notes for the user."""
    require_directory(root)
    refuse_linked_own_paths(root)
    with holding(root) as held:
        recovered = recover_pending(root)
        notes = [held.message] if held.message else []
        yield notes + recovery_notes(recovered.steps)


def recover(root: Path) -> tuple[Recovery, list[str]]:
    """Finish or roll back an interrupted step and remove leftover temp files; then record
    the pass it belonged to, when that pass stopped before its record was written."""
    require_directory(root)
    refuse_linked_own_paths(root)
    with holding(root) as held:
        done = recover_pending(root)
        return done, [*([held.message] if held.message else []), *passrecord.settle(root)]


def recovery_notes(steps: Sequence[StepOutcome], listed: int = 3) -> list[str]:
    """A line per settled step; past `listed`, a batch's finished withdrawals are counted,
    and only the ones that did not simply finish are named."""
    if len(steps) <= listed:
        return [_note(o) for o in steps]
    done = [o for o in steps if o.status == "done"]
    return [f"recovered an interrupted batch: {len(done)} step(s) finished",
            *(_note(o) for o in steps if o.status != "done")]


def _note(o: StepOutcome) -> str:
    return f"recovered an interrupted {o.op} of {o.file}: {o.status}. {o.message}".strip()


LOCK_NAME = "lock.pid"


@dataclass(frozen=True)
class Lock:
    """A held lock. `stale_pid` names the dead holder whose lock was taken over, if any."""

    path: Path
    fd: int
    stale_pid: int | None
    dir_fd: int = -1  # the memory directory, flocked

    @property
    def message(self) -> str | None:
        if self.stale_pid is None:
            return None
        return f"took over a stale lock left by pid {self.stale_pid} (no longer running)"


def lock_path(root: Path) -> Path:
    return state_subdir("journal", dir_key(root)) / LOCK_NAME


def acquire(root: Path) -> Lock:
    """Take the write lock of `root`, or raise RefusedError when a live process holds it."""
    path = lock_path(root)
    for _ in range(5):  # retry if a releasing holder unlinked the file under us
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:  # a read-only state directory: nothing was changed yet
            raise unwritable(err) from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            who = f"pid {holder}" if holder else "another process"
            raise RefusedError(f"memory directory is locked by {who} ({path}); "
                               "wait for it to finish") from None
        if _same_file(fd, path):
            dir_fd = _lock_directory(root, Lock(path=path, fd=fd, stale_pid=None))
            previous = _read_pid(fd)
            _write_pid(fd)
            stale = previous if previous not in (None, os.getpid()) else None
            return Lock(path=path, fd=fd, stale_pid=stale, dir_fd=dir_fd)
        os.close(fd)
    raise RefusedError(f"could not take the lock {path}; try again")


def _lock_directory(root: Path, state: Lock) -> int:
    """flock the memory directory itself; refuse (giving the state lock back) when another
    process holds it."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        release(state)
        raise RefusedError(f"memory directory {root} is locked by another prune-memory "
                           "process (one with another state directory, perhaps); wait for "
                           "it to finish") from None
    except OSError as err:
        os.close(fd)
        if err.errno not in _NO_FLOCK:
            release(state)
            raise
        return -1  # a filesystem without flock (some network mounts): the pid lock stays
    return fd


_NO_FLOCK = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL})


def release(lock: Lock) -> None:
    """Empty the pid file, remove it and drop the flocks."""
    with contextlib.suppress(OSError):
        os.ftruncate(lock.fd, 0)
        lock.path.unlink()
    if lock.dir_fd >= 0:
        os.close(lock.dir_fd)
    os.close(lock.fd)


# Locks this process holds, with a depth: a whole pass holds the lock while each engine
# step inside it takes it again, and flock would refuse a second descriptor.
_HELD: dict[Path, tuple[Lock, int]] = {}


@contextlib.contextmanager
def holding(root: Path) -> Iterator[Lock]:
    """`with holding(root) as lock:` — the lock for the block; re-entrant in one process."""
    key = lock_path(root)
    if key in _HELD:
        lock, depth = _HELD[key]
        _HELD[key] = (Lock(lock.path, lock.fd, None, lock.dir_fd), depth + 1)
        try:
            yield _HELD[key][0]
        finally:
            held, depth = _HELD[key]
            _HELD[key] = (held, depth - 1)
        return
    lock = acquire(root)
    _HELD[key] = (lock, 1)
    try:
        yield lock
    finally:
        del _HELD[key]
        release(lock)


def _read_pid(fd: int) -> int | None:
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 64).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


def _write_pid(fd: int) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, f"{os.getpid()}\n".encode())
    os.fsync(fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return False
    here = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (on_disk.st_dev, on_disk.st_ino)
