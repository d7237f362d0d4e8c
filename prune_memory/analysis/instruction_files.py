"""The project's own instructions: which files they are, read how, cut into cited sections
and indexed by the words they hold.

Claude Code loads CLAUDE.md (and `.claude/rules/`) into every session; the project's other
instruction files (AGENTS.md, `.claude/commands/`, `.cursor/rules`, the README) say how the
project works. Each file is cut into sections (a heading's text, a list item with what is
indented under it, a paragraph), each cited by its line range, and found again through its
content words: `InstructionIndex.best` is the section holding most of a text, and
`InstructionIndex.restated` the section a text holds whole.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import cached_property
from pathlib import Path

from prune_memory.analysis.similarity import tokens

# Files Claude Code loads into every session, repo-relative; the user's own under ~/.
LOADED = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
LOADED_GLOBS = (".claude/rules/*.md", ".claude/rules/**/*.md")
USER_FILE = ".claude/CLAUDE.md"
# The project's other instructions: read by agents and people, not loaded every session.
OTHER = ("AGENTS.md", ".cursorrules", "README.md")
OTHER_GLOBS = (".claude/commands/*.md", ".claude/commands/**/*.md", ".cursor/rules/*",
               ".cursor/rules/**/*", ".github/copilot-instructions.md")
# A file whose instructions count as the system prompt's, for withdrawing a repeat alone.
AUTHORITATIVE = ("AGENTS.md",)
MAX_FILE_BYTES = 512 * 1024
MAX_FILES = 200

MIN_CONTENT_WORDS = 6  # fewer words are contained in too much by chance
# A short memory that holds a whole instruction of a file the agent follows (CLAUDE.md and
# its family, AGENTS.md) restates it: most of the section's words are in the memory, and the
# memory is at most a few times the section (a long memory holds a short section's words by
# chance).
RESTATES_AT = 0.8
RESTATED_MIN_WORDS = 5
RESTATED_GROWTH = 4
MAX_POSTINGS = 400  # a word in more sections than this is no lead
# A section this many times the text's words (or this many more) is too long to cite.
GROWTH = 6
SLACK = 80

STOP_WORDS = frozenset({
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "is", "are",
    "be", "as", "at", "it", "its", "this", "that", "these", "those", "from", "do", "does",
    "did", "use", "used", "using", "when", "if", "then", "than", "into", "only", "also", "all",
    "any", "can", "will", "should", "must", "you", "your", "we", "our", "their", "they",
    "them", "via", "per", "each", "but", "so", "just", "more", "most", "other", "such", "same",
    "was", "were", "has", "have", "had", "been", "being", "there", "here", "what", "which",
    "who", "how", "why", "where", "while", "about", "after", "before", "over", "under", "up",
    "out", "one", "two", "very",
})
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+")
_FENCE = ("```", "~~~")
# A note to whoever edits the file (a banner, a generator's marker), not an instruction.
HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class InstructionFile:
    """One instruction file: where it is (`label`), its text, and whether Claude Code loads
    it into every session."""

    label: str
    text: str
    loaded: bool

    @property
    def authoritative(self) -> bool:
        """Its sections are instructions the agent already follows: a repeat may go."""
        return self.loaded or self.label in AUTHORITATIVE


@dataclass(frozen=True)
class Section:
    """Lines `first`–`last` (1-based) of one instruction file, under `heading`."""

    source: InstructionFile
    first: int
    last: int
    heading: str
    text: str

    @property
    def cited(self) -> str:
        span = f"{self.first}" if self.first == self.last else f"{self.first}-{self.last}"
        return f"{self.source.label}:{span}"


def read_instructions(repo: Path | None, home: Path, *,
                      skip: Path | None = None) -> tuple[InstructionFile, ...]:
    """Every instruction file that exists and reads as UTF-8, loaded ones first. Files under
    `skip` (the memory directory, when it sits inside the repo) are not instructions."""
    found: list[InstructionFile] = []
    places: list[tuple[str, Path, bool]] = []
    if repo is not None:
        places += [(name, repo / name, True) for name in LOADED]
        places += [(p, repo / p, True) for p in _globbed(repo, LOADED_GLOBS)]
        places += [(name, repo / name, False) for name in OTHER]
        places += [(p, repo / p, False) for p in _globbed(repo, OTHER_GLOBS)]
    places.append((f"~/{USER_FILE}", home / USER_FILE, True))
    seen: set[Path] = set()
    outside = skip.resolve() if skip is not None else None
    for label, path, loaded in places[:MAX_FILES]:
        text = _read(path, seen, outside)
        if text is not None:
            found.append(InstructionFile(label, text, loaded))
    return tuple(found)


def _globbed(repo: Path, patterns: Sequence[str]) -> list[str]:
    names: set[str] = set()
    for pattern in patterns:
        try:
            names.update(p.relative_to(repo).as_posix() for p in repo.glob(pattern)
                         if p.is_file())
        except OSError:
            continue
    return sorted(names)


def _read(path: Path, seen: set[Path], outside: Path | None) -> str | None:
    try:
        real = path.resolve()
        if real in seen or not real.is_file() or real.stat().st_size > MAX_FILE_BYTES:
            return None
        if outside is not None and real.is_relative_to(outside):
            return None
        seen.add(real)
        return real.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, RuntimeError):
        return None  # absent, unreadable or a loop of links: nothing to compare against


def read_claude_md(repo: Path | None, home: Path, *,
                   skip: Path | None = None) -> list[tuple[str, str]]:
    """(label, text) of the files Claude Code loads every session."""
    return claude_md_sources(read_instructions(repo, home, skip=skip))


def claude_md_sources(files: Iterable[InstructionFile]) -> list[tuple[str, str]]:
    """(label, text) of the files loaded every session: what the older checks compare."""
    return [(f.label, f.text) for f in files if f.loaded]


def content_words(text: str) -> list[str]:
    """The words that carry meaning, in order: no stop words; runs of CJK characters, which
    have no spaces, as their overlapping pairs of characters."""
    out: list[str] = []
    for word in tokens(text):
        if _CJK_RUN.search(word):
            for run in _CJK_RUN.findall(word):
                out.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
            rest = _CJK_RUN.sub(" ", word).split()
            out.extend(w for w in rest if w not in STOP_WORDS and len(w) > 1)
        elif word not in STOP_WORDS and (len(word) > 1 or word.isdigit()):
            out.append(word)
    return out


def sections(file: InstructionFile) -> list[Section]:
    """A heading's whole text (to the next heading of its level or higher), each list item
    with its indented lines, and each paragraph, outside code fences."""
    lines = HTML_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), file.text).splitlines()
    out: list[Section] = []
    heads = [(n, len(m.group(1)), m.group(2).strip()) for n, line in enumerate(lines)
             if (m := HEADING.match(line))]
    for k, (start, level, title) in enumerate(heads):
        end = next((n for n, lv, _t in heads[k + 1:] if lv <= level), len(lines))
        out.append(_section(file, lines, start, end, title))
    heading = ""
    block_start: int | None = None
    in_fence = False
    for n, line in enumerate([*lines, ""]):
        if line.lstrip().startswith(_FENCE):
            in_fence = not in_fence
        if in_fence:
            continue
        if m := HEADING.match(line):
            heading = m.group(2).strip()
        item = LIST_ITEM.match(line)
        starts_item = item is not None and not item.group(1)
        if block_start is not None and (not line.strip() or starts_item or m):
            out.append(_section(file, lines, block_start, n, heading))
            block_start = None
        if block_start is None and line.strip() and not m:
            block_start = n
    return [s for s in out if len(content_words(s.text)) >= 3]


def _section(file: InstructionFile, lines: list[str], start: int, end: int,
             heading: str) -> Section:
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return Section(file, start + 1, end, heading, "\n".join(lines[start:end]))


@dataclass(frozen=True)
class Repeat:
    """How much of a memory's text one section holds."""

    section: Section
    contained: float  # share of the memory's distinct content words the section has
    words: int  # the memory text's content words
    measured: list[str] = field(repr=False, compare=False)  # the words measured in order
    against: list[str] = field(repr=False, compare=False)

    @cached_property
    def in_order(self) -> float:  # only when asked: containment rules out most candidates
        return _in_order(self.measured, self.against)


