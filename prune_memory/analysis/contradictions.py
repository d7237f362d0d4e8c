"""Contradictions in words: two memories (or a memory and CLAUDE.md) that cannot both hold.

Each is a wording heuristic, not a finding of fact, that a person settles (`review`):

- similar wording where only one side is negated, or one label with two texts
  (`contradictions`, also the JSONL audit's);
- one statement denying another in the same words, or a total that disagrees with
  CLAUDE.md's (`check_negations`): each text is cut into statements, each reduced to what it
  asserts and whether it denies it, so "the cache resets nightly" and "the cache does not
  reset nightly" meet although a whole-text comparison misses them;
- one memory saying a thing was removed while another still describes it
  (`check_said_gone`);
- one memory linking another on a line that says it is wrong (`check_said_wrong`).

Two memories tying one subject to different values are in `valueclash.py`.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import combinations

from prune_memory.analysis.instruction_files import claude_md_units
from prune_memory.analysis.setjoin import Pair
from prune_memory.analysis.similarity import Corpus, analysed_text, jaccard, tokens
from prune_memory.analysis.text import mentions_change, planned, short_quote
from prune_memory.model import Entry, EntryKind, Finding, FindingCode, Link, LinkKind, MemoryDir
from prune_memory.secrets.mask import mask_text

CONTRADICTION_THRESHOLD = 0.5

# Tokens are case-folded with inner apostrophes dropped, so "don't" arrives as "dont".
NEGATIONS: frozenset[str] = frozenset({
    "not", "no", "never", "false", "nor", "neither", "none", "nothing", "nobody", "nowhere",
    "cannot", "cant", "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent",
    "wont", "wouldnt", "shouldnt", "couldnt", "mustnt", "hasnt", "havent", "hadnt",
    "neednt", "aint",
})
# The four words of the original JSONL audit, for output that must match it exactly.
SEED_NEGATIONS: frozenset[str] = frozenset({"not", "no", "never", "false"})

LIMITS = ("wording heuristic: it misses contradictions worded differently and can flag "
          "pairs that only discuss the same topic; decide from sources and dates")


class NegationSet(StrEnum):
    EXTENDED = "extended"
    SEED = "seed"


def negation_words(choice: NegationSet) -> frozenset[str]:
    if choice is NegationSet.EXTENDED:
        return NEGATIONS
    if choice is NegationSet.SEED:
        return SEED_NEGATIONS
    raise AssertionError(choice)  # pragma: no cover - every member is mapped above


@dataclass(frozen=True)
class Contradiction:
    """Two items (indices, first < second) flagged as a likely contradiction."""

    first: int
    second: int
    jaccard: float
    reason: str


def negated(tokens: Collection[str], negations: frozenset[str] = NEGATIONS) -> bool:
    return not negations.isdisjoint(tokens)


def negation_sides(corpus: Corpus, negations: frozenset[str] = NEGATIONS) -> list[bool]:
    """Per text, whether it is negated: the sides of the join for `contradictions`."""
    return [negated(s, negations) for s in corpus.sets]


def contradictions(
    corpus: Corpus,
    labels: Sequence[Sequence[tuple[str, str]]],
    *,
    negations: frozenset[str] = NEGATIONS,
    threshold: float = CONTRADICTION_THRESHOLD,
    similar: Sequence[Pair] | None = None,
) -> list[Contradiction]:
    """Every flagged pair of the corpus's texts, sorted; one flag per pair even when both
    rules fire.

    `labels[i]` holds (field, value) pairs such as ("key", "db-port"): two texts sharing one
    whose normal forms differ are flagged. Similar pairs come from the join, run only between
    negated and plain texts (a pair on one side can never qualify); a caller that already
    has `corpus.pairs(threshold, sides=negation_sides(corpus, negations))` passes them as
    `similar`.
    """
    if similar is None:
        similar = corpus.pairs(threshold, sides=negation_sides(corpus, negations))
    flags = {(i, j): Contradiction(i, j, sim, "negation differs") for i, j, sim in similar}
    for (i, j), field in _same_label_pairs(labels, corpus.normalised).items():
        if (i, j) not in flags:
            sim = jaccard(corpus.sets[i], corpus.sets[j])
            flags[(i, j)] = Contradiction(i, j, sim, f"same {field}, different text")
    return [flags[pair] for pair in sorted(flags)]


def _same_label_pairs(
    labels: Sequence[Sequence[tuple[str, str]]], normalised: Sequence[str]
) -> dict[tuple[int, int], str]:
    """Pairs sharing a label with different normalised text -> the first shared field."""
    members: dict[tuple[str, str], list[int]] = {}
    for position, item_labels in enumerate(labels):
        for label in item_labels:
            members.setdefault(label, []).append(position)
    found: dict[tuple[int, int], str] = {}
    for (field, _value), group in sorted(members.items()):
        for a, i in enumerate(group):
            for j in group[a + 1:]:
                if normalised[i] != normalised[j]:
                    found.setdefault((i, j), field)
    return found


# Tokens arrive case-folded with inner apostrophes dropped ("doesn't" -> "doesnt").
NEGATORS = frozenset({
    "not", "never", "no", "cannot", "cant", "dont", "doesnt", "didnt", "isnt", "arent",
    "wasnt", "werent", "wont", "wouldnt", "shouldnt", "couldnt", "hasnt", "havent", "hadnt",
    "mustnt", "neednt", "nor",
})
# Words that carry tense, mood or grammar but not the claim; dropped from the core.
FILLER = frozenset({
    "do", "does", "did", "is", "are", "was", "were", "be", "been", "being", "am", "will",
    "would", "should", "could", "can", "has", "have", "had", "must", "may", "might", "shall",
    "longer", "anymore", "the", "a", "an", "to", "of", "it", "its", "this", "that", "these",
    "those", "and", "or", "on", "in", "at", "by", "for", "with", "as", "any", "ever", "also",
    "still", "so", "we", "our", "you", "your", "they", "there", "here",
})
# Words that make a statement conditional or partial: its negation is not a contradiction.
HEDGES = frozenset({"if", "unless", "when", "except", "only", "until", "sometimes", "maybe",
                    "whether", "but", "though", "although"})
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")
_BULLET = re.compile(r"^\s*(?:[-*+>]|\d+[.)])\s+")
MIN_CORE, MAX_TOKENS = 2, 30


@dataclass(frozen=True)
class Statement:
    """One sentence of a text: where it is, what it asserts, and whether it denies it."""

    owner: int  # index of the text it came from
    line: int  # 1-based line in that text
    text: str
    negated: bool
    core: frozenset[str]
    hedged: bool


def statements(owner: int, text: str) -> Iterator[Statement]:
    """The statements of `text` worth comparing (two content words or more)."""
    in_fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or line.lstrip().startswith(("#", "|", "<!--")):
            continue
        for sentence in _SENTENCE.split(_BULLET.sub("", line)):
            found = _statement(owner, number, sentence.strip())
            if found is not None:
                yield found


def _statement(owner: int, line: int, sentence: str) -> Statement | None:
    words = tokens(sentence)
    if not words or len(words) > MAX_TOKENS:
        return None
    core = frozenset(stem(w) for w in words if w not in NEGATORS and w not in FILLER)
    if len(core) < MIN_CORE:
        return None
    return Statement(owner, line, sentence, not NEGATORS.isdisjoint(words), core,
                     hedged=not HEDGES.isdisjoint(words))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude English stem: resets/reset, deploys/deployed/deploying, caches/cache."""
    if len(word) <= 3 or word.isdigit():
        return word
    base = word
    if word.endswith("ies"):
        base = word[:-3] + "y"
    elif word.endswith("es") and word[:-2].endswith(("ch", "sh", "x", "z", "ss")):
        base = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        base = word[:-1]
    elif word.endswith(("ing", "ed")):
        cut = word[:-3] if word.endswith("ing") else word[:-2]
        if len(cut) >= 3:
            base = cut[:-1] if len(cut) > 3 and cut[-1] == cut[-2] else cut
    # A final e comes and goes with the suffix (cache/caching): drop it on both sides.
    return base[:-1] if len(base) > 3 and base.endswith("e") else base


