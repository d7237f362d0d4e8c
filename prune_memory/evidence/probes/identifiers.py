"""name-drift of code: functions, classes, constants and keys a memory names that the code
no longer holds, with the commit that took them out and, where it has one, their successor.

A name the code holds confirms the claim; one it lacks proves nothing by itself (a
library's, another repo's, not yet written) unless history shows the code held it when the
memory was last written and a later commit removed it. Where that commit put a new name on
the same lines, the memory is corrected to it. A name still in the code can have left the
file the memory puts it in (`NAV_ITEMS` moved out of `Layout.jsx`): drift, proved the same
way from that file's history.

The cost does not grow with the memories: the source files are read once; only for names
they lack, one `git grep` of the tree as it was when the oldest memory naming them was
written (in the files changed since), one `git log -G` of those files, and one `git grep -l`
of the whole tree (a name that moved into a data file is not gone). Names that left their
file ride on the same log and the same `git grep -l`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from prune_memory.analysis.text import CHANGE_WORDS, says_absent
from prune_memory.evidence.gitrepo import (
    COMMIT_MARK,
    FIELD_MARK,
    files_with_words,
    word_changes,
    words_at,
)
from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    Correction,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.evidence.probes.codenames import names_in
from prune_memory.evidence.probes.evidence import commit_fields, said
from prune_memory.evidence.probes.pathfacts import entry_mentions
from prune_memory.model import Entry, FindingCode

KIND = "identifier"
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_NAMES = 2000  # per pass: past this, a folder is more prose than code
MAX_PATHS = 4000  # a longer pathspec is no narrower than the whole tree
# Where code names live: source files, read whole when small. Data (JSON, XML, assets) and
# documentation hold names too, but say nothing of what the code defines or calls.
SOURCE_SUFFIXES = frozenset({
    "py", "pyi", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "vue", "svelte",
    "astro", "cs", "fs", "fsx", "vb", "java", "kt", "kts", "scala", "groovy", "gradle", "go",
    "rs", "rb", "php", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm", "swift",
    "dart", "lua", "sh", "bash", "zsh", "fish", "ps1", "psm1", "sql", "graphql", "gql",
    "proto", "ex", "exs", "erl", "hrl", "hs", "elm", "clj", "cljs", "r", "jl", "pl", "pm",
    "tf", "hcl", "nix", "zig", "v", "sol", "yaml", "yml", "toml", "ini", "cfg", "env",
})
MAX_FILE_BYTES = 256 * 1024
MAX_READ_BYTES = 48 * 1024 * 1024  # past this the code is too big to read on every plan
_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]{3,}")


@dataclass(frozen=True)
class Removal:
    """The commit that took a name out of the code, where, and what replaced it there."""

    name: str
    commit: str
    date: datetime
    path: str
    successor: str | None
    # when only this file lost it: the files holding it now; whether only its definition left
    now_in: tuple[str, ...] | None = None
    definition: bool = False


@dataclass(frozen=True)
class CodeNames:
    """What the repo says of every name the memories give: held now, or removed when.
    `complete` is False when the code was too big to read whole: then nothing is gone."""

    present: frozenset[str]
    removed: Mapping[str, Removal]
    complete: bool = True
    # (entry, name) → how a name still in the code left the file that entry puts it in
    left: Mapping[tuple[str, str], Removal] = field(default_factory=dict)


class IdentifierProbe:
    """Checks each code name a memory gives against the code now and, when gone, history."""

    code = FindingCode.NAME_DRIFT

    def prefetch(self, ctx: ProbeContext) -> None:
        if ctx.facts.available and ctx.facts.root is not None and (names := _names(ctx)):
            ctx.prefetch("identifiers.repo", lambda: _read_code_names(ctx, names))

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        if not ctx.facts.available or ctx.facts.root is None:
            return EMPTY
        names = _names(ctx)
        mine = names.get(entry.file, ())
        if not mine:
            return EMPTY
        known = ctx.memo("identifiers.repo", lambda: _read_code_names(ctx, names))
        claims: list[Claim] = []
        result = EMPTY
        written = entry.written_at[0]
        for name in mine:
            if name in known.present or not known.complete:
                left = known.left.get((entry.file, name))
                if left is None:
                    claims.append(Claim(KIND, name, Verdict.CONFIRMED, "in the code now"))
                    continue
                claims.append(Claim(KIND, name, Verdict.CONTRADICTED,
                                    f"taken out of {left.path} in {left.commit} on "
                                    f"{left.date.date()}"))
                result = result + _flagged(entry, left, ctx)
                continue
            gone = known.removed.get(name)
            if gone is None and ctx.facts.partial:
                claims.append(Claim(KIND, name, Verdict.UNVERIFIABLE, "not in the code now; "
                                    "the clone lacks the old contents that would say when"))
                continue
            if gone is None or gone.date <= written:
                continue  # never in the code we can see, or gone before it was written
            claims.append(Claim(KIND, name, Verdict.CONTRADICTED,
                                f"removed in {gone.commit} on {gone.date.date()}"))
            result = result + _flagged(entry, gone, ctx)
        return ProbeResult(tuple(claims)) + result


def _flagged(entry: Entry, gone: Removal, ctx: ProbeContext) -> ProbeResult:
    fields = commit_fields(ctx, gone.commit)
    written = entry.written_at[0].date().isoformat()
    if gone.now_in is not None:
        held = "defined in" if gone.definition else "in"
        where = (f"it is now {held} {gone.now_in[0]}" if len(gone.now_in) == 1 else
                 f"the name is still in {len(gone.now_in)} other files "
                 f"({', '.join(gone.now_in[:3])}{', …' if len(gone.now_in) > 3 else ''})"
                 if gone.now_in else "the name is still in the code elsewhere")
        if gone.successor:
            where = f"`{gone.successor}` stands in its place there; {where}"
        message = (f"`{gone.name}` is no longer {held} {gone.path}, where this memory puts it: "
                   f"{gone.commit} ({fields['date']}) took it out, after this memory was "
                   f"written ({written}); {where}")
        evidence = said(f"`{gone.name}` in {gone.path}", "moved" if gone.now_in else "gone",
                        kind=KIND, file=gone.path, current=None,
                        moved_to=list(gone.now_in[:3]), **fields)
        return ProbeResult((), (flag(FindingCode.NAME_DRIFT, message, evidence),))
    if gone.successor:
        message = (f"`{gone.name}` is no longer in the code: {gone.commit} "
                   f"({fields['date']}) replaced it with `{gone.successor}` in {gone.path}, "
                   f"after this memory was written ({written})")
        fix: tuple[Correction, ...] = (Correction(gone.name, gone.successor),)
    else:
        message = (f"`{gone.name}` is no longer in the code: {gone.commit} "
                   f"({fields['date']}) removed it from {gone.path}, after this memory was "
                   f"written ({written})")
        fix = ()
    evidence = said(gone.name, gone.successor or "gone", kind=KIND, file=gone.path,
                    current=gone.successor, **fields)
    return ProbeResult((), (flag(FindingCode.NAME_DRIFT, message, evidence, *fix),))


def _homes(entry: Entry, ctx: ProbeContext, names: Sequence[str]) -> dict[str, str]:
    """Name → the tracked source file the memory puts it in: the one such file named on
    the name's own line, else the memory's only source file."""
    files = [m for m in entry_mentions(entry, ctx)
             if not m.is_dir and m.path in ctx.facts.tracked and _is_source(m.path)]
    if not files:
        return {}
    only = files[0].path if len(files) == 1 else None
    wanted = frozenset(names)
    out: dict[str, str] = {}
    for line in entry.text.splitlines():
        here = {m.path for m in files if any(raw in line for raw in (m.raw, *dict(m.also)))}
        home = next(iter(here)) if len(here) == 1 else None if here else only
        for name in names_in(line):
            if home is not None and name in wanted:
                out.setdefault(name, home)
    return out


def _departure_candidates(ctx: ProbeContext, names: Mapping[str, Sequence[str]],
                          present: frozenset[str]
                          ) -> tuple[dict[tuple[str, str], str], dict[str, bytes | None]]:
    """(entry, name) → the file the memory puts a name in that is still in the code but
    no longer in that file, or brought into it from elsewhere now; and the files' text."""
    root = ctx.facts.root
    assert root is not None
    by_file = {e.file: e for e in ctx.memdir.entries}
    texts: dict[str, bytes | None] = {}
    wanted: dict[tuple[str, str], str] = {}
    for file, found in names.items():
        for name, home in _homes(by_file[file], ctx, [n for n in found if n in present]).items():
            if home not in texts:
                texts[home] = _read_source(root / home)
            data = texts[home]
            if data is not None and (not _holds(data, name) or _import_of(name).search(data)):
                wanted[(file, name)] = home
    return wanted, texts


