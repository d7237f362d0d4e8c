"""Step 9: reachability in both directions — what the index points at, and what it forgets."""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from prune_memory.analysis.text import headings
from prune_memory.evidence.gitrepo import RepoFacts
from prune_memory.model import JSON, Entry, EntryKind, Index, IndexLine, LinkKind, MemoryDir
from prune_memory.secrets.mask import describe
from prune_memory.store.loader import secret_tombstones
from prune_memory.store.safe_read import holds_file
from prune_memory.store.wikinames import close_match, wiki_key

_BARE_FILE = re.compile(r"(?<![\w(/\[])([\w.-]+\.md)\b")


@dataclass(frozen=True)
class Reachability:
    dangling: tuple[JSON, ...] = ()
    outside: tuple[JSON, ...] = ()  # index links that leave the directory: never followed
    orphaned: tuple[JSON, ...] = ()
    degraded: tuple[JSON, ...] = ()
    wiki_missing: tuple[JSON, ...] = ()
    body_dangling: tuple[JSON, ...] = ()  # a memory's own link to a sibling that is gone
    unloaded: tuple[JSON, ...] = ()
    unregistered_tombstones: tuple[str, ...] = ()
    missing_tombstones: tuple[JSON, ...] = ()
    orphan_share: JSON = field(default_factory=dict)
    secret_tombstones: tuple[JSON, ...] = ()

    @property
    def clean(self) -> bool:
        return not (self.dangling or self.outside or self.orphaned or self.degraded
                    or self.wiki_missing or self.body_dangling or self.unloaded
                    or self.unregistered_tombstones
                    or self.missing_tombstones or self.secret_tombstones)

    def to_json(self) -> JSON:
        return {
            "dangling": list(self.dangling), "outside": list(self.outside),
            "orphaned": list(self.orphaned),
            "degraded": list(self.degraded), "wiki_missing": list(self.wiki_missing),
            "body_dangling": list(self.body_dangling),
            "unloaded": list(self.unloaded),
            "unregistered_tombstones": list(self.unregistered_tombstones),
            "missing_tombstones": list(self.missing_tombstones),
            "orphan_share": self.orphan_share,
            "secret_tombstones": list(self.secret_tombstones),
        }


def scan(memdir: MemoryDir, register: Sequence[tuple[str, str]] = (),
         repo: RepoFacts | None = None) -> Reachability:
    """Dangling and degraded index links, orphans, broken `[[name]]` links, tombstone drift.

    `register` holds (register_id, tombstone path) pairs read from the pruning log. With the
    project's `repo`, a link out of the directory that leads nowhere is dangling too.
    """
    on_disk = {e.file for e in memdir.topics} | {e.file for e in memdir.errors}
    dangling, degraded = _index_links(memdir.index, on_disk, memdir.root) \
        if memdir.index else ([], [])
    if dangling and repo is not None and repo.available:
        dangling = _with_namesakes(dangling, repo)
    outside = _outside(memdir.index) if memdir.index else []
    if outside and repo is not None and repo.available and repo.has_commits:
        homes = _index_homes(repo)
        topics = [e.file for e in memdir.topics]
        copies = sorted(h for h in homes if _holds_this_index(h, topics, repo))
        dangling += [found for found in (_nowhere(o, memdir.root, repo, homes, copies)
                                         for o in outside) if found is not None]
    orphans = [e for e in memdir.topics if not e.indexed]
    return Reachability(
        dangling=tuple(dangling),
        outside=tuple(outside),
        orphaned=tuple({"file": e.file, "bytes": e.size} for e in orphans),
        degraded=tuple(degraded + _bare_mentions(memdir)),
        wiki_missing=tuple(_wiki_missing(memdir)),
        body_dangling=tuple(_body_dangling(memdir, on_disk)),
        unloaded=tuple(_unloaded(memdir)),
        unregistered_tombstones=_unregistered(memdir.tombstones, register),
        missing_tombstones=tuple(_missing(memdir.tombstones, register)),
        orphan_share=_share(memdir.topics, orphans),
        secret_tombstones=tuple(_secret_tombstones(memdir)),
    )


