"""Copy a memory directory byte for byte and write a `sha256sum`-compatible manifest.

Symlinks are copied as symlinks and never followed, so a link pointing out of the memory
directory cannot pull outside files into the copy; the manifest lists regular files only.
A file or folder whose name holds a secret is stored under a digest of its name
(`stored_name`), so neither the manifest nor a listing of the snapshot shows the secret.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from prune_memory.store import atomic
from prune_memory.store.safe_read import read_regular

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
