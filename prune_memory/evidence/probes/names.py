"""name-drift: the project or a package was renamed, and a memory still uses the old name.

Old names come from the `name` field of each manifest through history. When an old
and a new name differ in one dash-separated part (`pebble-api` → `cairn-api`), that
part is a renamed project word too (`pebble` → `cairn`). The git remote says what
the repository is called now, and URLs to the old repository name are caught.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from prune_memory.analysis.text import entry_sentences, match_case, mentions_change, short_quote
from prune_memory.evidence.gitrepo import RepoFacts
from prune_memory.evidence.manifests import parse_manifest
from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    Correction,
    Flagged,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.evidence.probes.evidence import commit_fields, said, subject_note
from prune_memory.model import Entry, FindingCode

KIND = "name"
MIN_WORD = 4
# Sub-package names that are also everyday words: a rename of one is no signal in prose.
GENERIC_NAMES = frozenset({
    "api", "app", "web", "www", "site", "docs", "ui", "cli", "lib", "core", "common", "shared",
    "utils", "util", "tools", "scripts", "client", "server", "frontend", "backend", "service",
    "services", "worker", "admin", "main", "src", "test", "tests", "packages", "root", "demo",
    "example", "examples", "template", "project", "monorepo", "workspace",
})
REPO_URL = re.compile(r"(?:https?://|ssh://git@|git@)(?P<host>[\w.-]+)[/:](?P<owner>[\w.-]+)/"
                      r"(?P<repo>[\w.-]+?)(?:\.git)?(?=[/#?\s)\]`'\">]|$)")


@dataclass(frozen=True)
class Rename:
    old: str
    new: str
    manifest: str
    commit: str
    date: datetime


@dataclass(frozen=True)
class NameState:
    renames: Mapping[str, Rename]  # keyed by old name, lower case
    pattern: re.Pattern[str] | None
    remote: tuple[str, str, str] | None


class NameProbe:
    code = FindingCode.NAME_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        state = ctx.memo("name.state", lambda: name_state(ctx.facts))
        if state.pattern is None:
            return EMPTY
        claims: list[Claim] = []
        stale: list[tuple[str, Rename, tuple[Correction, ...], str]] = []
        done: set[str] = set()
        for sentence in entry_sentences(entry):
            for written, rename, fixes in _mentions(sentence, state):
                key = "|".join(f.old for f in fixes)
                if key in done:
                    continue
                done.add(key)
                if _as_history(sentence, rename):
                    claims.append(Claim(KIND, written, Verdict.CONFIRMED,
                                        "mentioned as history of the rename"))
                else:
                    claims.append(Claim(KIND, written, Verdict.CONTRADICTED, _story(rename)))
                    stale.append((written, rename, fixes, sentence))
        if not stale:
            return ProbeResult(tuple(claims))
        return ProbeResult(tuple(claims), (_finding(stale, state, ctx),))


def _mentions(sentence: str, state: NameState,
              ) -> Iterator[tuple[str, Rename, tuple[Correction, ...]]]:
    """Old names in prose, and links to the repository under an old name."""
    if state.remote is not None:
        for match in REPO_URL.finditer(sentence):
            rename = state.renames.get(match.group("repo").lower())
            fix = _url_fix(match, state.remote)
            if rename is not None and fix is not None:
                yield match.group("repo"), rename, (fix,)
    if state.pattern is not None:
        for match in state.pattern.finditer(sentence):
            written = match.group("old")
            rename = state.renames[written.lower()]
            yield written, rename, (Correction(written, match_case(written, rename.new)),)


def name_state(facts: RepoFacts) -> NameState:
    """Every old name → current name pair the manifests' history shows."""
    found: dict[str, Rename] = {}
    for path, versions in facts.manifests.items():
        current_text = facts.current_manifests.get(path)
        current = parse_manifest(path, current_text).name if current_text else None
        if not current:
            continue
        named = [(v, parse_manifest(path, v.text).name) for v in versions if v.text is not None]
        for (_v, old), (after, new) in pairwise(named):
            if old and new != old and old != current and _distinctive(old):
                _add(found, Rename(old, current, path, after.commit, after.date))
    renames = {**_word_renames(found), **found}
    remote = _split_url(facts.remote_url) if facts.remote_url else None
    olds = sorted(renames, key=len, reverse=True)
    body = "|".join(re.escape(o) for o in olds)
    pattern = re.compile(rf"(?<![\w@/.-])(?P<old>{body})(?![\w/-]|\.\w)",
                         re.IGNORECASE) if body else None
    return NameState(renames, pattern, remote)


