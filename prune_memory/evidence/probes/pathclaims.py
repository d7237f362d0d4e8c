"""Find the repo paths a memory mentions: in backticks, in links, and bare `dir/file.ext` forms."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from prune_memory.model import INDEX_FILE, OWN_FILES, TOMBSTONE_DIR, Entry, MemoryDir

BACKTICK = re.compile(r"`([^`\n]+)`")
# The scheme is bounded: unbounded, a long run like "a-a-a-…" is rescanned from every
# word start (quadratic: 20 s for 250 KB).
URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,40}://\S+|\bwww\.\S+")
BARE = re.compile(r"(?<![\w@/:~$%.#\\-])((?:\.?/)?\w[\w.-]*/(?:[\w.-]+/)*(?:[\w.-]+)?)")
# A bare file name in prose ("or start.sh"), kept only when the repo ever had it at its root.
BARE_FILE = re.compile(r"(?<![\w/.@:~$-])([\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9})(?![\w/-])")
FILE_NAME = re.compile(r"^[\w.-]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,9}$")
LOCATION_SUFFIX = re.compile(r"(?::\d+(?::\d+)?|#L\d+(?:-L?\d+)?)$")
NOT_A_PATH = re.compile(r"[*?\[\]{}<>|;&=@$!^\"'\\,()]|://|^[~-]|^\.\./|/\.\./|//")
DOMAIN_LIKE = re.compile(r"^[\w-]+\.(?:com|org|net|io|dev|ai|co|app|gov|edu)$", re.IGNORECASE)
TRAILING = ".,;:!?)"


@dataclass(frozen=True)
class PathMention:
    """A path as written (`raw`) and as a repo-relative path (`path`, no trailing slash)."""

    raw: str
    path: str
    is_dir: bool
    explicit: bool
    # The other ways the entry writes the same path ((raw, explicit) each): one claim, but
    # a fix has to reach every one of them.
    also: tuple[tuple[str, bool], ...] = ()
    # A bare name listed under a folder's heading: the folder (`base`) and the list line it
    # stands on, which is all a fix may rewrite (the same name elsewhere is another file).
    base: str = ""
    line: str = ""

    @property
    def has_slash(self) -> bool:
        return "/" in self.path


def memory_names(memdir: MemoryDir) -> frozenset[str]:
    """Names that point into the memory directory itself, never into the repo."""
    names = {e.file for e in memdir.topics} | set(OWN_FILES) | {INDEX_FILE}
    names |= {f"{TOMBSTONE_DIR}/{t}" for t in memdir.tombstones} | set(memdir.tombstones)
    names |= {f.rstrip("/") for f in memdir.other_files}
    return frozenset(names)


def path_mentions(entry: Entry, root: Path | None, known: frozenset[str],
                  skip: frozenset[str]) -> list[PathMention]:
    """Every distinct path-like mention in an entry, in order of appearance.

    `known` holds every path and directory the repo has ever had: it decides whether
    a backticked phrase with spaces is one path or several words, and whether a
    slash-separated word without an extension is a directory worth checking.
    """
    text = entry.text
    listed = list(_listed_in_folders(text, known))
    only_listed = {m.raw for m in listed if text.count(f"`{m.raw}`") == sum(
        1 for n in listed if n.raw == m.raw)}
    found: list[PathMention] = list(listed)
    for content in BACKTICK.findall(text):
        if content not in only_listed:
            found.extend(_from_code(content, root, known))
    for link in entry.links:
        if not (link.external or link.escapes or link.kind.value == "wiki"):
            found.extend(_candidate(link.target, root, known, explicit=True))
    bare_text = URL.sub(" ", BACKTICK.sub(" ", text))
    for match in BARE.finditer(bare_text):
        found.extend(_candidate(match.group(1), root, known, explicit=False))
    for match in BARE_FILE.finditer(bare_text):
        name = match.group(1).rstrip(TRAILING)
        if name in known:
            found.append(PathMention(name, name, False, False))
    unique: dict[str, PathMention] = {}
    for mention in found:
        first = unique.get(mention.path)
        if first is None:
            if mention.path not in skip:
                unique[mention.path] = mention
        elif mention.raw != first.raw and (mention.raw, mention.explicit) not in first.also:
            unique[mention.path] = replace(first, also=(*first.also,
                                                        (mention.raw, mention.explicit)))
    return list(unique.values())


# "**`docs/`** (what users read)", "## src/api/": a line that names one folder, whose list
# below gives that folder's files by bare name.
_FOLDER_HEAD = re.compile(r"^\s*(?:#{1,6}\s+|\*\*|__)?\s*`?((?:[\w.-]+/)+)`?(?:\*\*|__)?"
                          r"(?:\s*[(（:：—–-].*|\s*)$")
_LIST_ITEM = re.compile(r"^(\s*)[-*+]\s+`([^`/\s]+/?)`")


def _listed_in_folders(text: str, known: frozenset[str]) -> Iterator[PathMention]:
    """Bare names in lists under a folder's heading (and under a listed sub-folder), each
    as the path the list gives it, when the repo ever had a file there."""
    folders: list[tuple[int, str]] = []  # (indent, folder) from the heading down
    for line in text.splitlines():
        if not line.strip():
            continue
        if head := _FOLDER_HEAD.match(line):
            folders = [(-1, head.group(1).strip("/"))]
            continue
        item = _LIST_ITEM.match(line)
        if item is None or not folders:
            folders = []  # prose ends the list, and with it the folder's reach
            continue
        indent, name = len(item.group(1)), item.group(2)
        while len(folders) > 1 and folders[-1][0] >= indent:
            folders.pop()
        base = folders[-1][1]
        if name.endswith("/"):
            folders.append((indent, f"{base}/{name.rstrip('/')}"))
        elif FILE_NAME.match(name) and f"{base}/{name}" in known:
            yield PathMention(name, f"{base}/{name}", False, True, base=base, line=line)


def _from_code(content: str, root: Path | None, known: frozenset[str]) -> Iterator[PathMention]:
    whole = content.strip()
    if " " not in whole or _normal(whole, root) in known:
        yield from _candidate(whole, root, known, explicit=True, spaces_ok=True)
        return
    for word in whole.split():
        yield from _candidate(word, root, known, explicit=True)


def _candidate(raw: str, root: Path | None, known: frozenset[str], *, explicit: bool,
               spaces_ok: bool = False) -> Iterator[PathMention]:
    raw = LOCATION_SUFFIX.sub("", raw if raw.endswith("/") else raw.rstrip(TRAILING))
    if not raw or (" " in raw and not spaces_ok) or NOT_A_PATH.search(raw):
        return
    path = _normal(raw, root)
    if not path or path == ".":
        return
    first, last = path.split("/", 1)[0], path.rsplit("/", 1)[-1]
    if DOMAIN_LIKE.match(first) and path not in known:
        return
    file_like = FILE_NAME.match(last) is not None
    as_dir = raw.endswith("/")
    if path in known or file_like:
        yield PathMention(raw, path, as_dir or not file_like, explicit)
    elif _worth_a_directory_check(path, first, as_dir, explicit, known):
        yield PathMention(raw, path, True, explicit)


def _worth_a_directory_check(path: str, first: str, as_dir: bool, explicit: bool,
                             known: frozenset[str]) -> bool:
    """`dir/` written with a slash, or a backticked `a/b` under a directory the repo has."""
    if as_dir:
        return explicit or len(first) > 1
    return explicit and "/" in path and first in known


def _normal(raw: str, root: Path | None) -> str | None:
    """Repo-relative form of a path as written; None when it points outside the repo."""
    path = raw.strip()
    if path.startswith("/"):
        if root is None:
            return None
        prefix = str(root).rstrip("/") + "/"
        if not path.startswith(prefix):
            return None
        path = path[len(prefix):]
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")
