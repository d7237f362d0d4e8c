"""The snapshot gate: a verified copy of the memory directory, outside it, before any withdrawal.

`take_snapshot` returns a `Snapshot` record. Every operation that withdraws, inoculates
or updates requires one for the same directory, taken and verified in this process
(or re-verified from its manifest with `load_snapshot`): that is the gate.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import JSON
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic
from prune_memory.store.safe_read import present, require_directory
from prune_memory.store.snapshot import MANIFEST, copy_tree, verify_manifest, write_manifest

_VERIFIED: set[tuple[Path, Path]] = set()  # (memory dir, manifest) verified in this process
ELSEWHERE = "elsewhere.txt"  # manifests written under a --snapshot-dir, one path a line


@dataclass(frozen=True)
class Snapshot:
    """A verified copy of one memory directory; the token write operations require."""

    memory_dir: Path
    path: Path
    manifest: Path
    taken_at: datetime
    files: int
    links: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        return {"memory_dir": str(self.memory_dir), "path": str(self.path),
                "manifest": str(self.manifest), "taken_at": self.taken_at.isoformat(),
                "files": self.files, "links": list(self.links), "skipped": list(self.skipped)}


def default_parent(root: Path) -> Path:
    """`$XDG_STATE_HOME/prune-memory/snapshots/<dir-key>/`."""
    return state_subdir("snapshots", dir_key(root))


def take_snapshot(root: Path, now: datetime, snapshot_dir: Path | None = None) -> Snapshot:
    """Copy `root` to `<snapshot_dir or default>/<UTC stamp>/`, write and verify the manifest."""
    require_directory(root)
    memory = root.resolve()
    if present(memory / MANIFEST):
        raise RefusedError(f"{root} already holds a {MANIFEST}; it would clash with the "
                           "snapshot manifest")
    parent = default_parent(root) if snapshot_dir is None else _chosen_parent(memory,
                                                                               snapshot_dir)
    target = _fresh_dir(parent, now)
    _refuse_inside(memory, target)
    try:
        copied = copy_tree(memory, target)
        manifest = write_manifest(target, copied.files)
        problems = verify_manifest(target, copied.files)
    except OSError as err:
        shutil.rmtree(target, ignore_errors=True)
        raise RefusedError(f"snapshot failed ({err}); nothing was changed") from err
    if problems:
        raise RefusedError(f"snapshot at {target} does not verify: {'; '.join(problems[:3])}")
    snap = Snapshot(memory_dir=memory, path=target, manifest=manifest,
                    taken_at=now.astimezone(UTC), files=len(copied.files),
                    links=copied.links, skipped=copied.skipped)
    if snapshot_dir is not None:
        _record_elsewhere(manifest)
    _VERIFIED.add((memory, manifest))
    return snap


def _chosen_parent(memory: Path, snapshot_dir: Path) -> Path:
    """A --snapshot-dir as an absolute folder we can write in, created 0700 if missing;
    BadInputError (nothing changed) for a file, or a folder we cannot create or write in."""
    parent = snapshot_dir.expanduser().absolute()
    _refuse_inside(memory, parent)
    try:
        parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # an existing one keeps its mode
    except FileExistsError as err:
        raise BadInputError(f"--snapshot-dir {snapshot_dir} is a file, not a folder") from err
    except OSError as err:
        raise BadInputError(f"--snapshot-dir {snapshot_dir} cannot be created "
                            f"({err.strerror or err})") from err
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BadInputError(f"--snapshot-dir {snapshot_dir} is not writable")
    return parent


def _elsewhere_record() -> Path:
    return state_subdir("snapshots") / ELSEWHERE


def _record_elsewhere(manifest: Path) -> None:
    """Remember a manifest written outside the state directory, so a later restore trusts it
    (and only it) when the pruning log names it."""
    record = _elsewhere_record()
    known = _recorded_elsewhere()
    line = str(manifest.resolve())
    if line not in known:
        data = "".join(f"{m}\n" for m in [*known, line])
        atomic.atomic_write(record, data.encode("utf-8", "surrogateescape"))


def _recorded_elsewhere() -> list[str]:
    try:
        raw = _elsewhere_record().read_bytes()
    except FileNotFoundError:
        return []
    return raw.decode("utf-8", "surrogateescape").splitlines()


def trusted_snapshot(root: Path, manifest: str) -> Path:
    """The snapshot folder of a manifest the pruning log names, when the tool itself wrote
    it there: under the state directory's snapshots, or a --snapshot-dir it recorded. The
    log is a file anyone can edit, so any other path is refused before it is read."""
    path = Path(manifest)
    resolved = path.resolve() if path.is_absolute() else None
    memory = root.resolve()
    ours = resolved is not None and path.name == MANIFEST and not (
        resolved == memory or memory in resolved.parents) and (
        state_subdir("snapshots").resolve() in resolved.parents
        or str(resolved) in _recorded_elsewhere())
    if resolved is None or not ours:
        raise RefusedError(f"the pruning log names the snapshot manifest {manifest!r}, which "
                           "prune-memory did not write (it is not under its state directory's "
                           "snapshots nor a recorded --snapshot-dir); not reading it")
    return resolved.parent


def load_snapshot(root: Path, manifest: Path, taken_at: datetime) -> Snapshot:
    """Re-verify an existing snapshot (say, one taken by `plan` in another process)."""
    memory = root.resolve()
    target = manifest.parent.resolve()
    _refuse_inside(memory, target)
    if not manifest.is_file():
        raise RefusedError(f"no snapshot manifest at {manifest}")
    problems = verify_manifest(target)
    if problems:
        raise RefusedError(f"snapshot at {target} does not verify: {'; '.join(problems[:3])}")
    files = sum(1 for _ in manifest.read_text(encoding="utf-8", errors="replace").splitlines())
    _VERIFIED.add((memory, target / MANIFEST))
    return Snapshot(memory_dir=memory, path=target, manifest=target / MANIFEST,
                    taken_at=taken_at, files=files)


def require_snapshot(snapshot: Snapshot | None, root: Path) -> Snapshot:
    """The gate: refuse (exit 4) unless `snapshot` is a verified copy of `root`, still on disk."""
    if snapshot is None:
        raise RefusedError("no verified snapshot for this pass; run the snapshot step first")
    memory = root.resolve()
    if snapshot.memory_dir != memory:
        raise RefusedError(f"the snapshot is of {snapshot.memory_dir}, not of {memory}")
    if (memory, snapshot.manifest) not in _VERIFIED:
        raise RefusedError("the snapshot was not verified in this pass; take a new one")
    if not snapshot.manifest.is_file():
        raise RefusedError(f"snapshot manifest {snapshot.manifest} is gone; take a new one")
    return snapshot


def _refuse_inside(memory: Path, target: Path) -> None:
    """A snapshot inside the directory it protects would be pruned with it: refuse."""
    resolved = target.expanduser().resolve()
    if resolved == memory or memory in resolved.parents:
        raise RefusedError(f"snapshot target {target} is inside the memory directory "
                           f"{memory}; choose a folder outside it")


def _fresh_dir(parent: Path, now: datetime) -> Path:
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    for n in range(1, 1000):
        candidate = parent / (stamp if n == 1 else f"{stamp}-{n}")
        try:
            candidate.mkdir(mode=0o700)
        except FileExistsError:
            continue
        candidate.chmod(0o700)
        return candidate
    raise BadInputError(f"too many snapshots named {stamp} in {parent}")