class InstructionIndex:
    """Every section of the instruction files, found through the words they hold."""

    def __init__(self, files: Sequence[InstructionFile]) -> None:
        self.files = tuple(files)
        self.sections = [s for f in self.files for s in sections(f)]
        self.words = [content_words(s.text) for s in self.sections]
        self.sets = [frozenset(w) for w in self.words]
        self.postings: dict[str, list[int]] = defaultdict(list)
        for n, words in enumerate(self.sets):
            for word in words:
                self.postings[word].append(n)
        # A memory is measured several ways (whole, its rule, held whole): each text's
        # words and hits are worked out once.
        self._measured: dict[str, tuple[list[str], frozenset[str], Counter[int]]] = {}

    def _measure(self, text: str) -> tuple[list[str], frozenset[str], Counter[int]]:
        if (known := self._measured.get(text)) is None:
            words = content_words(text)
            wanted = frozenset(words)
            known = self._measured[text] = (words, wanted, self._hits(wanted))
        return known

    def best(self, text: str, *, only: str | None = None,
             loaded_only: bool = False) -> Repeat | None:
        """The section holding most of `text`'s content words; among those holding nearly
        as much, the smallest, which is the precise citation. A section many times longer
        than the text holds its words by chance, so it is never the answer."""
        words, wanted, hits = self._measure(text)
        short = len(wanted) < MIN_CONTENT_WORDS
        if not wanted:
            return None
        # A short text repeats only a section about as short: its words are common.
        limit = len(wanted) + 2 if short else max(GROWTH * len(wanted), len(wanted) + SLACK)
        chosen = [(n, count) for n, count in hits.items()
                  if len(self.sets[n]) <= limit
                  and (only is None or self.sections[n].source.label == only)
                  and (not loaded_only or self.sections[n].source.authoritative)]
        if not chosen:
            return None
        top = max(count for _n, count in chosen)
        close = top - max(1, top // 20)  # within a word or 5% of the best
        n, count = min(((n, c) for n, c in chosen if c >= close),
                       key=lambda nc: (len(self.sets[nc[0]]), nc[0]))
        return Repeat(self.sections[n], count / len(wanted), len(wanted), words,
                      self.words[n])

    def _hits(self, wanted: frozenset[str]) -> Counter[int]:
        """Section number → how many of `wanted` it holds (common words are no lead)."""
        hits: Counter[int] = Counter()
        for word in wanted:
            posting = self.postings.get(word, ())
            if len(posting) <= MAX_POSTINGS:
                hits.update(posting)
        return hits

    def restated(self, text: str) -> Repeat | None:
        """The loaded instruction section `text` holds whole, if any (see RESTATES_AT)."""
        words, wanted, hits = self._measure(text)
        held = [(count / len(self.sets[n]), len(self.sets[n]), -n)
                for n, count in hits.items()
                if self.sections[n].source.authoritative
                and len(self.sets[n]) >= RESTATED_MIN_WORDS
                and len(wanted) <= RESTATED_GROWTH * len(self.sets[n])
                and count / len(self.sets[n]) >= RESTATES_AT]
        if not held:
            return None
        share, _size, minus_n = max(held)
        n = -minus_n
        return Repeat(self.sections[n], share, len(wanted), self.words[n], words)


def _in_order(words: list[str], other: list[str]) -> float:
    """The share of `words` that `other` holds in the same order."""
    matcher = SequenceMatcher(None, words, other, autojunk=False)
    return sum(b.size for b in matcher.get_matching_blocks()) / len(words)


@dataclass(frozen=True)
class ClaudeMdUnit:
    """One line, or one paragraph of several lines, of a loaded file (`line` is 1-based):
    what the statement-by-statement checks compare."""

    source: str
    line: int
    text: str


# Headings and short labels ("## Tests", "```bash") would match too much to mean anything.
MIN_UNIT_TOKENS = 3


def claude_md_units(sources: Sequence[tuple[str, str]]) -> list[ClaudeMdUnit]:
    """Every substantive line, and every paragraph of two or more lines, of each source."""
    units: list[ClaudeMdUnit] = []
    for label, text in sources:
        paragraph: list[tuple[int, str]] = []
        for number, line in enumerate([*text.splitlines(), ""], start=1):
            if line.strip():
                paragraph.append((number, line))
                if _substantive(line):
                    units.append(ClaudeMdUnit(label, number, line.strip()))
                continue
            if len(paragraph) > 1:
                joined = "\n".join(part for _n, part in paragraph).strip()
                units.append(ClaudeMdUnit(label, paragraph[0][0], joined))
            paragraph = []
    return units


def _substantive(line: str) -> bool:
    stripped = line.strip()
    if stripped.startswith(("#", "<!--", "```", "~~~", "@")):
        return False
    return len(tokens(stripped)) >= MIN_UNIT_TOKENS
