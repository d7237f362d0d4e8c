"""Step 3 fidelity across entries: duplicates, near duplicates and contradictions.

Pairs are found with the exact similarity join, so the answer equals a comparison of every
pair. Only exact duplicates name a loser; everything else goes to a human as `review`.
Near-duplicates come one finding per entry, grouped (`neargroups`), however many pairs.
"""

from __future__ import annotations

from collections import defaultdict

from prune_memory.analysis.contradictions import (
    CONTRADICTION_THRESHOLD,
    LIMITS,
    NEGATIONS,
    Contradiction,
    contradictions,
    negation_sides,
)
from prune_memory.analysis.duplicates import (
    Closest,
    NearGroups,
    choose_survivor,
    contained_pairs,
    survivor_reason,
    without_articles,
)
from prune_memory.analysis.gcpause import collector_paused
from prune_memory.analysis.setjoin import BOUNDED
from prune_memory.analysis.similarity import (
    ComparedTexts,
    compared_texts,
    jaccard,
    pair_texts,
    written_dates,
)
from prune_memory.model import JSON, Entry, Finding, FindingCode, MemoryDir
from prune_memory.store.index import table_of

NEAR_THRESHOLD = 0.8
CONTRADICTION_PARTNERS = 5  # likely contradictions named per entry, the closest first
LABEL_FIELDS = ("name", "key")  # frontmatter fields that say two entries claim the same fact

Findings = dict[str, list[Finding]]


def check_fidelity(
    memdir: MemoryDir,
    *,
    protected: frozenset[str],
    near_threshold: float = NEAR_THRESHOLD,
    negations: frozenset[str] = NEGATIONS,
) -> dict[str, tuple[Finding, ...]]:
    """Findings per entry file (entries without findings are left out).

    Repeats of the project's instructions are `analysis.instructions`' to find.
    """
    with collector_paused():
        data = compared_texts(memdir.entries)
        found: Findings = defaultdict(list)
        tables = table_of(memdir.index) if memdir.index else {}
        _exact_duplicates(data, protected, found)
        _contained(data, protected, near_threshold, found)
        _near_duplicates(data, protected, near_threshold, found, tables)
        _contradictions(data, negations, found)
    return {file: tuple(items) for file, items in sorted(found.items())}


def _exact_duplicates(data: ComparedTexts, protected: frozenset[str], found: Findings) -> None:
    """Every copy gets a `duplicate` finding: a surviving one names itself as survivor and
    relates to the others; a losing one names the survivor it defers to."""
    for group in data.corpus.exact_groups():
        members = [data.entries[i] for i in group]
        keep = choose_survivor(members, protected)
        for i, entry in zip(group, members, strict=True):
            others = tuple(m.file for m in members if m is not entry)
            stays = entry is keep or entry.file in protected  # a protected copy always survives
            if stays:
                why = ("protected copy" if entry is not keep
                       else _kept_because(keep, members, protected))
                message = f"same text as {', '.join(others)}; this copy stays ({why})"
            else:
                message = (f"same text as {keep.file}, which is kept "
                           f"({survivor_reason(keep, entry, protected)})")
            found[entry.file].append(Finding(
                code=FindingCode.DUPLICATE, message=message,
                evidence={"text": data.shown(i), "survivor": entry.file if stays else keep.file,
                          "group": [m.file for m in members], **written_dates(entry, keep)},
                related=others if stays else (keep.file,),
            ))


def _contained(data: ComparedTexts, protected: frozenset[str], threshold: float,
               found: Findings) -> None:
    """A memory every word of which a longer one also says (or equal but for articles and
    punctuation): the shorter is the copy to withdraw, for a person to confirm."""
    for pair in contained_pairs(data.texts, [e.kind.value for e in data.entries],
                                normalised=data.corpus.normalised):
        inner, outer = data.entries[pair.inner], data.entries[pair.outer]
        if data.corpus.normalised[pair.inner] == data.corpus.normalised[pair.outer]:
            continue  # an exact copy, reported as such
        close = jaccard(data.corpus.sets[pair.inner], data.corpus.sets[pair.outer])
        if not pair.same and close >= threshold:
            continue  # a near-duplicate: shown side by side to merge, with the others
        if inner.file in protected:
            continue
        if pair.same:  # not identical, so not proven one copy: a person merges them
            found[inner.file].append(Finding(
                code=FindingCode.NEAR_DUPLICATE,
                message=f"says the same as {outer.file} but for articles and punctuation; "
                        "read both and keep one",
                evidence={"kind": "article-copy", **pair_texts(data, pair.inner, pair.outer),
                          "suggested_keep": outer.file, **written_dates(inner, outer)},
                related=(outer.file,)))
            continue
        found[inner.file].append(Finding(
            code=FindingCode.DUPLICATE,
            message=f"says nothing that is not also in the longer {outer.file}, which is kept",
            evidence={"kind": "contained-duplicate", **pair_texts(data, pair.inner, pair.outer),
                      "survivor": outer.file, **written_dates(inner, outer)},
            related=(outer.file,)))


