"""What a memory repeats of the project's own instructions, or says against them.

A memory that restates a section of CLAUDE.md, AGENTS.md or another instruction file (see
`instruction_files`) costs index space and says nothing new: the procedure withdraws it. A
memory, or the rule at its head, is matched against every section by containment: the share
of its content words the section also holds, and the share it holds in the same order. A
memory that recommends what the instructions call removed or broken is contradicted by
them, and one that cites an older version of a document than they do has drifted: a person
reads both.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from prune_memory.analysis.instruction_files import (
    HEADING,
    LIST_ITEM,
    MIN_CONTENT_WORDS,
    STOP_WORDS,
    InstructionIndex,
    Repeat,
    Section,
)
from prune_memory.analysis.text import short_quote
from prune_memory.model import JSON, Entry, EntryKind, Finding, FindingCode
from prune_memory.secrets.mask import mask_text

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
# "on every project", "across repos": a rule wider than this repo, which its files only
# hold for this repo.
_BEYOND_PROJECT = re.compile(
    r"\b(?:every|all|any|each|other)\s+(?:of\s+(?:my|the|your)\s+)?(?:projects?|repos?|"
    r"repositor(?:y|ies)|codebases?)\b|\bcross[- ]project\b|\bacross\s+(?:\w+\s+)?"
    r"(?:projects|repos|repositories)\b", re.IGNORECASE)
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
_DOC_VERSION = re.compile(r"(?<![\w.])v(\d+(?:\.\d+){0,2})\b", re.IGNORECASE)


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
    if says is None and _BEYOND_PROJECT.search(entry.text):
        return None
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
            if not line.strip() or HEADING.match(line):
                lead = ""
                continue
            item = LIST_ITEM.match(line)
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
    return len(core) >= 4 and not core.isdigit() and core.lower() not in STOP_WORDS


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