DENIAL_LIMITS = ("wording heuristic: it misses denials worded differently and can pair statements "
          "about different things; decide from sources and dates which holds")
SUBSET_AT = 0.75  # a shorter statement inside a longer one still counts this close
_TOTAL = re.compile(r"\b(\d{1,6})\s+([a-z][a-z-]{2,}s)\b", re.IGNORECASE)
_NOT_COUNTED = frozenset({"seconds", "minutes", "hours", "days", "weeks", "months", "years",
                          "times", "lines", "bytes", "chars", "characters", "percent", "steps",
                          "retries", "attempts", "tokens", "words", "ms", "mins", "secs"})


@dataclass(frozen=True)
class Denial:
    """Statement `first` and statement `second`, one denying the other."""

    first: Statement
    second: Statement
    kind: str  # "negated-statement" or "different-total"


def denials(left: Sequence[Statement], right: Sequence[Statement], *,
            same_side: bool) -> list[Denial]:
    """Pairs (one from each list, or two of one list when `same_side`) where one statement
    denies the other; statements of the same owner are never paired on the same side.

    Only the few negated statements are walked; the plain ones are looked up through an
    index of pairs of their words (`_Plain`)."""
    found: dict[tuple[int, int, int, int], Denial] = {}
    for denied, plain, flipped in ((left, right, False), (right, left, True)):
        if same_side and flipped:
            break  # one list: each pair is met from its negated side already
        index = _Plain(plain)
        for a in denied:
            if not a.negated or a.hedged:
                continue
            for b in index.matches(a):
                if same_side and a.owner == b.owner:
                    continue
                first, second = (b, a) if flipped else (a, b)
                key = (first.owner, first.line, second.owner, second.line)
                found.setdefault(key, Denial(first, second, "negated-statement"))
    return list(found.values())


