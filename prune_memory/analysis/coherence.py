"""Step 9's reading of the whole: does the index tell one orderly story, and which memories
were left as fragments of one topic? Everything here is a proposal for a person (review),
never a repair the pass applies on its own.

Index coherence: one pointer per topic file, no pointers loose above the first section of
an index that has sections, no empty or repeated sections, and a pointer under a section
named for a memory type ("## Feedback") points at a file of that type.
Fragments: two short topic files about one topic (the same name stem, or many shared words)
are better merged into one; the near-duplicate check already covers the closer pairs.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from prune_memory.analysis.contradictions import FILLER, stem
from prune_memory.analysis.duplicates import Closest
from prune_memory.analysis.pointers import pointer_target
from prune_memory.analysis.setjoin import BOUNDED
from prune_memory.analysis.similarity import TokenSets, jaccard, threshold_fraction, tokens
from prune_memory.model import JSON, Entry, IndexLine, MemoryDir

FRAGMENT_MAX_CHARS = 400
FRAGMENT_JACCARD = 0.5  # content words in common, but below NEAR: not the same text
NEAR = 0.8  # the near-duplicate check's threshold
MIN_SHARED_WORDS = 3
MERGE_PARTNERS = 5  # proposals named per fragment, its closest partners first
FAMILY_MAX = 4  # more files under one name stem are a family on purpose, not fragments
# Section names that name one of Claude Code's memory types, by the group of types that
# belongs there (a user fact under "Feedback" is fine; a reference under "Project" is not).
_SECTION_GROUPS = {"user": "person", "users": "person", "feedback": "person",
                   "project": "project", "projects": "project", "reference": "reference",
                   "references": "reference"}
_TYPE_GROUPS = {"user": "person", "feedback": "person", "project": "project",
                "reference": "reference"}
_STEM_PARTS = re.compile(r"[_-]+")


def index_coherence(memdir: MemoryDir) -> list[JSON]:
    """Each way the index strays from one pointer per topic, in order, under fitting sections."""
    if memdir.index is None:
        return []
    lines = memdir.index.lines
    types = {e.file: e.memory_type for e in memdir.topics}
    return [*_repeated_pointers(lines, types), *_loose_pointers(lines, types),
            *_sections(lines), *_misplaced(lines, types)]


def _repeated_pointers(lines: Sequence[IndexLine], types: dict[str, str | None]) -> list[JSON]:
    where: dict[str, list[int]] = defaultdict(list)
    for line in lines:
        target = pointer_target(line)
        if target in types:
            where[target].append(line.number)
    return [{"kind": "repeated-pointer", "file": file, "lines": numbers,
             "why": f"{file} has {len(numbers)} index lines; one pointer per topic file keeps "
                    "the index short and its hooks in one place"}
            for file, numbers in where.items() if len(numbers) > 1]


def _loose_pointers(lines: Sequence[IndexLine], types: dict[str, str | None]) -> list[JSON]:
    """Pointers outside every section of an index that has sections (right under a `#`
    title counts as outside when the sections are `##` and deeper)."""
    levels = [_heading_level(line) for line in lines]
    sections = [lv for lv in levels if lv]
    if not sections:
        return []
    top = min(sections)
    nested = any(lv > top for lv in sections) and sections.count(top) == 1
    loose: list[int] = []
    current = 0
    for line, level in zip(lines, levels, strict=True):
        current = level or current
        if pointer_target(line) in types and (current == 0 or (nested and current == top)):
            loose.append(line.number)
    return [{"kind": "loose-pointers", "lines": loose,
             "why": f"{len(loose)} pointer line(s) sit outside the index's sections: file "
                    "them under one"}] if loose else []


def _sections(lines: Sequence[IndexLine]) -> list[JSON]:
    """Repeated headings, and headings with nothing under them before the next heading of
    the same or a higher level (a title over sub-sections is not empty)."""
    out: list[JSON] = []
    first: dict[tuple[int, str], int] = {}
    open_headings: list[tuple[int, str, int, bool]] = []  # level, name, line, has content
    for line in lines:
        level = _heading_level(line)
        if level:
            name = line.text.strip().lstrip("#").strip()
            out += _close(open_headings, level)
            key = (level, name.casefold())
            if key in first:
                out.append({"kind": "repeated-section", "section": name,
                            "lines": [first[key], line.number],
                            "why": f"section \"{name}\" appears twice: merge them"})
            first.setdefault(key, line.number)
            open_headings.append((level, name, line.number, False))
        elif line.text.strip() and open_headings:
            open_headings = [(lv, n, ln, True) for lv, n, ln, _ in open_headings]
    return out + _close(open_headings, 1)


def _close(open_headings: list[tuple[int, str, int, bool]], level: int) -> list[JSON]:
    """Close the headings a new heading of `level` ends; the empty ones are reported."""
    out: list[JSON] = []
    while open_headings and open_headings[-1][0] >= level:
        _lv, name, number, filled = open_headings.pop()
        if not filled:
            out.append({"kind": "empty-section", "section": name, "line": number,
                        "why": f"section \"{name}\" has nothing under it any more"})
    return out


def _heading_level(line: IndexLine) -> int:
    found = re.match(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line.text)
    # markdown-it made it the section (a `#` line inside a code fence is not a heading)
    return len(found.group(1)) if found and found.group(2) == line.section else 0


def _misplaced(lines: Sequence[IndexLine], types: dict[str, str | None]) -> list[JSON]:
    out: list[JSON] = []
    for line in lines:
        wanted = _SECTION_GROUPS.get((line.section or "").strip().casefold())
        target = pointer_target(line)
        if wanted is None or target not in types:
            continue
        actual = types[target]
        if actual in _TYPE_GROUPS and _TYPE_GROUPS[actual] != wanted:
            out.append({"kind": "misplaced-pointer", "file": target, "line": line.number,
                        "section": line.section, "type": actual,
                        "why": f"{target} is `type: {actual}` but listed under "
                               f"\"{line.section}\""})
    return out


def fragment_merges(memdir: MemoryDir, leaving: frozenset[str] = frozenset()) -> list[JSON]:
    """Pairs of short topic files about one topic, proposed for a person to merge. Pairs come
    from the similarity join over content words and from name stems (families of up to
    `FAMILY_MAX` files). A fragment with more than `MERGE_PARTNERS` such partners is proposed
    with its closest ones only: hundreds of notes on one topic would otherwise give tens of
    thousands of proposals, more than anyone reads and more than the plan should grow."""
    fragments = [e for e in memdir.topics if e.file not in leaving
                 and e.memory_type != "superseded" and 0 < len(e.body) <= FRAGMENT_MAX_CHARS]
    words = [content_words(f"{e.description} {e.body}") for e in fragments]
    closest = Closest(MERGE_PARTNERS)
    # Only the closest few are kept, so the search is bounded: exact until hundreds of
    # fragments share their words, linear in the fragments from there on (see setjoin).
    for i, j, sim in TokenSets(words).iter_pairs(FRAGMENT_JACCARD, BOUNDED):
        if sim < NEAR and len(words[i] & words[j]) >= MIN_SHARED_WORDS:
            closest.offer(i, j, sim)
    out = [_merge(fragments[i], fragments[j], sim,
                  f"both short, sharing {sim:.0%} of their words")
           for i, j, sim in closest.pairs()]
    needed = threshold_fraction(FRAGMENT_JACCARD)
    for family, group in _families(fragments).items():
        for a, i in enumerate(group):
            for j in group[a + 1:]:
                sim = jaccard(words[i], words[j])
                if not _joined(words[i], words[j], needed) and sim < NEAR:
                    out.append(_merge(fragments[i], fragments[j], sim,
                                      f"both short, and both named {family}_…"))
    return out


def _joined(first: frozenset[str], second: frozenset[str], needed: Fraction) -> bool:
    """Whether the join pairs the two sets: both have words and Jaccard >= `needed`."""
    if not first or not second:
        return False
    overlap = len(first & second)
    union = len(first) + len(second) - overlap
    return overlap * needed.denominator >= needed.numerator * union


def content_words(text: str) -> frozenset[str]:
    """Stemmed words that carry meaning (no articles, auxiliaries, pronouns)."""
    return frozenset(stem(w) for w in tokens(text) if len(w) > 2 and w not in FILLER)


def _merge(first: Entry, second: Entry, sim: float, why: str) -> JSON:
    return {"kind": "merge-fragments", "files": [first.file, second.file],
            "jaccard": round(sim, 3), "why": f"{why}: merge them into one entry"}


def _families(fragments: Sequence[Entry]) -> dict[str, list[int]]:
    by_stem: dict[str, list[int]] = defaultdict(list)
    for i, entry in enumerate(fragments):
        name = _stem(entry)
        if name:
            by_stem[name].append(i)
    return {name: group for name, group in by_stem.items() if 2 <= len(group) <= FAMILY_MAX}


def _stem(entry: Entry) -> str | None:
    """`project_auth` for project_auth_login.md: a name of three parts or more, less the last."""
    parts = _STEM_PARTS.split(entry.file.removesuffix(".md"))
    return "_".join(parts[:-1]).casefold() if len(parts) >= 3 else None
