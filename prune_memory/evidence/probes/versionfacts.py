"""Declared packages and runtimes now and through history, parsed once per pass."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from prune_memory.evidence.gitrepo import ManifestVersion, RepoFacts
from prune_memory.evidence.manifests import ManifestFacts, parse_manifest
from prune_memory.evidence.probes.tools import COMMON_WORDS, RUNTIMES, SPELLINGS, same_role

MIN_NAME = 3


@dataclass(frozen=True)
class Declared:
    """One package or runtime as one file declares it now."""

    path: str
    spec: str
    locked: bool = False


@dataclass(frozen=True)
class Departure:
    """A package that was in a manifest and is not any more."""

    package: str
    manifest: str
    commit: str
    date: datetime
    last_spec: str
    successors: tuple[str, ...]


@dataclass(frozen=True)
class Change:
    commit: str
    date: datetime
    before: str


@dataclass(frozen=True)
class VersionState:
    packages: Mapping[str, tuple[Declared, ...]]
    runtimes: Mapping[str, tuple[Declared, ...]]
    departed: Mapping[str, Departure]
    history: Mapping[str, tuple[tuple[ManifestVersion, ManifestFacts], ...]]
    mentions: re.Pattern[str] | None
    # a framework named by its scope ("Capacitor 7") → the scope's core package
    scopes: Mapping[str, str] = field(default_factory=dict)

    def last_change(self, package: str, manifest: str) -> Change | None:
        """The commit where `package`'s spec in `manifest` last changed to its current value."""
        versions = self.history.get(manifest, ())
        specs = [(v, f.packages.get(package)) for v, f in versions if v.text is not None]
        for (_before, old), (after, new) in zip(specs[-2::-1], specs[:0:-1], strict=False):
            if old != new:
                return Change(after.commit, after.date, old or "absent")
        return None


def version_state(facts: RepoFacts) -> VersionState:
    packages: dict[str, list[Declared]] = {}
    runtimes: dict[str, list[Declared]] = {}
    for path, text in facts.current_manifests.items():
        parsed = parse_manifest(path, text)
        for name, spec in parsed.packages.items():
            packages.setdefault(name, []).append(Declared(path, spec, parsed.locked))
        for name, spec in parsed.runtimes.items():
            runtimes.setdefault(name, []).append(Declared(path, spec, True))
    history = {path: tuple((v, parse_manifest(path, v.text or "")) for v in versions)
               for path, versions in facts.manifests.items()}
    departed = _departures(history, packages)
    scopes = _scopes(packages)
    names = set(packages) | set(departed) | set(scopes)
    return VersionState({k: tuple(v) for k, v in packages.items()},
                        {k: tuple(v) for k, v in runtimes.items()}, departed, history,
                        _mention_pattern(names), scopes)


def _scopes(packages: Mapping[str, list[Declared]]) -> dict[str, str]:
    """`capacitor` → `@capacitor/core`: a framework published as a scope of packages is
    named by its scope, and its version is its core package's."""
    out: dict[str, str] = {}
    for name in packages:
        scope, _, rest = name.removeprefix("@").partition("/")
        if name.startswith("@") and rest == "core" and len(scope) >= MIN_NAME \
                and scope not in packages:
            out[scope] = name
    return out


def _departures(history: Mapping[str, tuple[tuple[ManifestVersion, ManifestFacts], ...]],
                current: Mapping[str, list[Declared]]) -> dict[str, Departure]:
    out: dict[str, Departure] = {}
    for path, versions in history.items():
        for index, (version, parsed) in enumerate(versions[:-1]):
            if version.text is None:
                continue
            following = versions[index + 1]
            for package in set(parsed.packages) - set(following[1].packages):
                if package in current or _back_later(versions[index + 1:], package):
                    continue
                successors = tuple(sorted(p for p in same_role(package)
                                          if p in current and p not in parsed.packages))
                out[package] = Departure(package, path, following[0].commit, following[0].date,
                                         parsed.packages[package], successors)
    return out


def _back_later(versions: tuple[tuple[ManifestVersion, ManifestFacts], ...],
                package: str) -> bool:
    return any(package in parsed.packages for _v, parsed in versions[1:])


def _mention_pattern(names: set[str]) -> re.Pattern[str] | None:
    """One case-insensitive pattern for every package, alias and runtime worth looking for."""
    words = {n for n in names if (len(n) >= MIN_NAME and "/" not in n) or n.startswith("@")}
    words |= {a for a, target in SPELLINGS.items() if target in names}
    words |= set(RUNTIMES)
    words.discard("")
    ordered = sorted(words, key=len, reverse=True)
    body = "|".join(re.escape(w).replace(r"\-", "[-_. ]?") for w in ordered)
    return re.compile(rf"(?<![\w@/.-])(?:{body})(?![\w/-]|\.\w)", re.IGNORECASE) if body else None


def resolve(written: str) -> tuple[str, str]:
    """("package", name) or ("runtime", name) for a mention as written."""
    lowered = written.lower()
    if lowered in RUNTIMES:
        return "runtime", RUNTIMES[lowered]
    if lowered in SPELLINGS:
        return "package", SPELLINGS[lowered]
    return "package", re.sub(r"[-_. ]+", "-", lowered)


def needs_marking(written: str) -> bool:
    """A package named like an ordinary word only counts in backticks or with a version."""
    return written.lower() in COMMON_WORDS
