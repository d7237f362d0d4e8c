"""An index line's hook against its own topic file: two places, one memory, two stories.

The hook (`- [Title](file.md) — hook`) is what every session reads; the topic file is read
only when opened. When the hook says the work is not built while the file says all of it
is done, or gives 134 tests where the file gives 275, one of them was not updated, and the
one every session reads is the one that misleads. The line is reported as its own entry
(`MEMORY.md#L<n>`), for a person to correct.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from prune_memory.analysis.contradictions import stem
from prune_memory.analysis.text import first_heading, short_quote
from prune_memory.analysis.utility import marked_done
from prune_memory.model import Entry, Finding, FindingCode, IndexLine, MemoryDir
from prune_memory.store.index import fact_text, is_pointer, line_entry

# After the link: "— hook", ": hook", "- hook".
_ASIDES = re.compile(r"\([^()\n]*\)|（[^（）\n]*）")
_HOOK = re.compile(r"\]\([^)]*\)\**\s*(?:[—–:-]+\s*)?(.*)$")
_NOT_DONE = re.compile(
    r"\bNOT (?:YET )?(?:BUILT|STARTED|IMPLEMENTED|DONE|SHIPPED|MERGED)\b|"
    r"(?i:\bnot (?:yet )?(?:built|started|implemented|done|shipped|merged)\b|\bplanned\b|"
    r"\bto ?do\b|\bpending\b|\bwip\b|\bin progress\b|\bproposal\b)|未完成|未开始|待做|待办")
_UNCOMMITTED = re.compile(r"(?i:\bnot (?:yet )?committed\b|\buncommitted\b)|未提交")
_COMMITTED = re.compile(r"\bCOMMITTED\b|(?i:\bcommitted (?:as|in) [0-9a-f]{7,})")
_ALL_DONE = re.compile(r"(?i:\ball (?:\d+ |four |three |five )?(?:phases?|steps?|parts?|"
                       r"tasks?) (?:are )?(?:done|complete[d]?|shipped)\b)")
_TOTAL = re.compile(r"\b(\d{1,6})\s+([a-z][a-z-]{2,}s)\b", re.IGNORECASE)
# The hook's verdict on its own memory: "— SUPERSEDED by plan 018", "obsolete". Lower-case
# "superseded plans" speaks of something else.
_SUPERSEDED = re.compile(r"\b(?:SUPERSEDED|OBSOLETE)\b|(?i:\b(?:superseded|obsoleted) by\b)|"
                         r"已(?:废弃|被取代|过时)")
# A numbered part of a plan and what is said of it: "iter 1 DONE", "phases 2–4 pending".
_PART = re.compile(
    r"\b(phase|iter(?:ation)?|step|stage|milestone|sprint|wave)s?[ \t]*+#?(\d{1,2})"
    r"(?:[ \t]*+(?:[–-]|to|through)[ \t]*+(\d{1,2}))?\b(?P<after>[^,;.|\n]{0,40})",
    re.IGNORECASE)
_PART_DONE = re.compile(r"\b(?:done|complete[d]?|finished|shipped|merged|implemented|landed)\b"
                        r"|✅|✔", re.IGNORECASE)
_PART_OPEN = re.compile(r"\b(?:pending|to ?do|not (?:yet )?(?:started|done|built|implemented)|"
                        r"planned|next|in progress|wip|remaining|deferred)\b|⏳|🚧",
                        re.IGNORECASE)
_NOT_TOTALS = frozenset({"second", "minute", "hour", "day", "week", "month", "year", "time",
                         "line", "byte", "char", "percent", "ms", "min", "sec", "step"})


@dataclass(frozen=True)
class HookClash:
    """Index line `line` says `says`; its topic `topic` says `topic_says`."""

    line: IndexLine
    topic: Entry
    kind: str
    says: str
    topic_says: str


def hook_clashes(memdir: MemoryDir) -> list[HookClash]:
    """Every pointer line whose hook disagrees with the topic file it points at."""
    if memdir.index is None:
        return []
    topics = {e.file: e for e in memdir.topics}
    out: list[HookClash] = []
    for line in memdir.index.lines:
        if not is_pointer(line):
            continue
        hook = _hook(line)
        target = _target(line, topics)
        if not hook or target is None:
            continue
        clash = (_status(line, hook, topics[target]) or _parts(line, hook, topics[target])
                 or _total(line, hook, topics[target]))
        if clash is not None:
            out.append(clash)
    return out


def _target(line: IndexLine, topics: Collection[str]) -> str | None:
    """The topic file the pointer line links to, if any."""
    return next((lk.target for lk in line.links if lk.target in topics), None)


def _hook(line: IndexLine) -> str:
    found = _HOOK.search(fact_text(line.text))
    return found.group(1).strip() if found else ""


def _status(line: IndexLine, hook: str, topic: Entry) -> HookClash | None:
    """The hook calls the work not done; the file's own head (or "all phases done") says
    it is."""
    if (uncommitted := _UNCOMMITTED.search(hook)) and (
            committed := _COMMITTED.search(topic.body)):
        return HookClash(line, topic, "status", uncommitted.group(0), committed.group(0))
    pending = _NOT_DONE.search(hook)
    if pending is None:
        return None
    done = marked_done(topic)
    said = str(done.evidence["says"]) if done is not None else None
    if said is None and (found := _ALL_DONE.search(topic.body)):
        said = found.group(0)
    if said is None:
        return None
    return HookClash(line, topic, "status", pending.group(0), said)


def _parts(line: IndexLine, hook: str, topic: Entry) -> HookClash | None:
    """The hook calls a numbered part of the plan pending (or done) that the file, wherever
    it speaks of that part, calls done (or pending)."""
    mine = _part_states(hook)
    if not mine:
        return None
    theirs: dict[tuple[str, int], dict[bool, str]] = {}
    for text in topic.body.splitlines():
        for key, said in _part_states(text).items():
            for done, quote in said.items():
                theirs.setdefault(key, {}).setdefault(done, quote)
    for key, said in mine.items():
        other = theirs.get(key, {})
        if len(said) == 1 and len(other) == 1 and set(said) != set(other):
            return HookClash(line, topic, "status", next(iter(said.values())),
                             next(iter(other.values())))
    return None


def _part_states(text: str) -> dict[tuple[str, int], dict[bool, str]]:
    """(kind of part, number) → done or not → the words saying so, for every numbered part
    whose own clause says which ("iters 2–4 (damage) pending": 2, 3 and 4 pending)."""
    out: dict[tuple[str, int], dict[bool, str]] = {}
    for found in _PART.finditer(_ASIDES.sub("", text)):
        after = found.group("after")
        done, pending = _PART_DONE.search(after), _PART_OPEN.search(after)
        said = done or pending
        if said is None or (done is not None and pending is not None):
            continue  # nothing said of it, or both
        kind = found.group(1).lower()[:4]  # "iter" and "iteration" are one kind
        first = int(found.group(2))
        last = int(found.group(3) or first)
        quote = " ".join((found.group(0)[:found.start("after") - found.start()]
                          + after[:said.end()]).split())
        for number in range(first, min(last, first + 9) + 1):
            out.setdefault((kind, number), {})[done is not None] = quote
    return out


def _total(line: IndexLine, hook: str, topic: Entry) -> HookClash | None:
    """The hook gives a count of something the file counts once, differently."""
    mine = _totals(hook)
    if not mine:
        return None
    theirs: dict[str, set[str]] = {}
    for number, noun in _TOTAL.findall(f"{topic.description}\n{topic.body}"):
        theirs.setdefault(stem(noun.lower()), set()).add(number)
    for noun, number in mine.items():
        counted = theirs.get(noun, set())
        if len(counted) == 1 and number not in counted:
            return HookClash(line, topic, "count", f"{number} {noun}s",
                             f"{next(iter(counted))} {noun}s")
    return None


def _totals(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for number, noun in _TOTAL.findall(text):
        key = stem(noun.lower())
        if key not in _NOT_TOTALS:
            out.setdefault(key, number)
    return out


def clash_finding(clash: HookClash) -> Finding:
    what = "the work is not done" if clash.kind == "status" else f"{clash.says}"
    message = (f"its hook says {clash.says!r} but {clash.topic.file} says "
               f"{clash.topic_says!r}: every session reads the hook, so correct the one "
               f"that is out of date" if clash.kind == "status" else
               f"its hook gives {what} but {clash.topic.file} gives {clash.topic_says}: "
               "correct the one that is out of date")
    return Finding(FindingCode.CONTRADICTION, message, evidence={
        "kind": "hook-vs-topic", "claim": clash.says, "memory_says": clash.says,
        "repo_says": None, "topic": clash.topic.file, "topic_says": clash.topic_says,
        "topic_heading": short_quote(first_heading(clash.topic.body)), "commit": None,
        "date": None}, related=(clash.topic.file,))


def superseded_by_hook(memdir: MemoryDir) -> dict[str, Finding]:
    """Topic file → a finding, where the pointer every session reads calls it superseded."""
    if memdir.index is None:
        return {}
    topics = {e.file for e in memdir.topics}
    found: dict[str, Finding] = {}
    for line in memdir.index.lines:
        hook = _hook(line) if is_pointer(line) else ""
        said = _SUPERSEDED.search(hook)
        target = _target(line, topics)
        if said is None or target is None or target in found:
            continue
        quote = re.split(r"[;()]", hook[said.start():], maxsplit=1)[0].strip(" —–-")
        found[target] = Finding(
            FindingCode.LOW_UTILITY,
            f"its index line (MEMORY.md line {line.number}) says {short_quote(quote, 80)!r}: "
            "what this memory describes has been replaced; read it before correcting it",
            evidence={"kind": "hook-superseded", "says": short_quote(quote, 80),
                      "line": line.number})
    return found


def clash_entries(memdir: MemoryDir) -> tuple[tuple[Entry, ...], dict[str, tuple[Finding, ...]]]:
    """Each clashing pointer line as an index entry of its own, with its finding; and each
    topic its own pointer calls superseded, with that finding."""
    if memdir.index is None:
        return (), {}
    entries: list[Entry] = []
    found: dict[str, tuple[Finding, ...]] = {
        file: (finding,) for file, finding in superseded_by_hook(memdir).items()}
    taken = {e.file for e in memdir.entries}
    for clash in hook_clashes(memdir):
        entry = line_entry(memdir.index, clash.line, clash.topic.mtime)
        if entry.file in taken:
            continue
        entries.append(entry)
        found[entry.file] = (clash_finding(clash),)
    return tuple(entries), found