def _distinctive(name: str) -> bool:
    """Long enough and not an everyday word, so finding it in prose means the project."""
    return len(name) >= 3 and not name.isdigit() and name.lower() not in GENERIC_NAMES


def _add(found: dict[str, Rename], rename: Rename) -> None:
    key = rename.old.lower()
    if key not in found or found[key].date < rename.date:
        found[key] = rename


def _word_renames(full: Mapping[str, Rename]) -> dict[str, Rename]:
    """`pebble-api` → `cairn-api` also renames the word `pebble`, if no pair disagrees."""
    words: dict[str, Rename] = {}
    clashes: set[str] = set()
    for rename in full.values():
        old_parts, new_parts = re.split(r"[-_.]", rename.old), re.split(r"[-_.]", rename.new)
        if len(old_parts) != len(new_parts) or len(old_parts) < 2:
            continue
        changed = [(o, n) for o, n in zip(old_parts, new_parts, strict=True) if o != n]
        if len(changed) != 1 or len(changed[0][0]) < MIN_WORD or not _distinctive(changed[0][0]):
            continue
        old, new = changed[0]
        key = old.lower()
        if key in words and words[key].new != new:
            clashes.add(key)
        words[key] = Rename(old, new, rename.manifest, rename.commit, rename.date)
    return {k: v for k, v in words.items() if k not in clashes}


def _as_history(sentence: str, rename: Rename) -> bool:
    return mentions_change(sentence) or re.search(
        rf"(?<![\w-]){re.escape(rename.new)}(?![\w-])", sentence, re.IGNORECASE) is not None


def _story(rename: Rename) -> str:
    return (f"`{rename.old}` became `{rename.new}` in {rename.manifest} in {rename.commit} "
            f"on {rename.date.date()}")


def _finding(stale: list[tuple[str, Rename, tuple[Correction, ...], str]], state: NameState,
             ctx: ProbeContext) -> Flagged:
    """One finding per entry, listing every old name it uses."""
    stories = "; ".join(dict.fromkeys(_story(r) for _w, r, _f, _s in stale))
    first = stale[0][1]
    if state.remote is not None and any(r.new.lower() == state.remote[2].lower()
                                        for _w, r, _f, _s in stale):
        stories += f"; the remote is now {'/'.join(state.remote)}"
    olds = ", ".join(f"`{w}`" for w, _r, _f, _s in stale)
    message = f"uses the old name{'s' if len(stale) > 1 else ''} {olds}: {stories}" \
        f"{subject_note(ctx, first.commit)}"
    evidence = said([w for w, _r, _f, _s in stale], [r.new for _w, r, _f, _s in stale],
                    file=sorted({r.manifest for _w, r, _f, _s in stale}),
                    remote="/".join(state.remote) if state.remote else None,
                    sentence=list(dict.fromkeys(short_quote(s) for _w, _r, _f, s in stale))[:5],
                    **commit_fields(ctx, first.commit))
    fixes = tuple(fix for _w, _r, f, _s in stale for fix in f)
    return flag(FindingCode.NAME_DRIFT, message, evidence, *fixes)


def _url_fix(match: re.Match[str], remote: tuple[str, str, str]) -> Correction | None:
    """Point a link at the repository's current name, when host and owner are the remote's."""
    host, owner, repo = match.group("host", "owner", "repo")
    same_home = (host.lower(), owner.lower()) == (remote[0].lower(), remote[1].lower())
    if not same_home or repo == remote[2]:
        return None
    old = match.group(0)
    return Correction(old, old[: match.start("repo") - match.start()] + remote[2], bounded=False)


def _split_url(url: str) -> tuple[str, str, str] | None:
    match = REPO_URL.match(url)
    if match is None:
        return None
    return match.group("host"), match.group("owner"), match.group("repo")