def _departures(log: Sequence[Patch], wanted: Mapping[tuple[str, str], str],
                texts: Mapping[str, bytes | None], ctx: ProbeContext
                ) -> dict[tuple[str, str], Removal]:
    """Of the candidates, those the log shows taken out of their file (the name, or its
    definition where the file still uses it) after the memory was written."""
    by_file = {e.file: e for e in ctx.memdir.entries}
    every = frozenset(n for _f, n in wanted)
    history: dict[tuple[bool, str, str], list[tuple[bool, Removal]]] = {}
    for defined, put, change in _line_changes(log, every):
        history.setdefault((defined, change.name, change.path), []).append((put, change))
    left: dict[tuple[str, str], Removal] = {}
    for (file, name), home in wanted.items():
        level = (_holds(texts[home] or b"", name), name, home)  # the name, or its definition
        since = [(put, c) for put, c in history.get(level, ())
                 if c.date > by_file[file].written_at[0]]  # newest first
        # the first change after the memory took it out: the file held it then
        if since and not since[-1][0]:
            left[(file, name)] = next(c for put, c in since if not put)
    return left


def _placed(left: Mapping[tuple[str, str], Removal], holders: Mapping[str, list[str]],
            texts: Mapping[str, bytes | None], root: Path) -> dict[tuple[str, str], Removal]:
    """Each departure with the files that hold the name now; one whose definition left a
    file that still uses it counts only when another file defines it."""
    out: dict[tuple[str, str], Removal] = {}
    for key, gone in left.items():
        now = tuple(p for p in holders.get(gone.name, ()) if p != gone.path)
        definition = _holds(texts[gone.path] or b"", gone.name)
        if definition:
            now = tuple(p for p in now if _declares(_read_source(root / p) or b"", gone.name))
            if not now:
                continue
        out[key] = replace(gone, now_in=now, definition=definition)
    return out