def _kept_because(keep: Entry, members: list[Entry], protected: frozenset[str]) -> str:
    runner_up = choose_survivor([m for m in members if m is not keep], protected)
    return survivor_reason(keep, runner_up, protected)


def _near_duplicates(data: ComparedTexts, protected: frozenset[str], threshold: float,
                     found: Findings, tables: dict[str, int]) -> None:
    """One finding per entry that has near-duplicates (exact ones are not among them): its
    closest partner side by side, and, in a larger group, the next few and the group size."""
    # Each entry keeps its closest few, so the search is bounded: exact until hundreds of
    # notes are near copies of each other, then linear in them rather than in their pairs.
    pairs = ((i, j, sim) for i, j, sim in data.corpus.iter_pairs(threshold, BOUNDED)
             if not _alike_by_design(data, i, j, tables))
    groups = NearGroups(pairs, len(data.entries))
    keeps: dict[int, Entry] = {}
    for this in groups.entries():
        members = groups.group(this)
        root = groups.root(this)
        if root not in keeps:
            keeps[root] = choose_survivor([data.entries[k] for k in members], protected)
        found[data.entries[this].file].append(
            _near_finding(data, this, groups.closest(this), len(members), keeps[root]))


def _near_finding(data: ComparedTexts, this: int, closest: list[tuple[int, float]], size: int,
                  keep: Entry) -> Finding:
    that, sim = closest[0]
    other = data.entries[that]
    evidence: JSON = {**pair_texts(data, this, that), "jaccard": round(sim, 3),
                      "suggested_keep": keep.file, **written_dates(data.entries[this], other)}
    message = (f"nearly the same words as {other.file} (Jaccard {sim:.2f}); read both, "
               "merge into one or keep both if the difference matters")
    if size > 2:
        evidence["group_size"] = size
        evidence["closest"] = [{"file": data.entries[k].file, "jaccard": round(j, 3)}
                               for k, j in closest]
        message = (f"nearly the same words as {other.file} (Jaccard {sim:.2f}), one of a "
                   f"group of {size} near-duplicates; read them side by side, merge them or "
                   "keep those whose differences matter")
    return Finding(code=FindingCode.NEAR_DUPLICATE, message=message, evidence=evidence,
                   related=tuple(data.entries[k].file for k, _ in closest))


def _alike_by_design(data: ComparedTexts, i: int, j: int, tables: dict[str, int]) -> bool:
    """Rows of one table share their shape on purpose; a copy but for articles is reported
    with the duplicates. Neither is a near-duplicate to merge."""
    first, second = data.entries[i].file, data.entries[j].file
    if first in tables and tables[first] == tables.get(second):
        return True
    words = data.corpus.normalised  # the words already read, one space apart
    return without_articles(words[i].split()) == without_articles(words[j].split())


def _contradictions(data: ComparedTexts, negations: frozenset[str], found: Findings) -> None:
    """Each entry's closest few negated-or-plain partners (every pair, until an entry has
    more), through a bounded search: hundreds of near copies, some negated, would otherwise
    give a finding for each of their pairs."""
    labels = [_labels(entry) for entry in data.entries]
    closest = Closest(CONTRADICTION_PARTNERS)
    sides = negation_sides(data.corpus, negations)
    for i, j, sim in data.corpus.iter_pairs(CONTRADICTION_THRESHOLD, BOUNDED, sides):
        closest.offer(i, j, sim)
    for flag in contradictions(data.corpus, labels, negations=negations,
                               similar=closest.pairs()):
        for this, that in ((flag.first, flag.second), (flag.second, flag.first)):
            other = data.entries[that]
            found[data.entries[this].file].append(Finding(
                code=FindingCode.CONTRADICTION,
                message=f"may contradict {other.file} ({flag.reason}, Jaccard "
                        f"{flag.jaccard:.2f}); {LIMITS}",
                evidence=_contradiction_evidence(data, flag, this, that, negations),
                related=(other.file,),
            ))


def _contradiction_evidence(data: ComparedTexts, flag: Contradiction, this: int, that: int,
                            negations: frozenset[str]) -> JSON:
    return {
        **pair_texts(data, this, that), "jaccard": round(flag.jaccard, 3),
        "reason": flag.reason, "limits": LIMITS,
        "negations": {data.entries[k].file: sorted(data.corpus.sets[k] & negations)
                      for k in (this, that)},
        **written_dates(data.entries[this], data.entries[that]),
    }


def _labels(entry: Entry) -> tuple[tuple[str, str], ...]:
    values = ((name, entry.frontmatter.get(name)) for name in LABEL_FIELDS)
    return tuple((name, str(value)) for name, value in values if value not in (None, ""))
