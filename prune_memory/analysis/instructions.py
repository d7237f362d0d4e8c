"""The project's own instructions, and what a memory repeats of them or says against them.

Claude Code loads CLAUDE.md (and `.claude/rules/`) into every session, and the project's
other instruction files (AGENTS.md, `.claude/commands/`, `.cursor/rules`, the README) say
how the project works. A memory that restates one of their sections costs index space and
says nothing new: the procedure withdraws it. A memory that recommends what they call
removed or broken is contradicted by them: a person reads both.

Each file is cut into sections (a heading's text, a list item with what is indented under
it, a paragraph), each cited by its line range. A memory, or the rule at its head, is
matched against every section by containment: the share of its content words the section
also holds, and the share it holds in the same order.
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
from prune_memory.analysis.text import short_quote
from prune_memory.model import JSON, Entry, EntryKind, Finding, FindingCode
from prune_memory.secrets.mask import mask_text

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

# Containment at which a memory (or the rule at its head) repeats a section of a file the
# agent follows; a file it only may read (commands, README) must hold more, in order.
REPEATS_AT = 0.8
REPEATS_OTHER_AT = 0.9
IN_ORDER_OTHER_AT = 0.7
# A memory that says the instructions hold it needs only this much of itself there.
SAYS_SO_AT = 0.5
# A rule in its own words: this share of its words in one loaded section, this share of
# them in its order (no memory an expert would only keep came near both on 39 folders).
PARAPHRASE_AT = 0.5
PARAPHRASE_IN_ORDER_AT = 0.4
MIN_CONTENT_WORDS = 6  # fewer words are contained in too much by chance
# A short memory that holds an instruction Claude Code loads every session (CLAUDE.md and
# its family; not AGENTS.md, which it does not read) whole restates it: most of the section's
# words are in the memory, and the memory is at most a few times the section (a long
# memory holds a short section's words by chance).
RESTATES_AT = 0.8
RESTATED_MIN_WORDS = 5
RESTATED_GROWTH = 4
MAX_POSTINGS = 400  # a word in more sections than this is no lead
# A section this many times the text's words (or this many more) is too long to cite.
GROWTH = 6
SLACK = 80

_STOP = frozenset({
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
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+")
_FENCE = ("```", "~~~")
_RULE_END = re.compile(r"^\s*[*_]{0,2}(?:why|how to apply|原因|怎么用|如何应用|warum|"
                       r"por qué|cómo aplicar)[*_]{0,2}\s*[:：.]", re.IGNORECASE | re.MULTILINE)
_FILE_NAMES = r"CLAUDE\.md|AGENTS\.md|\.claude/rules/[\w./-]+|\.claude/commands/[\w./-]+"
# "this is in CLAUDE.md now", "codified in AGENTS.md", "enforced via CLAUDE.md → Gates"
_SAYS_SO = re.compile(
    r"(?:(?:now|already|also)\s+(?:in|part of)|(?:documented|codified|captured|recorded|written|"
    r"moved|promoted|folded|merged|enforced|covered|lives|kept|spelled out)(?:\s+\w+)?\s+(?:in|"
    r"into|by|via|under|through)|已(?:写入|记录在|并入|移入|收录于)|见)[^.\n]{0,60}?[`\[]?("
    + _FILE_NAMES + r")", re.IGNORECASE)
_NAMED_FILE = re.compile(_FILE_NAMES)
# A line that calls what it names gone, broken or forbidden.
_DENIES = re.compile(
    r"\b(?:removed|deleted|dropped|retired|deprecated|obsolete|no longer|not used|unused|"
    r"does not work|doesn't work|do not use|don't use|never use|must not|replaced by|"
    r"renamed|eliminad[oa]s?|no funciona|entfernt|veraltet|umbenannt)\b"
    r"|退役|已删|已移除|删除|废弃|不再|禁止|不要用|改名|更名",
    re.IGNORECASE)
# "being retired", "to be removed", "退役中": on its way out, which the instruction says is done.
_UNDER_WAY = re.compile(
    r"\b(?:being|to be|will be|soon to be)\s+(?:removed|deleted|dropped|retired|replaced)\b|"
    r"\S*(?:退役|删除|移除|废弃)中|即将(?:退役|删除|移除|废弃)|待(?:退役|删除|移除)",
    re.IGNORECASE)
_CODE = re.compile(r"`([^`\n]{3,80})`")
_LEADING_CODE = re.compile(r"\s*[*_]{0,2}`([^`\n]{3,80})`")
_STRUCK = re.compile(r"~~(.+?)~~")
_ASIDE = re.compile(r"\([^()]*\)|（[^（）]*）")
# A line whose own label denies what it lists: "Removed subcommands: ...", "Deprecated: ...".
_DENIAL_LABEL = re.compile(
    r"\s*[*_]{0,2}(?:removed|deleted|dropped|retired|deprecated|obsolete|do not use|don't use|"
    r"never use|no longer (?:used|supported|exists?)|eliminad[oa]s?|entfernt|已删除|已移除|"
    r"已退役|废弃)\b[^:：\n]{0,40}[:：]", re.IGNORECASE)
# A note to whoever edits the file (a banner, a generator's marker), not an instruction.
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_DOC_VERSION = re.compile(r"(?<![\w.])v(\d+(?:\.\d+){0,2})\b", re.IGNORECASE)


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
            out.extend(w for w in rest if w not in _STOP and len(w) > 1)
        elif word not in _STOP and (len(word) > 1 or word.isdigit()):
            out.append(word)
    return out


def sections(file: InstructionFile) -> list[Section]:
    """A heading's whole text (to the next heading of its level or higher), each list item
    with its indented lines, and each paragraph, outside code fences."""
    lines = _HTML_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), file.text).splitlines()
    out: list[Section] = []
    heads = [(n, len(m.group(1)), m.group(2).strip()) for n, line in enumerate(lines)
             if (m := _HEADING.match(line))]
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
        if m := _HEADING.match(line):
            heading = m.group(2).strip()
        item = _ITEM.match(line)
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

    def best(self, text: str, *, only: str | None = None,
             loaded_only: bool = False) -> Repeat | None:
        """The section holding most of `text`'s content words; among those holding nearly
        as much, the smallest, which is the precise citation. A section many times longer
        than the text holds its words by chance, so it is never the answer."""
        words = content_words(text)
        wanted = frozenset(words)
        short = len(wanted) < MIN_CONTENT_WORDS
        if not wanted:
            return None
        hits = self._hits(wanted)
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
        words = content_words(text)
        wanted = frozenset(words)
        held = [(count / len(self.sets[n]), len(self.sets[n]), -n)
                for n, count in self._hits(wanted).items()
                if self.sections[n].source.loaded
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


def rule_part(entry: Entry) -> str:
    """What a memory tells: its description and the text before its `Why:` (the reason and
    the how-to are its own); an inline fact is all rule."""
    if entry.kind is EntryKind.INDEX_LINE:
        return entry.body or entry.description
    head = _RULE_END.split(entry.body, maxsplit=1)[0]
    return f"{entry.description}\n{head}"


def check_instructions(entries: Sequence[Entry],
                       index: InstructionIndex) -> dict[str, tuple[Finding, ...]]:
    """Findings per entry file: repeats of an instruction section (`claude-md-duplicate`),
    and code an instruction calls removed or broken that the memory still gives
    (`contradiction`)."""
    if not index.sections:
        return {}
    found: dict[str, list[Finding]] = defaultdict(list)
    denied = _denied_spans(index)
    for entry in entries:
        if entry.memory_type == "superseded":
            continue
        repeat = _repeat(entry, index)
        if repeat is not None:
            found[entry.file].append(repeat)
        found[entry.file].extend(_against(entry, denied))
        if (drift := _doc_version(entry, index)) is not None:
            found[entry.file].append(drift)
    return {file: tuple(items) for file, items in found.items() if items}


def _repeat(entry: Entry, index: InstructionIndex) -> Finding | None:
    # A fact in the index is one line: against a README's prose it matches by chance.
    fact = entry.kind is EntryKind.INDEX_LINE
    whole = index.best(rule_part(entry) if fact else entry.body, loaded_only=fact)
    rule = index.best(rule_part(entry), loaded_only=fact)
    says = _SAYS_SO.search(entry.text)
    if whole is not None and _repeats(whole):
        return _repeat_finding(whole, "all of it", says)
    if rule is not None and _repeats(rule):
        return _repeat_finding(rule, "the rule it states", says)
    if not fact and ((held := index.restated(entry.text)) is not None
                     or (held := index.restated(rule_part(entry))) is not None):
        return _repeat_finding(held, "the instruction it restates", says)
    if says is not None:
        named = [r for name in dict.fromkeys(_NAMED_FILE.findall(entry.text))
                 if (r := index.best(rule_part(entry), only=name)) is not None]
        best = max(named, key=lambda r: r.contained, default=None)
        if best is not None and best.contained >= SAYS_SO_AT:
            return _repeat_finding(best, "the rule it says is there now", says)
    if not fact and (close := index.best(rule_part(entry), loaded_only=True)) is not None \
            and _paraphrases(close):
        return _repeat_finding(close, "the rule it paraphrases", says)
    return None


def _paraphrases(repeat: Repeat) -> bool:
    """A rule told again in other words: half of its words in one section the agent
    follows, and most of those in the section's order (a memory that only shares a topic
    with the section holds its words scattered)."""
    return (repeat.words >= MIN_CONTENT_WORDS and repeat.contained >= PARAPHRASE_AT
            and repeat.in_order >= PARAPHRASE_IN_ORDER_AT)


def _repeats(repeat: Repeat) -> bool:
    if repeat.section.source.authoritative:
        return repeat.contained >= REPEATS_AT
    return repeat.contained >= REPEATS_OTHER_AT and repeat.in_order >= IN_ORDER_OTHER_AT


_SAYS = {"all of it": "repeats {cited} in full",
         "the rule it states": "its rule repeats {cited}",
         "the instruction it restates": "restates {cited}, whole",
         "the rule it says is there now": "says its rule is in {file} now; {cited} holds it",
         "the rule it paraphrases": "its rule follows {cited} closely"}


def _repeat_finding(repeat: Repeat, part: str, says: re.Match[str] | None) -> Finding:
    section = repeat.section
    cited = section.cited + (f" ({section.heading})" if section.heading else "")
    loaded = "which Claude Code loads every session" if section.source.loaded else \
        "one of the project's own instruction files"
    whose = "the instruction's" if part == "the instruction it restates" else "its"
    message = (_SAYS[part].format(cited=cited, file=section.source.label) + f", {loaded} "
               f"({repeat.contained:.0%} of {whose} words, {repeat.in_order:.0%} in the same "
               "order)")
    evidence: JSON = {
        "kind": "instruction-repeat", "part": part, "claude_md": section.source.label,
        "claude_md_line": section.first, "claude_md_lines": [section.first, section.last],
        "claude_md_heading": section.heading, "claude_md_text": mask_text(
            short_quote(section.text, 400)),
        "loaded": section.source.loaded, "authoritative": section.source.authoritative,
        "contained": round(repeat.contained, 3), "in_order": round(repeat.in_order, 3),
        "words": repeat.words, "says_so": says.group(0) if says else None,
        "whole": part == "all of it", "commit": None, "date": None}
    return Finding(FindingCode.CLAUDE_MD_DUPLICATE, message, evidence=evidence)


@dataclass(frozen=True)
class _Denied:
    span: str
    section: Section
    line: str
    number: int


def _denied_spans(index: InstructionIndex) -> dict[str, list[_Denied]]:
    """Code an instruction says is removed, broken or not to be used, by its lowercase
    text: on a line led by such a label ("Removed subcommands: `sync`, ..."), struck
    through (~~`x`~~), or leading a list item under such a label ("**What does NOT
    work:**" then "- `.range(0, 9999)` — ...")."""
    out: dict[str, list[_Denied]] = defaultdict(list)
    for file in index.files:
        lead = ""
        for number, line in enumerate(file.text.splitlines(), start=1):
            if not line.strip() or _HEADING.match(line):
                lead = ""
                continue
            item = _ITEM.match(line)
            if not item and line.rstrip().rstrip("*").endswith((":", "：")):
                lead = line if _DENIES.search(line) else ""
                continue
            spans = _struck(line)
            body = line[item.end():] if item else line
            if _DENIAL_LABEL.match(body):  # what a remark in brackets names replaces them
                spans += _CODE.findall(_ASIDE.sub(" ", body))
            elif item and lead and (first := _LEADING_CODE.match(body)):
                spans.append(first.group(1))
            for span in spans:
                if _distinctive(span):
                    section = Section(file, number, number, lead.strip(), line)
                    out[span.strip().lower()].append(_Denied(span.strip(), section, line,
                                                             number))
    return out


def _struck(line: str) -> list[str]:
    return [code for struck in _STRUCK.findall(line) for code in _CODE.findall(struck)]


def _distinctive(span: str) -> bool:
    """Code specific enough to mean one thing: not a bare short word."""
    core = span.strip()
    return len(core) >= 4 and not core.isdigit() and core.lower() not in _STOP


def _against(entry: Entry, denied: dict[str, list[_Denied]]) -> list[Finding]:
    """The memory gives, as something to use, code an instruction calls gone or broken."""
    out: list[Finding] = []
    seen: set[str] = set()
    for line in entry.text.splitlines():
        if _DENIES.search(_UNDER_WAY.sub(" ", line)):
            continue  # the memory itself warns against it (being retired is not gone yet)
        for span in _CODE.findall(line):
            key = span.strip().lower()
            hits = denied.get(key) or _word_hits(key, denied)
            if not hits or key in seen:
                continue
            seen.add(key)
            hit = hits[0]
            out.append(Finding(
                FindingCode.CONTRADICTION,
                f"gives `{span.strip()}`, which {hit.section.source.label}:{hit.number} "
                f"calls removed or not to be used ({short_quote(hit.line.strip(), 160)!r})",
                evidence={"kind": "instruction-denies", "claim": span.strip(),
                          "claim_line_text": short_quote(line.strip()),
                          "claude_md": hit.section.source.label, "claude_md_line": hit.number,
                          "claude_md_text": mask_text(short_quote(hit.line.strip(), 300)),
                          "commit": None, "date": None},
                related=()))
    return out


def _word_hits(key: str, denied: dict[str, list[_Denied]]) -> list[_Denied]:
    """`ops sync push` against a removed `sync`: a listed subcommand as one word of a
    command line the memory gives."""
    words = key.split()
    if len(words) < 2:
        return []
    return next((denied[w] for w in words[1:] if w in denied and len(w) >= 4), [])


def _doc_version(entry: Entry, index: InstructionIndex) -> Finding | None:
    """"v9.2 CLAUDE.md" when CLAUDE.md now calls itself v10.1."""
    for file in index.files:
        name = Path(file.label).name
        if name not in entry.text:
            continue
        current = _own_version(file.text)
        if current is None:
            continue
        for line in entry.text.splitlines():
            if name not in line:
                continue
            for m in _DOC_VERSION.finditer(line):
                said = m.group(1)
                if _newer(current, said):
                    return Finding(
                        FindingCode.VERSION_DRIFT,
                        f"cites {name} as v{said}; {file.label} now calls itself v{current}",
                        evidence={"kind": "document-version", "claim": f"v{said}",
                                  "memory_says": f"v{said}", "repo_says": f"v{current}",
                                  "file": file.label, "commit": None, "date": None})
    return None


def _own_version(text: str) -> str | None:
    """The version a document gives itself in its first heading or title line."""
    for line in text.splitlines()[:5]:
        if line.startswith("#") and (m := _DOC_VERSION.search(line)):
            return m.group(1)
    return None


def _newer(current: str, said: str) -> bool:
    def parts(v: str) -> tuple[int, ...]:
        return tuple(int(p) for p in v.split("."))
    return parts(current) > parts(said)


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