class _Plain:
    """The plain statements of one side, filed by pairs of words for `matches`.

    A match shares at least SUBSET_AT of the words of each of the two statements (the
    smaller one lies inside the larger, and is at least that share of it). In one global
    order of words (rarest first), two statements sharing m words have their first two
    shared words among each one's first len - m + 2: so each is filed under every pair of
    words of that prefix, and only statements filed under a pair of the negated one's are
    compared. On notes from a small vocabulary the one-word prefix reached most of them."""

    def __init__(self, plain: Sequence[Statement]) -> None:
        self.statements = [s for s in plain if not s.negated and not s.hedged]
        self.count = Counter(word for s in self.statements for word in s.core)
        self.position = {id(s): n for n, s in enumerate(self.statements)}
        self.filed: dict[tuple[str, ...], list[Statement]] = defaultdict(list)
        for statement in self.statements:
            for key in self._keys(self._ordered(statement.core)):
                self.filed[key].append(statement)

    def _ordered(self, core: frozenset[str]) -> list[str]:
        return sorted(core, key=lambda word: (self.count.get(word, 0), word))

    @staticmethod
    def _keys(words: list[str]) -> Iterable[tuple[str, ...]]:
        if len(words) < 2:  # a one-word statement matches only the same one word
            return [tuple(words)]
        return combinations(words[:len(words) - math.ceil(SUBSET_AT * len(words)) + 2], 2)

    def matches(self, statement: Statement) -> list[Statement]:
        """The plain statements that make the same claim, in the order of the rarest word
        they share with it, then in the order given."""
        words = self._ordered(statement.core)
        seen: dict[int, Statement] = {}
        for key in self._keys(words):
            for other in self.filed.get(key, ()):
                seen.setdefault(id(other), other)
        hits = [b for b in seen.values() if same_claim(statement.core, b.core)]
        rank = {word: n for n, word in enumerate(words)}
        return sorted(hits, key=lambda b: (min(rank[w] for w in b.core if w in rank),
                                           self.position[id(b)]))


def denied_pairs(texts: Sequence[str]) -> list[tuple[int, int]]:
    """(i, j), i < j, for texts where a statement of one denies a statement of the other."""
    said = [s for n, text in enumerate(texts) for s in statements(n, text)]
    pairs = {tuple(sorted((d.first.owner, d.second.owner)))
             for d in denials(said, said, same_side=True)}
    return sorted((i, j) for i, j in pairs)


def same_claim(a: frozenset[str], b: frozenset[str]) -> bool:
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return small <= large and len(small) / len(large) >= SUBSET_AT


def different_totals(left: Sequence[Statement], right: Sequence[Statement]) -> list[Denial]:
    """Pairs stating a different number of the same thing, in otherwise similar words."""
    totals = [(s, _totals(s.text)) for s in right]
    out: list[Denial] = []
    for a in left:
        for noun, number in _totals(a.text).items():
            for b, theirs in totals:
                other = theirs.get(noun)
                if other is not None and other != number and _similar_context(a, b, noun):
                    out.append(Denial(a, b, "different-total"))
    return out


def _totals(text: str) -> dict[str, str]:
    return {stem(m.group(2).lower()): m.group(1) for m in _TOTAL.finditer(text)
            if m.group(2).lower() not in _NOT_COUNTED}


def _similar_context(a: Statement, b: Statement, noun: str) -> bool:
    words_a = {w for w in a.core if not w.isdigit()}
    words_b = {w for w in b.core if not w.isdigit()}
    shared = words_a & words_b
    return noun in shared and len(shared) >= 2 and len(shared) / len(words_a | words_b) >= 0.5