def _secret_tombstones(memdir: MemoryDir) -> list[JSON]:
    """Tombstones an older version wrote with a secret left in them, where Claude can read it."""
    if not memdir.tombstones:
        return []
    return [{"tombstone": path, "secrets": [describe(hit) for hit in hits]}
            for path, hits in secret_tombstones(memdir.root)]


def _index_links(index: Index, on_disk: set[str],
                 root: Path) -> tuple[list[JSON], list[JSON]]:
    dangling: list[JSON] = []
    degraded: list[JSON] = []
    for line in index.lines:
        for link in line.links:
            if link.external or link.escapes or link.kind is LinkKind.WIKI:
                continue
            # A file the pass reads as no topic (in a subfolder, not *.md) works all the same.
            if link.target in on_disk or link.target.startswith("deaccessioned/") \
                    or holds_file(root, link.target):
                continue
            found = {"line": line.number, "target": link.target, "text": line.text}
            near = close_match(link.target, on_disk)
            if near:
                degraded.append({**found, "likely": near})
            else:
                dangling.append(found)
    return dangling, degraded


MAX_NAMESAKES = 3


def _with_namesakes(dangling: list[JSON], repo: RepoFacts) -> list[JSON]:
    """A pointer to a missing memory whose file name the repo tracks (in any case) may mean
    that project file, copied or moved out of the folder: not dead, so a person decides."""
    wanted = {posixpath.basename(str(d["target"])).casefold() for d in dangling}
    by_name: dict[str, list[str]] = {}
    for path in sorted(repo.tracked):
        name = posixpath.basename(path).casefold()
        if name in wanted:
            by_name.setdefault(name, []).append(path)
    out: list[JSON] = []
    for d in dangling:
        namesakes = by_name.get(posixpath.basename(str(d["target"])).casefold(), [])
        out.append({**d, "namesakes": namesakes[:MAX_NAMESAKES]} if namesakes else d)
    return out


def _outside(index: Index) -> list[JSON]:
    """Index links that point out of the memory directory. They are reported on their line
    and never opened: what lies outside is not the tool's to read or to repair."""
    return [{"line": line.number, "target": link.target, "text": line.text}
            for line in index.lines for link in line.links if link.escapes]


def _nowhere(link: JSON, root: Path, repo: RepoFacts, homes: set[str],
             copies: Sequence[str]) -> JSON | None:
    """A link out of the directory that leads to no file: nothing where it points (looked
    up, never opened), nor in the repo under the path it names, read without its `../` or
    from a repo folder that holds a MEMORY.md (`homes`: an index copied out of a repo still
    means the repo's files). A path the repo renamed may only have moved: a person follows
    it. `copies`, the homes holding this folder's topic files, say where a link that
    misses a file the repo has is read from, so it can be pointed there."""
    target = str(link["target"])
    if target.startswith(("/", "\\", "~")) or re.match(r"^[a-zA-Z]:|^file:", target, re.I):
        return None
    named = posixpath.normpath(target)
    while named.startswith("../"):
        named = named[3:]
    if named in ("", ".", "..") or os.path.lexists(os.path.normpath(root / target)):
        return None
    # Where a copy of this index sits in the repo, the link means what it says from there.
    from_homes = {posixpath.normpath(posixpath.join(home, target)) for home in homes}
    if any(_in_repo(path, repo) for path in from_homes):
        return None
    if _in_repo(named, repo):
        if not copies:
            return None  # no copy of this index in the repo to read the link from
        home = copies[0]
        fixed = posixpath.relpath(named, home)
        return {**link, "outside": True, "relink": fixed,
                "why": f"from the index's folder in the repo ({home}/) it points to "
                       f"{posixpath.normpath(posixpath.join(home, target))}, which the repo "
                       f"does not have; the repo has {named}, which is {fixed} from there"}
    gone = repo.deletions.get(named)
    history = (f"the repo deleted {named} in {gone.commit} on {gone.date.date().isoformat()}"
               if gone is not None else f"the repo no longer has {named}"
               if named in repo.seen else f"the repo never had {named}")
    return {**link, "outside": True,
            "why": f"it points out of the memory folder to a file that is not there, and "
                   f"{history}"}


