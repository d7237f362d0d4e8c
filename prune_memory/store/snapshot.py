"""The snapshot: a verified copy of the memory directory, outside it, before any withdrawal.

`take_snapshot` copies the directory byte for byte and writes a `sha256sum`-compatible
manifest, and returns a `Snapshot` record. Every operation that withdraws, inoculates or
updates requires one for the same directory, taken and verified in this process (or
re-verified from its manifest with `load_snapshot`): that is the gate.

Symlinks are copied as symlinks and never followed, so a link pointing out of the memory
directory cannot pull outside files into the copy; the manifest lists regular files only.
A file or folder whose name holds a secret is stored under a digest of its name
(`stored_name`), so neither the manifest nor a listing of the snapshot shows the secret.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import JSON
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic
from prune_memory.store.safe_read import present, read_regular, require_directory

MANIFEST = "MANIFEST.sha256"


@dataclass(frozen=True)
class CopiedTree:
    files: dict[str, str]  # posix path relative to the root → sha256 of the bytes read
    links: tuple[str, ...]  # symlinks recreated as links, not followed
    skipped: tuple[str, ...]  # sockets, fifos, devices, files this user cannot read


def copy_tree(source: Path, target: Path) -> CopiedTree:
    """Copy `source` into the empty directory `target`; hash every regular file as it is read."""
    files: dict[str, str] = {}
    links: list[str] = []
    skipped: list[str] = []
    for folder, dirs, names in os.walk(source, followlinks=False):
        rel_dir = Path(stored_path(Path(folder).relative_to(source).as_posix()))
        for name in sorted(dirs):
            src = Path(folder) / name
            here = rel_dir / stored_name(name)
            if src.is_symlink():
                links.append(_copy_link(src, target / here, here))
            else:
                (target / here).mkdir(mode=0o700)
        dirs[:] = sorted(d for d in dirs if not (Path(folder) / d).is_symlink())
        for name in sorted(names):
            src, rel = Path(folder) / name, (rel_dir / stored_name(name)).as_posix()
            info = os.lstat(src)
            if stat.S_ISLNK(info.st_mode):
                links.append(_copy_link(src, target / rel, Path(rel)))
            elif not copied(info):
                skipped.append(rel)
            elif (digest := _copy_file(src, target / rel, info)) is None:
                skipped.append(rel)  # unreadable: the pass passes over it too (loader)
            else:
                files[rel] = digest
        atomic.fsync_dir(target / rel_dir)
    return CopiedTree(files=files, links=tuple(links), skipped=tuple(skipped))


def copied(info: os.stat_result) -> bool:
    """Whether a snapshot copies this file: every regular file (a leftover temp file too,
    since only recorded temp names are ours). The undo of a pass compares the directory
    with the snapshot by this same rule."""
    return stat.S_ISREG(info.st_mode)


def stored_name(name: str) -> str:
    """The name a file or folder gets in the snapshot: its own, unless it holds a secret;
    then `masked-name-<digest of the name>`, which `read_snapshot_file` finds again."""
    from prune_memory.secrets.mask import mask_text

    if name in ("", ".") or mask_text(name) == name:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()
    return f"masked-name-{digest[:32]}"


def stored_path(rel: str) -> str:
    return "/".join(stored_name(part) for part in rel.split("/"))


def masked_in_snapshot(rel: str) -> bool:
    """Whether a manifest path is one `stored_name` gave a digest for (its real name is not
    in the snapshot)."""
    return any(_MASKED_NAME.fullmatch(part) for part in rel.split("/"))


_MASKED_NAME = re.compile(r"masked-name-[0-9a-f]{32}")


def _copy_file(src: Path, dst: Path, info: os.stat_result) -> str | None:
    """Copy one file into the fresh snapshot folder (no rename needed: nobody reads it
    yet), fsynced; mode and times kept. None, and nothing copied, when this user may not
    read it."""
    if (data := _readable(src)) is None:
        return None
    out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        atomic.write_all(out, data)
        os.fchmod(out, stat.S_IMODE(info.st_mode))
        os.fsync(out)
    finally:
        os.close(out)
    os.utime(dst, ns=(info.st_atime_ns, info.st_mtime_ns))
    return hashlib.sha256(data).hexdigest()


def _copy_link(src: Path, dst: Path, rel: Path) -> str:
    os.symlink(os.readlink(src), dst)
    return rel.as_posix()


def manifest_line(rel: str, digest: str) -> str:
    """One `sha256sum` line; names with a backslash or newline use its escaped form."""
    if any(ch in rel for ch in "\\\n\r"):
        escaped = rel.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
        return f"\\{digest}  {escaped}\n"
    return f"{digest}  {rel}\n"


def write_manifest(target: Path, files: dict[str, str]) -> Path:
    path = target / MANIFEST
    text = "".join(manifest_line(rel, files[rel]) for rel in sorted(files))
    atomic.atomic_write(path, text.encode("utf-8", errors="surrogateescape"))
    return path


def read_manifest(path: Path) -> dict[str, str]:
    """Path → digest from a manifest in `sha256sum` format."""
    found: dict[str, str] = {}
    text = read_regular(path).decode("utf-8", errors="surrogateescape")
    for line in text.split("\n")[:-1]:  # only "\n" ends a line: a name may hold \f or U+2028
        escaped = line.startswith("\\")
        digest, _, rel = line.removeprefix("\\").partition("  ")
        if escaped:
            rel = rel.replace("\\\\", "\0").replace("\\n", "\n").replace("\\r", "\r")
            rel = rel.replace("\0", "\\")
        found[rel] = digest
    return found


def verify_manifest(target: Path, copied: dict[str, str] | None = None) -> list[str]:
    """Problems found re-hashing every file the manifest of `target` names (empty: verified).
    With `copied` (what the copy hashed as it read), the manifest must name exactly those
    files with those hashes: a name it cannot hold exactly would show up here."""
    problems: list[str] = []
    listed = read_manifest(target / MANIFEST)
    if copied is not None and listed != copied:
        odd = sorted(set(listed) ^ set(copied))[:3]
        problems.append(f"the manifest does not name what was copied: {odd!r}")
    for rel, digest in listed.items():
        try:
            data = read_regular(target / rel)
        except OSError:
            problems.append(f"{rel}: missing from the snapshot")
            continue
        if hashlib.sha256(data).hexdigest() != digest:
            problems.append(f"{rel}: bytes differ from the manifest")
    return problems


def read_snapshot_file(target: Path, rel: str) -> bytes | None:
    """Bytes of one file of a snapshot, if it is there and matches the manifest."""
    rel = stored_path(rel)
    try:
        digest = read_manifest(target / MANIFEST).get(rel)
        data = read_regular(target / rel) if digest is not None else b""
    except OSError:
        return None
    return data if digest is not None and hashlib.sha256(data).hexdigest() == digest else None


def tree_state(root: Path) -> dict[str, str]:
    """sha256 of every file under `root` a snapshot would copy (relative posix path)."""
    found: dict[str, str] = {}
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]
        for name in names:
            path = Path(folder) / name
            if copied(os.lstat(path)) and (data := _readable(path)) is not None:
                found[path.relative_to(root).as_posix()] = hashlib.sha256(data).hexdigest()
    return found


def _readable(path: Path) -> bytes | None:
    """The bytes of a regular file, or None when permission is denied: one unreadable
    file is passed over by the snapshot and the undo alike, and never stops the pass."""
    try:
        return read_regular(path)
    except PermissionError:
        return None


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