def check_negations(memdir: MemoryDir,
                    claude_md: Sequence[tuple[str, str]] = ()) -> dict[str, tuple[Finding, ...]]:
    """`contradiction` findings per entry file: against other memories, and against CLAUDE.md."""
    entries = [e for e in memdir.entries if e.memory_type != "superseded"]
    said = [s for n, e in enumerate(entries) for s in statements(n, analysed_text(e))]
    found: dict[str, list[Finding]] = defaultdict(list)
    for denial in denials(said, said, same_side=True):
        for this, that in ((denial.first, denial.second), (denial.second, denial.first)):
            other = entries[that.owner]
            found[entries[this.owner].file].append(_between_memories(this, that, other))
    units = claude_md_units(claude_md)
    theirs = [s for n, unit in enumerate(units) for s in statements(n, unit.text)
              if "\n" not in unit.text]  # lines only: a paragraph repeats its lines
    for denial in [*denials(said, theirs, same_side=False), *different_totals(said, theirs)]:
        unit = units[denial.second.owner]
        found[entries[denial.first.owner].file].append(
            _against_claude_md(denial, unit.source, unit.line))
    return {file: tuple(items) for file, items in sorted(found.items())}


def _between_memories(this: Statement, that: Statement, other: Entry) -> Finding:
    return Finding(
        FindingCode.CONTRADICTION,
        f"line {this.line} says “{_shown(this)}” but {other.file} line {that.line} says "
        f"“{_shown(that)}”; {DENIAL_LIMITS}",
        {"kind": "negated-statement", "line": this.line, "claim": _shown(this),
         "other_file": other.file, "other_line": that.line, "other_claim": _shown(that),
         "limits": DENIAL_LIMITS},
        related=(other.file,))


def _against_claude_md(denial: Denial, source: str, line: int) -> Finding:
    mine, theirs = denial.first, denial.second
    how = "contradicts" if denial.kind == "negated-statement" else "gives another total than"
    return Finding(
        FindingCode.CONTRADICTION,
        f"line {mine.line} “{_shown(mine)}” {how} {source} line {line} “{_shown(theirs)}”, "
        f"which Claude Code loads every session; {DENIAL_LIMITS}",
        {"kind": f"claude-md-{denial.kind}", "line": mine.line, "claim": _shown(mine),
         "claude_md": source, "claude_md_line": line, "claude_md_text": _shown(theirs),
         "limits": DENIAL_LIMITS})