def _holds_this_index(home: str, topics: Sequence[str], repo: RepoFacts) -> bool:
    """The repo folder holds a copy of this memory folder: most of its topic files are
    tracked there under the same names."""
    there = sum(posixpath.join(home, name) in repo.tracked for name in topics)
    return bool(topics) and there * 2 >= len(topics)


def _in_repo(path: str, repo: RepoFacts) -> bool:
    return path in repo.tracked or path in repo.directories or path in repo.renames


def _index_homes(repo: RepoFacts) -> set[str]:
    """The folders of the repo that hold a MEMORY.md: where a copy of the index may live."""
    return {posixpath.dirname(path) for path in repo.tracked
            if posixpath.basename(path) == "MEMORY.md"}


def _bare_mentions(memdir: MemoryDir) -> list[JSON]:
    """A file named in index text but linked nowhere: the reader may never open it."""
    if memdir.index is None:
        return []
    files = {e.file for e in memdir.topics if not e.indexed}  # linked elsewhere: harmless
    out: list[JSON] = []
    for line in memdir.index.lines:
        linked = {lk.target for lk in line.links}
        for name in _BARE_FILE.findall(_without_links(line)):
            if name in files and name not in linked:
                out.append({"line": line.number, "target": name, "text": line.text,
                            "likely": name, "why": "named in text but not linked"})
    return out


def _without_links(line: IndexLine) -> str:
    return re.sub(r"\[[^\]]*\]\([^)]*\)", "", line.text)


def _wiki_missing(memdir: MemoryDir) -> list[JSON]:
    """`[[name]]` links no memory answers to, by its name or file stem, written any way a
    reader still recognises (`[[gates-pattern]]` finds `feedback_gates_pattern.md`)."""
    known = {wiki_key(n) for e in memdir.topics for n in (e.name, e.file)}
    return [{"file": e.file, "line": lk.line, "name": lk.target}
            for e in memdir.entries if e.kind is EntryKind.TOPIC
            for lk in e.links if lk.kind is LinkKind.WIKI
            and wiki_key(lk.target.split("#", 1)[0]) not in known
            and not _own_heading(e, lk.target)]


def _own_heading(entry: Entry, target: str) -> bool:
    """`[[Setup]]` or `[[#Setup]]` naming a heading of the file it is in: a link within it."""
    base, _, section = target.partition("#")
    wanted = wiki_key(section if not base.strip() else base)
    return bool(wanted) and any(wiki_key(h) == wanted for h in headings(entry.body))


def _body_dangling(memdir: MemoryDir, on_disk: set[str]) -> list[JSON]:
    """A memory's markdown link to a sibling memory (`[B](b.md)`, no folder) that is not
    there. A link with a folder is most often a repo path, which the staleness probes read."""
    return [{"file": e.file, "line": lk.line, "target": lk.target}
            for e in memdir.topics for lk in e.links
            if lk.kind is not LinkKind.WIKI and not (lk.external or lk.escapes)
            and lk.target.endswith(".md") and "/" not in lk.target
            and lk.target not in on_disk and not holds_file(memdir.root, lk.target)]


def _unloaded(memdir: MemoryDir) -> list[JSON]:
    if memdir.index is None:
        return []
    loaded = {ln.number for ln in memdir.index.lines if ln.loaded}
    return [{"file": e.file, "lines": list(e.index_lines)} for e in memdir.topics
            if e.index_lines and not loaded.intersection(e.index_lines)]


def _unregistered(tombstones: Sequence[str],
                  register: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    named = {path.removeprefix("deaccessioned/") for _, path in register}
    return tuple(t for t in tombstones if t not in named)


def _missing(tombstones: Sequence[str], register: Sequence[tuple[str, str]]) -> list[JSON]:
    present = set(tombstones)
    return [{"register_id": rid, "tombstone": path} for rid, path in register
            if path and path.removeprefix("deaccessioned/") not in present]


def _share(topics: Sequence[Entry], orphans: Sequence[Entry]) -> JSON:
    total_bytes = sum(e.size for e in topics) or 1
    return {
        "files_pct": round(100 * len(orphans) / (len(topics) or 1), 1),
        "bytes_pct": round(100 * sum(e.size for e in orphans) / total_bytes, 1),
    }