@lru_cache(maxsize=4096)
def _declaration(name: str) -> re.Pattern[bytes]:
    word = re.escape(name.encode())
    return re.compile(rb"(?:\b(?:const|let|var|def|class|function|fn|func|type|interface|enum|"
                      rb"struct|trait|val)\s+" + word + rb"(?![A-Za-z0-9_])|^[ \t]*(?:export\s+)?"
                      + word + rb"\s*(?::[^=\n]*)?=(?!=))", re.MULTILINE)


@lru_cache(maxsize=4096)
def _import_of(name: str) -> re.Pattern[bytes]:
    """A line that brings `name` in from another module: `import { NAME } from`, `from x
    import NAME`, `const { NAME } = require(…)`, `use x::NAME`."""
    word = rb"(?<![A-Za-z0-9_])" + re.escape(name.encode()) + rb"(?![A-Za-z0-9_])"
    return re.compile(rb"^[ \t]*(?:import\b|from\s+\S+\s+import\b|export\s*\{|use\s|"
                      rb"(?:const|let|var)\s*\{[^}\n]*\}\s*=\s*require\b)[^\n]*" + word,
                      re.MULTILINE)


def _declares(data: bytes, name: str) -> bool:
    return _declaration(name).search(data) is not None


def _declared_in(lines: list[str], name: str) -> bool:
    return any(name in line and _declares(line.encode(), name) for line in lines)


def _line_changes(log: Sequence[Patch],
                  wanted: frozenset[str]) -> Iterator[tuple[bool, bool, Removal]]:
    """(of its definition?, put in?, the change) each time a commit took a wanted name, or
    its definition, out of a file or put it in; newest first."""
    for patch in log:
        for name, path, date, removal in _name_changes(patch, wanted):
            yield False, removal is None, removal or Removal(name, "", date, path, None)
        for name in sorted(wanted & (patch.was | patch.still)):
            before, after = _declared_in(patch.removed, name), _declared_in(patch.added, name)
            if before != after:
                yield True, after, Removal(name, patch.short, patch.date, patch.path, None)


def _read_source(path: Path) -> bytes | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= MAX_FILE_BYTES else None


@lru_cache(maxsize=4096)
def _whole_word(name: str) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(name.encode()) + rb"(?![A-Za-z0-9_])")


def _holds(data: bytes, name: str) -> bool:
    return name.encode() in data and _whole_word(name).search(data) is not None


def _names(ctx: ProbeContext) -> dict[str, tuple[str, ...]]:
    return ctx.memo("identifiers.names", lambda: _names_by_entry(ctx))


