"""path-drift: paths a memory names that git shows were deleted or renamed since.

Only history proves a path stale. A path that is present (tracked, the tail of a tracked
path, on disk), ignored, never seen by git, a placeholder, or named in a sentence about a
plan or an absence is not evidence of anything: it is recorded as a claim and left alone.
One present path is: a memory that says it does not exist, written before git added it.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections.abc import Iterator

from prune_memory.analysis.sessions import fact_rule
from prune_memory.analysis.text import (
    has_standalone,
    mentions_change,
    planned,
    says_absent,
    sentence_with,
)
from prune_memory.evidence.gitrepo import DeletionFact, RenameFact
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
from prune_memory.evidence.probes.evidence import arrivals, commit_fields, said, subject_note
from prune_memory.evidence.probes.pathclaims import PathMention
from prune_memory.evidence.probes.pathfacts import (
    entry_mentions,
    fate,
    ignored,
    is_placeholder,
    present,
    suffixes,
    untracked_only,
)
from prune_memory.evidence.probes.plans import plan_document, plan_word
from prune_memory.model import JSON, Entry, EntryKind, FindingCode

KIND = "path"
# A file pattern in code: a folder's files (`src/*.ts`, `tests/**`) or an extension's
# (`*.test.js`); a route (`/api/*`), a home path or a regex is none.
_PATTERN = re.compile(r"`((?:[\w.-]+/)+[\w.*-]*\*[\w.*/-]*|\*\*?/?[\w*-]*\.[A-Za-z][\w.]*)`")
# A file a heading names: `src/app.py`, browse.py, docs/ (a bare word is no file).
_FILE_IN_HEADING = re.compile(r"`?(?:[\w.-]+/)+[\w.-]*`?|`?[\w-]+\.[A-Za-z][\w]{0,5}`?(?![\w/])")


class PathProbe:
    """Checks every path-like mention against the tree, the ignore rules and the history."""

    code = FindingCode.PATH_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        mentions = entry_mentions(entry, ctx)
        result = EMPTY
        for mention in mentions:
            result = result + _check_one(entry, mention, ctx)
        if ctx.facts.available and "*" in entry.text:
            for pattern in dict.fromkeys(_PATTERN.findall(entry.text)):
                result = result + _check_pattern(entry, pattern, ctx)
        if entry.kind is EntryKind.INDEX_LINE and ctx.facts.available:
            result = result + _section_subject(entry, ctx, {m.path for m in mentions})
        return result


def _pattern_left(pattern: str, ctx: ProbeContext) -> dict[str, DeletionFact | RenameFact] | None:
    """None when `pattern` matches a file tracked now; else the files it matched that left
    the tree, with how each left (asked once per pattern, whichever memories give it)."""
    translated = fnmatch.translate(pattern)
    matches = re.compile(f"(?:{translated})|(?:.*/{translated})")
    if any(matches.match(path) for path in ctx.facts.tracked):
        return None
    left: dict[str, DeletionFact | RenameFact] = {
        path: moved for path, moved in ctx.facts.renames.items() if matches.match(path)}
    left.update((path, gone) for path, gone in ctx.facts.deletions.items() if matches.match(path))
    return left


def _check_pattern(entry: Entry, pattern: str, ctx: ProbeContext) -> ProbeResult:
    """A file pattern (`src/lib/*-algorithm.js`, `*.test.js`) that matches files git tracks
    holds; one that matches none now, though it matched files git tracked once, is stale,
    with the commit the last of them left in (renamed, or deleted)."""
    left = ctx.memo(f"path.pattern:{pattern}", lambda: _pattern_left(pattern, ctx))
    if left is None:
        return ProbeResult((Claim(KIND, pattern, Verdict.CONFIRMED, "matches files tracked now"),))
    sentence = sentence_with(entry, f"`{pattern}`")
    if not left or mentions_change(sentence) or planned(sentence) or says_absent(sentence):
        return EMPTY
    last = max(left.values(), key=lambda f: f.date)
    went = [f.current for f in left.values() if isinstance(f, RenameFact) and f.current]
    where = f"renamed, e.g. to `{went[0]}`" if len(went) == len(left) else \
        "deleted" if not went else f"{len(left) - len(went)} deleted, {len(went)} renamed"
    story = (f"matches no file the repo tracks now; it matched {len(left)} that git tracked "
             f"({where}), the last gone in {last.commit} on {last.date.date()}")
    evidence = said(pattern, "no file", matched=len(left), renamed_to=went[:3],
                    **commit_fields(ctx, last.sha or last.commit))
    return ProbeResult((Claim(KIND, pattern, Verdict.CONTRADICTED, story),), (flag(
        FindingCode.PATH_DRIFT, f"`{pattern}` {story}{subject_note(ctx, last.commit)}",
        evidence),))


def _section_subject(entry: Entry, ctx: ProbeContext, own: set[str]) -> ProbeResult:
    """A fact under a heading that names a file ("## browse.py Commands") is about that
    file: when git shows it deleted, so is what the fact describes (unless the fact states
    a rule of its own, which may outlive the file)."""
    heading = _heading_of(entry, ctx)
    if not heading or fact_rule(entry.body):
        return EMPTY
    out = EMPTY
    for path in dict.fromkeys(m.strip("`").rstrip("/.") for m in _FILE_IN_HEADING.findall(heading)):
        if path in own or present(path, ctx) or ignored(path, ctx):
            continue
        found = fate(path, ctx) or _deleted_wherever(path, ctx)
        if not isinstance(found, DeletionFact) or untracked_only(found, ctx):
            continue  # a rename leaves the subject alive under another name
        story = f"deleted in {found.commit} on {found.date.date()}"
        evidence = said(path, "deleted", section=heading,
                        **commit_fields(ctx, found.sha or found.commit))
        message = (f"its section ({heading!r}) is about `{path}`, which was {story}"
                   f"{subject_note(ctx, found.commit)}")
        out = out + ProbeResult((), (flag(FindingCode.PATH_DRIFT, message, evidence),))
    return out


def _deleted_wherever(name: str, ctx: ProbeContext) -> DeletionFact | None:
    """The latest deletion of a name no file holds now, when every path that ever ended
    so was deleted (two copies of `browse.py`, both gone)."""
    history = suffixes(ctx, "history", lambda: [*ctx.facts.renames, *ctx.facts.deletions])
    found = [ctx.facts.deletions.get(full) or _end_of(ctx.facts.renames.get(full))
             for full in history.get(name, ())]
    if not found or any(f is None for f in found):
        return None
    return max((f for f in found if f is not None), key=lambda f: f.date)


def _end_of(moved: RenameFact | None) -> DeletionFact | None:
    """The deletion a chain of renames ended in, if it did."""
    return moved.deleted if moved is not None and moved.current is None else None


def _heading_of(entry: Entry, ctx: ProbeContext) -> str | None:
    index = ctx.memdir.index
    if index is None or not entry.index_lines:
        return None
    sections = ctx.memo("path.sections", lambda: {ln.number: ln.section for ln in index.lines})
    return sections.get(entry.index_lines[0])


def _check_one(entry: Entry, mention: PathMention, ctx: ProbeContext) -> ProbeResult:
    if not ctx.facts.available:
        if not mention.has_slash:
            return EMPTY
        return _claim(mention, Verdict.UNVERIFIABLE, "no git repository to check against")
    path = mention.path
    if is_placeholder(path):
        return EMPTY
    where = present(path, ctx) or (_basename_present(path, ctx) if not mention.has_slash
                                   else None)
    if where is not None:
        if where.startswith("tracked ") and _said_ignored(entry, mention):
            return _tracked_not_ignored(mention, where)
        if where.startswith("tracked ") and (added := _added_since_said_missing(
                entry, mention, ctx)) is not None:
            return added
        if (moved := _moved_under(path, where, ctx)) is not None and not _told_as_history(
                entry, sentence_with(entry, mention.raw).replace(mention.raw, ""), moved):
            return _drift(mention, moved, ctx)
        return _claim(mention, Verdict.CONFIRMED, where)
    if ignored(path, ctx):
        return _claim(mention, Verdict.UNVERIFIABLE, "gitignored: it lives on a disk, not in git")
    found = fate(path, ctx)
    lone = not _path_shaped(mention)
    if found is None:
        if path in ctx.facts.seen and not lone:
            return _gone_untraced(mention)
        return _claim(mention, Verdict.UNVERIFIABLE,
                      "never tracked here: it may live elsewhere") if mention.has_slash else EMPTY
    if plan_word(entry) is not None and not plan_document(path):
        return EMPTY  # a plan names what it will change: the plan probe reads those paths
    if untracked_only(found, ctx):
        return _claim(mention, Verdict.UNVERIFIABLE, "taken out of git, not deleted: it may "
                                                     "still be on the user's disk")
    sentence = sentence_with(entry, mention.raw).replace(mention.raw, "")  # its own words aside
    if _told_as_history(entry, sentence, found):
        return _claim(mention, Verdict.CONFIRMED, "mentioned as history of a rename or removal")
    # "the plan is in docs/plan.md" says where a plan is, not what it will change
    if (planned(sentence) and not plan_document(path)) or says_absent(sentence):
        return _claim(mention, Verdict.UNVERIFIABLE, "named in a plan or as absent, not as there")
    return _drift(mention, found, ctx, lone=lone)


def _moved_under(path: str, where: str, ctx: ProbeContext) -> RenameFact | None:
    """`api/main.py` tracked now only as the tail of `src/app/api/main.py` because git moved
    that very path there: the file the memory names, under its new path, not a short name."""
    moved = ctx.facts.renames.get(path)
    if moved is None or moved.current is None or "/" not in path:
        return None
    return moved if where == f"tracked as `{moved.current}`" else None


def _drift(mention: PathMention, found: RenameFact | DeletionFact,
           ctx: ProbeContext, *, lone: bool = False) -> ProbeResult:
    result = _drift_of(mention, found, ctx)
    if not lone:
        return result
    # A lone name (`inventory`) may be a host, an image or a package that shares an old
    # directory's name: shown for a person, never corrected or taken as the subject.
    flagged = tuple(Flagged(dataclasses.replace(
        item.finding, message=item.finding.message + "; a lone name, so it may mean something "
        "else called that", evidence={**item.finding.evidence, "ambiguous": True}))
        for item in result.flagged)
    return ProbeResult(result.claims, flagged)


def _drift_of(mention: PathMention, found: RenameFact | DeletionFact,
              ctx: ProbeContext) -> ProbeResult:
    if isinstance(found, DeletionFact):
        story = f"deleted in {found.commit} on {found.date.date()}"
        evidence = said(mention.path, "deleted", **commit_fields(ctx, found.sha or found.commit))
        named = f"`{mention.path}`"
        if found.path != mention.path:
            evidence["tracked_as"] = found.path
            named += f" (`{found.path}`)"
        message = f"{named} was {story}{subject_note(ctx, found.commit)}"
        return _contradicted(mention, story, message, evidence)
    story = _rename_story(found)
    evidence = said(mention.path, found.current or "not tracked",
                    **commit_fields(ctx, found.sha or found.commit))
    evidence["chain"] = [{"from": h.old, "to": h.new, "similarity": h.similarity,
                          **commit_fields(ctx, h.sha or h.commit)} for h in found.hops]
    if found.deleted is not None:
        evidence["deleted"] = commit_fields(ctx, found.deleted.sha or found.deleted.commit)
    message = f"`{mention.path}` was {story}{subject_note(ctx, found.hops[-1].commit)}"
    if found.current is None:
        return _contradicted(mention, story, message, evidence)
    evidence["current_path"] = found.current
    evidence["similarity"] = min(h.similarity for h in found.hops)
    new = _successor(mention.path, found)
    return _contradicted(mention, story, message, evidence, *_fixes(mention, new))


def _fixes(mention: PathMention, new: str) -> list[Correction]:
    """One correction for each way the entry writes the path as a path: a lone word that
    shares the name (`inventory`) may mean something else, so it is left as written."""
    if mention.line:  # a name listed under its folder: that list line, written as it was
        rel = new[len(mention.base) + 1:] if new.startswith(mention.base + "/") else new
        return [Correction(mention.line, mention.line.replace(f"`{mention.raw}`", f"`{rel}`", 1),
                           bounded=False)]
    fixes: list[Correction] = []
    others = [(raw, explicit) for raw, explicit in mention.also if _shaped(raw, mention.path)]
    for raw, explicit in ((mention.raw, mention.explicit), *others):
        fix = _fix(raw, explicit, mention.path, new)
        if fix.old not in {f.old for f in fixes}:
            fixes.append(fix)
    return fixes


def _fix(raw: str, explicit: bool, path: str, new: str) -> Correction:
    """Rewrite the path where it is written as a path: inside its backticks, or (bare) with
    its slashes. The same word elsewhere in the prose is not touched."""
    rewritten = _rewrite(raw, path, new)
    if explicit and "/" not in raw:
        return Correction(f"`{raw}`", f"`{rewritten}`", bounded=False)
    return Correction(raw, rewritten)


def _successor(path: str, found: RenameFact) -> str:
    """The new name written the way the memory wrote the old one: a tail stays a tail."""
    old_full = found.hops[0].old
    current = found.current or path
    if old_full == path or not old_full.endswith("/" + path):
        return current
    prefix = old_full[: -len(path)]
    return current[len(prefix):] if current.startswith(prefix) else current


def _rename_story(found: RenameFact) -> str:
    first = found.hops[0]
    story = f"renamed to `{first.new}` in {first.commit} on {first.date.date()}"
    for hop in found.hops[1:]:
        story += f", then to `{hop.new}` in {hop.commit} on {hop.date.date()}"
    if found.deleted is not None:
        story += (f", and `{found.last_name}` was deleted in {found.deleted.commit} "
                  f"on {found.deleted.date.date()}")
    elif found.current is None:
        story += f"; `{found.last_name}` is not tracked now"
    return story


def _contradicted(mention: PathMention, story: str, message: str, evidence: JSON,
                  *fixes: Correction) -> ProbeResult:
    claim = Claim(KIND, mention.raw, Verdict.CONTRADICTED, story)
    return ProbeResult((claim,), (flag(FindingCode.PATH_DRIFT, message, evidence, *fixes),))


_IGNORED_SAID = re.compile(r"\(?\s*(?:git-?ignored|in \.gitignore|not in git|not tracked|"
                           r"untracked|never committed|not committed)", re.IGNORECASE)


def _beside(entry: Entry, mention: PathMention) -> Iterator[tuple[str, str]]:
    """The text before and after the path, on each line that names it."""
    for line in entry.text.splitlines():
        at = line.find(mention.raw)
        if at >= 0:
            yield line[:at], line[at + len(mention.raw):]


def _said_ignored(entry: Entry, mention: PathMention) -> bool:
    """The memory says, right after naming the path, that git does not have it."""
    return any(_IGNORED_SAID.match(after.lstrip("` *")[:40])
               for _before, after in _beside(entry, mention))


# "`x` does not exist", "there is no `x`", "`x` is missing": said of the path next to it.
_MISSING_AFTER = re.compile(
    r"[`*\s]*(?:\(|—|-|:|,)?\s*(?:(?:does|do)(?:n'?t| not) exist|is (?:missing|absent|not "
    r"(?:there|present|in the repo))|(?:is|are|was|were) not (?:yet )?(?:created|committed))",
    re.IGNORECASE)
_MISSING_BEFORE = re.compile(r"(?:there(?:'s| is| are) no|\bno such)\s*[`*]*$", re.IGNORECASE)


def _said_missing(entry: Entry, mention: PathMention) -> str | None:
    """The words, right beside the path, in which the memory says it is not there."""
    for before, after in _beside(entry, mention):
        if found := _MISSING_AFTER.match(after[:60]) or _MISSING_BEFORE.search(before[-30:]):
            return found.group(0).strip(" `*")
    return None


def _added_since_said_missing(entry: Entry, mention: PathMention,
                              ctx: ProbeContext) -> ProbeResult | None:
    """Said not to exist, and git added it after the memory was written: history proves the
    memory stale (a file that was there already when it was written proves nothing of the
    kind: the sentence may be a condition, "if X does not exist, create it")."""
    words = _said_missing(entry, mention)
    if words is None:
        return None
    commits = arrivals(ctx).get(mention.path)
    added = commits[-1] if commits else None  # the latest arrival
    if added is None or added.date <= entry.written_at[0]:
        return None
    story = f"git added it in {added.short} on {added.day}, after this memory was written"
    message = f"says `{mention.path}` {words}, but {story}{subject_note(ctx, added.sha)}"
    evidence = said(f"{mention.path} {words}", "tracked", kind="added-since",
                    **commit_fields(ctx, added.sha))
    return _contradicted(mention, story, message, evidence)


def _tracked_not_ignored(mention: PathMention, where: str) -> ProbeResult:
    story = f"git tracks it ({where}): it is committed, not ignored"
    message = (f"says `{mention.path}` is not in git, but {story}; anything secret in it "
               "is published with the repo")
    evidence = said(mention.path, "tracked", kind="tracked-not-ignored", commit=None, date=None)
    return _contradicted(mention, story, message, evidence)


def _gone_untraced(mention: PathMention) -> ProbeResult:
    story = "not tracked now, though earlier commits had it"
    message = f"`{mention.path}` is {story}; the history does not show one place it went"
    evidence = said(mention.path, "not tracked", commit=None, date=None)
    return _contradicted(mention, story, message, evidence)


def _told_as_history(entry: Entry, sentence: str, found: RenameFact | DeletionFact) -> bool:
    """The entry itself records the move or removal, so the old name is not a stale claim."""
    if mentions_change(sentence):
        return True
    if isinstance(found, RenameFact):
        return any(has_standalone(entry.text, hop.new) or has_standalone(entry.text, tail)
                   for hop in found.hops for tail in (hop.new.rsplit("/", 1)[-1],)
                   if tail != hop.old.rsplit("/", 1)[-1])
    return False


def _rewrite(raw: str, path: str, current: str) -> str:
    index = raw.find(path)
    return raw[:index] + current + raw[index + len(path):] if index >= 0 else current


def _claim(mention: PathMention, verdict: Verdict, note: str) -> ProbeResult:
    return ProbeResult((Claim(KIND, mention.raw, verdict, note),))


def _path_shaped(mention: PathMention) -> bool:
    """Written so it can only be a path: with a slash, or a file name with its extension.
    A lone word (`inventory`) may name a host, an image or a crate that shares the name of
    an old directory, so its history is no evidence."""
    return _shaped(mention.raw, mention.path)


def _shaped(raw: str, path: str) -> bool:
    return "/" in path or raw.rstrip("`").endswith("/") or "." in path.strip(".")


def _basename_present(path: str, ctx: ProbeContext) -> str | None:
    names = ctx.memo("path.basenames",
                     lambda: frozenset(p.rsplit("/", 1)[-1] for p in ctx.facts.tracked))
    return "a tracked file has this name" if path in names else None