def _shown(statement: Statement, limit: int = 160) -> str:
    text = " ".join(mask_text(statement.text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_NAME = re.compile(r"`([A-Za-z_][\w.:]*[A-Za-z0-9_])(?:\(\))?`")
_GONE_WORDS = (r"(?:DELETED|REMOVED|deleted|removed|no longer exists?|is gone|was dropped|"
               r"ripped out|replaced (?:by|with)|已删除|已移除|entfernt|gelöscht|eliminad[oa])")
# The removal word right after the name ("`X` DELETED", "`X` was removed") or just before
# it ("removed `X`"); "not removed" says the opposite.
_AFTER = re.compile(rf"^[`*_)\s]*(?:—|-|:|,)?\s*(?:is |was |has been |got )?{_GONE_WORDS}")
_BEFORE = re.compile(r"(?<!not )(?<!never )\b(?:deleted|removed|dropped|ripped out|"
                     r"删除|移除|entfernt|gelöscht)\s*[*_]*$", re.IGNORECASE)
# "`build.py` — REMOVED the retry loop": a removal word with an object of its own says what
# was taken out of the name, so the name itself is still there.
_OBJECT = re.compile(r"\s+`|\s+(?:the|a|an|all|its|their|this|that|these|those|every|each|"
                     r"any|some|one|two|three|\d+)\b", re.IGNORECASE)
MIN_NAME = 6  # short names ("id", "run") are too common to stand for one thing


@dataclass(frozen=True)
class Line:
    file: str
    number: int
    text: str


def check_said_gone(memdir: MemoryDir) -> dict[str, tuple[Finding, ...]]:
    """`contradiction` findings (kind `said-removed`) per entry file."""
    gone: dict[str, Line] = {}
    live: dict[str, list[Line]] = defaultdict(list)
    for entry in memdir.entries:
        if entry.memory_type == "superseded":
            continue
        for line in _lines(entry):
            for name, said_gone in _names(line.text):
                if said_gone and not planned(line.text):
                    gone.setdefault(name, line)
                elif not mentions_change(line.text):
                    live[name].append(line)
    found: dict[str, list[Finding]] = defaultdict(list)
    for name, said in sorted(gone.items()):
        for other in live.get(name, ()):
            if other.file != said.file:
                found[other.file].append(_finding(name, other, said))
    return {file: tuple(_first_per_name(items)) for file, items in sorted(found.items())}


def _lines(entry: Entry) -> Iterator[Line]:
    if entry.kind is EntryKind.INDEX_LINE:
        for number, text in zip(entry.index_lines, entry.body.splitlines(), strict=False):
            yield Line(entry.file, number, text)
        return
    for number, text in enumerate(entry.body.splitlines(), start=1):
        yield Line(entry.file, number, text)


def _names(text: str) -> Iterator[tuple[str, bool]]:
    """Each code name on the line, and whether the line says that very name is gone."""
    for m in _NAME.finditer(text):
        name = m.group(1)
        if len(name) < MIN_NAME or name.isdigit():
            continue
        tail = text[m.end():m.end() + 60]
        said = _AFTER.match(tail)
        after = said is not None and (said.group(0).rstrip().endswith(("by", "with"))
                                      or _OBJECT.match(tail[said.end():]) is None)
        before = _BEFORE.search(text[max(0, m.start() - 24):m.start()]) is not None
        yield name, after or before


def _finding(name: str, here: Line, there: Line) -> Finding:
    message = (f"describes `{name}` (line {here.number}), but {there.file} says it was "
               f"removed: {short_quote(there.text, 120)}; read both and keep the one that holds")
    return Finding(
        FindingCode.CONTRADICTION, message,
        evidence={"kind": "said-removed", "subject": name,
                  "sides": [{"file": there.file, "line": there.number,
                             "says": short_quote(there.text)},
                            {"file": here.file, "line": here.number,
                             "says": short_quote(here.text)}],
                  "claim_line": {"where": "body", "line": here.number,
                                 "text": short_quote(here.text)}},
        related=(there.file,))


def _first_per_name(items: list[Finding]) -> list[Finding]:
    seen: set[str] = set()
    out: list[Finding] = []
    for item in items:
        if item.evidence["subject"] not in seen:
            seen.add(item.evidence["subject"])
            out.append(item)
    return out


# Wording that says the linked memory is wrong or out of date (not "is not outdated").
_DOUBT = re.compile(
    r"(?<!not )(?<!n't )\b(?:needs? (?:correcting|correction|fixing|updating)|is (?:wrong|"
    r"incorrect|inaccurate|outdated|out of date|obsolete)|no longer (?:true|accurate|correct|"
    r"holds?|applies)|out of date|outdated|superseded by)\b"
    r"|要校正|需要?(?:校正|更正|修正|订正)|已过时|已经过时|不准确|有误"
    r"|\b(?:veraltet|überholt|falsch|desactualizad[oa]|obsolet[oa]|incorrect[oa])\b",
    re.IGNORECASE)


def check_said_wrong(memdir: MemoryDir) -> dict[str, tuple[Finding, ...]]:
    """`contradiction` findings (kind `said-outdated`) on each memory another one doubts,
    one per memory that doubts it."""
    targets = _targets(memdir)
    found: dict[str, dict[str, Finding]] = defaultdict(dict)
    for entry in memdir.topics:
        if entry.memory_type == "superseded":
            continue  # a counter-memory names what it replaced by design
        lines = entry.body.splitlines()
        for link in entry.links:
            target = _resolve(link, targets)
            line = lines[link.line - 1] if 0 < link.line <= len(lines) else ""
            if target in (None, entry.file) or entry.file in found[target] \
                    or not _DOUBT.search(line):
                continue
            found[target][entry.file] = _doubt_finding(target, entry.file, link.line, line)
    return {file: tuple(items.values()) for file, items in sorted(found.items()) if items}


def _targets(memdir: MemoryDir) -> dict[str, str]:
    """Every way a link may name a topic file (file name, stem, `name:`) -> that file."""
    out: dict[str, str] = {}
    for entry in memdir.topics:
        for key in (entry.file, entry.file.removesuffix(".md"), entry.name):
            out.setdefault(key, entry.file)
    return out


def _resolve(link: Link, targets: dict[str, str]) -> str | None:
    if link.external or link.escapes:
        return None
    key = link.target if link.kind is LinkKind.WIKI else link.target.removeprefix("./")
    return targets.get(key)


def _doubt_finding(target: str, said_by: str, number: int, line: str) -> Finding:
    return Finding(
        FindingCode.CONTRADICTION,
        f"{said_by} line {number} says this memory needs correcting: {short_quote(line, 120)}; "
        "check which part no longer holds",
        evidence={"kind": "said-outdated", "subject": target,
                  "sides": [{"file": said_by, "line": number, "says": short_quote(line)}]},
        related=(said_by,))