def _names_by_entry(ctx: ProbeContext) -> dict[str, tuple[str, ...]]:
    """Each entry's code names, leaving out those it says are gone or renamed."""
    out: dict[str, tuple[str, ...]] = {}
    total = 0
    for entry in ctx.memdir.entries:
        if entry.memory_type == "superseded":
            continue
        gone_clauses = _gone_clauses(entry)
        names = [n for n in names_in(entry.text)
                 if not any(n in clause for clause in gone_clauses)]
        if names and total < MAX_NAMES:
            out[entry.file] = tuple(names)
            total += len(names)
    return out


_CLAUSE_END = re.compile(r"[.!?;。！？；]\s*")


def _gone_clauses(entry: Entry) -> list[str]:
    """The clauses in which the memory itself says something was removed, renamed or is
    missing: a name in one of them is told gone."""
    return [clause for line in entry.text.splitlines() for clause in _CLAUSE_END.split(line)
            if CHANGE_WORDS.search(clause) or says_absent(clause)]


def _read_code_names(ctx: ProbeContext, names: Mapping[str, Sequence[str]]) -> CodeNames:
    """One `git grep` of the tree as it was, one `git log -G` of the files concerned and one
    `git grep -l` of the tree now, for every name gone from the code and every name gone
    from the file its memory puts it in."""
    root = ctx.facts.root
    assert root is not None
    exclude = _memory_inside(root, ctx.memdir.root)
    every = sorted({n for found in names.values() for n in found})
    held, complete = _source_words(root, ctx.facts.tracked, exclude)
    present = frozenset(n for n in every if n.encode() in held)
    absent = [n for n in every if n not in present]
    if not complete:
        return CodeNames(present, {}, complete)
    wanted, texts = _departure_candidates(ctx, names, present)
    by_file = {e.file: e for e in ctx.memdir.entries}
    dates = [by_file[file].written_at[0] for file, found in names.items()
             if any(n not in present for n in found)]
    dates += [by_file[file].written_at[0] for file, _name in wanted]
    if not dates:
        return CodeNames(present, {})
    base, changed = _changed_since(ctx, min(dates), exclude)
    if base is None or not changed:
        return CodeNames(present, {})
    where = words_at(root, absent, base, changed if len(changed) <= MAX_PATHS else [],
                     exclude=exclude) if absent else {}
    homes = set(wanted.values()) & set(changed)
    wanted = {key: home for key, home in wanted.items() if home in homes}
    files = sorted({p for paths in where.values() for p in paths} | homes)
    if not files:
        return CodeNames(present, {})
    log = word_changes(root, sorted(set(where) | {n for _f, n in wanted}), base,
                       files if len(files) <= MAX_PATHS else ["."])
    patches = _patches(log)  # read once for both questions
    removed = _removals(patches, frozenset(where))
    left = _departures(patches, wanted, texts, ctx)
    holders = _holders(root, sorted(set(removed) | {n for _f, n in left}), exclude)
    still = frozenset(removed) if holders is None else frozenset(n for n in removed
                                                                  if n in holders)
    return CodeNames(present | still, {n: r for n, r in removed.items() if n not in still},
                     left=_placed(left, holders or {}, texts, root))


def _source_words(root: Path, tracked: frozenset[str],
                  exclude: Sequence[str]) -> tuple[frozenset[bytes], bool]:
    """Every name-like word of the tracked source files, read from the work tree; False
    when they are more than can be read on every plan."""
    words: set[bytes] = set()
    total = 0
    for path in sorted(tracked):
        if not _is_source(path) or _excluded(path, exclude):
            continue
        data = _read_source(root / path)
        if data is None:
            continue  # unreadable, or generated or vendored: not where names are defined
        total += len(data)
        if total > MAX_READ_BYTES:
            return frozenset(words), False
        words.update(_TOKEN.findall(data))
    return frozenset(words), True


def _holders(root: Path, names: list[str],
             exclude: Sequence[str]) -> dict[str, list[str]] | None:
    """Name → the tracked files, documentation aside, that hold it as a whole word, in one
    `git grep -l`; None when they are too many to read (then every name is somewhere)."""
    if not names:
        return {}
    files = files_with_words(root, names, exclude=list(exclude))
    if len(files) > 200:
        return None
    found: dict[str, list[str]] = {}
    for path in sorted(files):
        try:
            with (root / path).open("rb") as handle:
                data = handle.read(4 * 1024 * 1024)
        except OSError:
            continue
        for name in names:
            if _holds(data, name):
                found.setdefault(name, []).append(path)
    return found


def _is_source(path: str) -> bool:
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return suffix in SOURCE_SUFFIXES


def _excluded(path: str, exclude: Sequence[str]) -> bool:
    return any(path == e or path.startswith(e + "/") for e in exclude)


