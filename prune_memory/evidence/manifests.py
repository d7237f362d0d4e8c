"""Dependency and version files (manifests): which paths count, their old texts through one
`cat-file --batch` process, and their texts in the working tree now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import git

from prune_memory.evidence.githistory import CommitInfo, LoggedCommit

# Manifests whose history is kept (names, dependencies); lock files are read as they are now.
HISTORY_MANIFESTS = frozenset({
    "package.json", "pyproject.toml", "Cargo.toml", "go.mod", "Pipfile",
    ".tool-versions", ".python-version", ".nvmrc", ".node-version", "rust-toolchain",
    "rust-toolchain.toml", "runtime.txt", "DESCRIPTION", "Gemfile", "composer.json",
    "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
})
LOCK_FILES = frozenset({
    "package-lock.json", "yarn.lock", "poetry.lock", "uv.lock",
    "Cargo.lock", "Pipfile.lock", "Gemfile.lock", "composer.lock",
})
MANIFEST_MAX_DEPTH = 3
MANIFEST_MAX_VERSIONS = 200
MANIFEST_MAX_BYTES = 8_000_000
SKIPPED_DIRS = frozenset({"node_modules", "vendor", "third_party", ".venv", "site-packages"})



@dataclass(frozen=True)
class ManifestVersion:
    """One manifest's text at one commit; `text` None when it was deleted there."""

    commit: str
    date: datetime
    text: str | None


def is_manifest(path: str) -> bool:
    """A dependency or version file the version and name probes read."""
    parts = path.split("/")
    name = parts[-1]
    known = (name in HISTORY_MANIFESTS or name in LOCK_FILES
             or (name.startswith("requirements") and name.endswith(".txt")))
    return known and len(parts) <= MANIFEST_MAX_DEPTH and not SKIPPED_DIRS & set(parts)


def _history_wanted(path: str) -> bool:
    return is_manifest(path) and path.rsplit("/", 1)[-1] not in LOCK_FILES


def manifest_history(repo: git.Repo, oldest_first: list[LoggedCommit],
                      ) -> tuple[dict[str, tuple[ManifestVersion, ...]], int]:
    """Old texts of the manifests, through one persistent `cat-file --batch` process."""
    wanted: dict[str, list[tuple[str, CommitInfo, bool]]] = {}
    for commit in oldest_first:
        for change in commit.changes:
            if _history_wanted(change.path):
                wanted.setdefault(change.path, []).append(
                    (change.path, commit.info, change.status == "D"))
            if change.old_path and change.status == "R" and _history_wanted(change.old_path):
                wanted.setdefault(change.old_path, []).append(
                    (change.old_path, commit.info, True))
    if not wanted:
        return {}, 0
    out: dict[str, tuple[ManifestVersion, ...]] = {}
    for path, versions in wanted.items():
        out[path] = tuple(_version(repo, p, info, gone)
                          for p, info, gone in versions[-MANIFEST_MAX_VERSIONS:])
    return out, 1


def _version(repo: git.Repo, path: str, info: CommitInfo, gone: bool) -> ManifestVersion:
    if gone:
        return ManifestVersion(info.short, info.date, None)
    try:
        _sha, _kind, size, data = repo.git.get_object_data(f"{info.sha}:{path}")
    except ValueError:
        return ManifestVersion(info.short, info.date, None)
    if size > MANIFEST_MAX_BYTES:
        return ManifestVersion(info.short, info.date, None)
    return ManifestVersion(info.short, info.date, bytes(data).decode("utf-8", "replace"))


def current_manifests(root: Path, tracked: frozenset[str]) -> dict[str, str]:
    """Manifests as they are in the working tree now (what the user runs)."""
    out: dict[str, str] = {}
    for path in sorted(p for p in tracked if is_manifest(p)):
        file = root / path
        try:
            if file.stat().st_size <= MANIFEST_MAX_BYTES:
                out[path] = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return out