def _memory_inside(root: Path, memory: Path) -> list[str]:
    """The memory directory's path in the repo, when it sits inside it (a memory is not code
    even when committed)."""
    try:
        return [memory.resolve().relative_to(root.resolve()).as_posix()]
    except (ValueError, OSError):
        return []


def _changed_since(ctx: ProbeContext, when: datetime,
                   exclude: Sequence[str]) -> tuple[str | None, list[str]]:
    """The last commit at `when`, and the code files that existed then and changed after."""
    base = None
    changed: set[str] = set()
    after = False
    for commit in ctx.facts.history:  # oldest first; dates need not rise (rebases)
        if not after and commit.info.date <= when:
            base = commit.info.sha
            continue
        after = True
        if base is None:
            return None, []
        for change in commit.changes:
            old = change.old_path if change.status[:1] in "RC" else change.path
            if change.status[:1] in "MDRT" and old is not None:
                changed.add(old)
    return base, [p for p in sorted(changed) if _is_source(p) and not _excluded(p, exclude)]


def _removals(log: Sequence[Patch], wanted: frozenset[str]) -> dict[str, Removal]:
    """The newest commit removing each name, from `git log -G -p -U0` output (newest
    first), and the name that took its place on the same lines, when one did."""
    out: dict[str, Removal] = {}
    for patch in log:
        for _name, _path, _date, removal in _name_changes(patch, wanted):
            if removal is not None:
                out.setdefault(removal.name, removal)
    return out


def _name_changes(patch: Patch, wanted: frozenset[str]
                  ) -> Iterator[tuple[str, str, datetime, Removal | None]]:
    """(name, path, date, its removal) for each wanted name the patch took out of its file
    or (removal None) put in."""
    for name in sorted((patch.was & wanted) - patch.still):
        yield name, patch.path, patch.date, Removal(
            name, patch.short, patch.date, patch.path,
            _successor(name, patch.removed, patch.added))
    for name in sorted((patch.still & wanted) - patch.was):
        yield name, patch.path, patch.date, None


@dataclass(frozen=True)
class Patch:
    """One file's change in one commit of `git log -p -U0`: its lines out and in, and the
    words of each side (split once, asked by both questions)."""

    short: str
    date: datetime
    path: str
    removed: list[str]
    added: list[str]
    was: frozenset[str]
    still: frozenset[str]


def _words(lines: list[str]) -> frozenset[str]:  # one scan, not one per line
    return frozenset(_WORD.findall("\n".join(lines)))


def _patches(log: str) -> list[Patch]:
    """Every file change of `git log -p` output, in its order (newest first)."""
    out: list[Patch] = []
    for block in log.split(COMMIT_MARK)[1:]:
        head, _, patch = block.partition("\n")
        short, _, stamp = head.partition(FIELD_MARK)
        try:
            date = datetime.fromisoformat(stamp.strip())
        except ValueError:
            continue
        out += [Patch(short, date, path, removed, added, _words(removed), _words(added))
                for path, removed, added in _files(patch)]
    return out


def _files(patch: str) -> list[tuple[str, list[str], list[str]]]:
    out: list[tuple[str, list[str], list[str]]] = []
    path, removed, added = "", [], []  # type: ignore[var-annotated]
    for line in patch.splitlines():
        if line.startswith("diff --git "):
            if path:
                out.append((path, removed, added))
            path, removed, added = line.rsplit(" b/", 1)[-1], [], []
        elif line.startswith(("---", "+++")):
            continue
        elif line.startswith("-"):
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
    if path:
        out.append((path, removed, added))
    return out


def _successor(name: str, removed: list[str], added: list[str]) -> str | None:
    """The one name that stands where `name` stood: an added line equal to a removed line
    holding `name` but for that one word. None unless every such pairing agrees."""
    votes: Counter[str] = Counter()
    by_length: dict[int, list[list[str]]] = {}
    for line in removed:
        if name not in line:
            continue
        before = _WORD.findall(line)
        if name not in before:
            continue
        if not by_length:  # the added lines' words, split once for every removed line
            for other in added:
                words = _WORD.findall(other)
                by_length.setdefault(len(words), []).append(words)
        for after in by_length.get(len(before), ()):
            swaps = {(a, b) for a, b in zip(before, after, strict=True) if a != b}
            if len(swaps) == 1 and next(iter(swaps))[0] == name:
                votes[next(iter(swaps))[1]] += 1
    return votes.most_common(1)[0][0] if len(votes) == 1 else None


__all__ = ["CodeNames", "IdentifierProbe", "Removal"]
