"""Contradictions between memories: the same subject with different values.

The commonest real drift is not a deleted file but two memories that disagree: one says the
D75 endpoint is on .134, a newer table says .121. Each line of each memory is a claim. A
claim ties the subjects it names (identifiers such as `FTM-150`, `d75-pi`, `gateway_mcp.py`;
else those of its section heading or the memory's title) to the values it states: an IPv4
address (or its `.121` short form), or a total with its noun ("19 tools"). Two claims in
different places that tie one subject to different values of one kind are shown side by
side, newest explicit date first, for a person to choose. Nothing is resolved here.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from prune_memory.analysis.text import HEADING, short_quote
from prune_memory.model import Entry, EntryKind, Finding, FindingCode, MemoryDir

_IP = re.compile(r"(?<![\w.])((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})"
                 r"(?![\w.]*\d)")
_SHORT_IP = re.compile(r"(?<![\w.])\.(25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")
_TOTAL = re.compile(r"(?<![\w.~])(\d{1,5})\+?\s+(?:[a-z-]+\s+){0,2}?(tools|services|endpoints|"
                    r"tables|commands|routes|pages|plugins|skills|modules|tests|workers|hosts|"
                    r"servers|nodes|jobs|agents|screens|models|collections)\b", re.IGNORECASE)
# "Python 3.12", "MagicOnion 7.10.0", "port 8080": the value names its own subject.
_NAMED_VERSION = re.compile(r"(?<![\w.-])([A-Za-z][\w+-]{1,30})\s+v?(\d+\.\d+(?:\.\d+)?)\b"
                            r"(?![.\w])")
_PORT = re.compile(r"\bport\s+(\d{2,5})\b", re.IGNORECASE)
# Names specific enough to stand for one thing: `code`, words with digits (D75, FTM-150),
# camel case (DietPi) and hyphenated host names (radio-pi).
_KEY = re.compile(r"`([^`\n]{2,60})`|([A-Za-z][\w.-]*\d[\w.-]*|\d[\w-]*[A-Za-z][\w-]*|"
                  r"[a-z]+[A-Z][\w]*|[A-Z][a-z]+[A-Z][\w]*|[a-z][a-z0-9]+(?:-[a-z0-9]+)+)")
_DIGIT = re.compile(r"\d")
_DATE = re.compile(r"\b(20\d\d-[01]\d-[0-3]\d)\b")
# Tokens that look specific but name no one thing.
_GENERIC = frozenset({"readonly", "builtin", "realtime", "nonblocking", "opensource",
                      "selfhosted", "endtoend", "ipv4", "ipv6", "http", "https", "utf8",
                      "x86", "x64", "arm64", "2fa", "mp3", "mp4", "h264", "wifi", "localhost",
                      "127.0.0.1", "0.0.0.0", "1080p", "4k", "24h", "12h"})
_LOOPBACK = ("127.", "0.0.0.0", "255.")
_NOT_TOOLS = frozenset({"version", "v", "step", "phase", "stage", "part", "section", "chapter",
                        "schema", "level", "page", "issue", "pr", "release", "since", "from",
                        "to", "and", "or", "is", "was", "at", "on", "in", "of"})
MAX_VALUES_PER_SUBJECT = 2  # a subject seen with more values is not one host or one total


@dataclass(frozen=True)
class Claim:
    """One line of one memory: where it is, what it names, what values it states."""

    file: str
    line: int
    text: str
    subjects: frozenset[str]
    values: frozenset[tuple[str, str]]  # (kind, value)
    own: frozenset[str]  # the subjects the line names itself, not its section's
    dated: str | None  # an explicit date the memory gives this line (its own or its section's)
    # What an address belongs to: the name nearest before it on the line ("`radio-pi`
    # 10.0.0.2 (D75 link)" gives the address to radio-pi, not to the D75 it also names).
    hosts: frozenset[str] = frozenset()
    # Likewise what a total belongs to ("`test_api.py` 39 tests" counts that file's tests).
    counted: frozenset[str] = frozenset()
    # The day a topic file was last written (None for an index line: MEMORY.md is rewritten
    # whenever any memory is, so its date says nothing of one line).
    written: str | None = None


def check_values(memdir: MemoryDir) -> dict[str, tuple[Finding, ...]]:
    """`contradiction` findings (kind `value-conflict`) per entry file."""
    claims = list(_claims(memdir))
    prefix = _common_prefix(claims)
    claims = [_expand_short(c, prefix) for c in claims]
    found: dict[str, list[Finding]] = defaultdict(list)
    for first, second, subject, kind in _conflicts(claims):
        for this, that in _older_first(first, second):
            found[this.file].append(_finding(this, that, subject, kind))
    return {file: tuple(_dedupe(items)) for file, items in sorted(found.items())}


def _claims(memdir: MemoryDir) -> Iterator[Claim]:
    for entry in memdir.entries:
        if entry.memory_type == "superseded":
            continue
        yield from _entry_claims(entry, memdir)


def _entry_claims(entry: Entry, memdir: MemoryDir) -> Iterator[Claim]:
    if entry.kind is EntryKind.INDEX_LINE:
        section = _section_of(entry, memdir)
        context = _subjects(section)
        dated = _date_in(section)
        for number, text in zip(entry.index_lines, entry.body.splitlines(), strict=False):
            yield _claim(entry.file, number, text, context, dated)
        return
    title = f"{entry.name} {entry.description}"
    context = under = _subjects(title)
    dated = since = _date_in(title)
    written = entry.written_at[0].date().isoformat()
    for number, text in enumerate(entry.body.splitlines(), start=1):
        if found := HEADING.match(text):  # the lines below take the heading's subjects
            under = _subjects(found.group(1)) | context
            since = _date_in(found.group(1)) or dated
            continue
        yield replace(_claim(entry.file, number, text, under, since), written=written)


def _claim(file: str, line: int, text: str, context: frozenset[str],
           dated: str | None) -> Claim:
    if not _DIGIT.search(text):  # every value and date is written with digits
        return Claim(file, line, text, frozenset(), frozenset(), frozenset(), dated)
    values = frozenset(_values(text))
    if not values:
        return Claim(file, line, text, frozenset(), values, frozenset(), _date_in(text) or dated)
    own = _subjects(text)
    keys = [(m.start(), k) for m in _KEY.finditer(text)
            if (k := _key(m)) is not None and not _IP.fullmatch(m.group(0).strip("`"))]
    return Claim(file, line, text, own | context, values, own, _date_in(text) or dated,
                 _owners(text, keys, _IP), _owners(text, keys, _TOTAL))


def _owners(text: str, keys: list[tuple[int, str]],
            value: re.Pattern[str]) -> frozenset[str]:
    """The subject (of `keys`, by position) written last before each `value` on the line."""
    out: set[str] = set()
    for found in value.finditer(text):
        before = [k for start, k in keys if start < found.start()]
        if before:
            out.add(before[-1])
    return frozenset(out)


def _key(match: re.Match[str]) -> str | None:
    raw = (match.group(1) or match.group(2) or "").strip()
    key = re.sub(r"[-_\s]", "", raw.lower())
    if len(key) >= 2 and key not in _GENERIC and not re.fullmatch(r"v?[\d.]+[a-z]?", key):
        return key
    return None


_CLAUSE = re.compile(r"\s[—–]\s|;\s|\.\s|,\s|\s?[()]")
_NEGATED = re.compile(r"\b(?:not|no|never|none|nor)\b|n't\b|\bnicht\b|\bkein|不|没有",
                      re.IGNORECASE)


def _values(text: str) -> Iterator[tuple[str, str]]:
    """The values a line states, clause by clause: "7.10.1 does NOT exist" states none."""
    for clause in _CLAUSE.split(text):
        if not _NEGATED.search(clause):
            yield from _clause_values(clause)


def _clause_values(text: str) -> Iterator[tuple[str, str]]:
    for match in _IP.finditer(text):
        if not match.group(1).startswith(_LOOPBACK):
            yield ("ip", match.group(1))
    for match in _SHORT_IP.finditer(_IP.sub(" ", text)):
        yield ("ip-tail", match.group(1))
    for match in _TOTAL.finditer(text):
        yield (f"count of {match.group(2).lower()}", match.group(1))
    for match in _NAMED_VERSION.finditer(text):
        if match.group(1).lower() not in _NOT_TOOLS:
            yield (f"version of {match.group(1).lower()}", match.group(2))
    for match in _PORT.finditer(text):
        yield ("port", match.group(1))


def _subjects(text: str) -> frozenset[str]:
    return frozenset(k for m in _KEY.finditer(_IP.sub(" ", text)) if (k := _key(m)) is not None)


def _section_of(entry: Entry, memdir: MemoryDir) -> str:
    if memdir.index is None or not entry.index_lines:
        return ""
    first = entry.index_lines[0]
    line = next((ln for ln in memdir.index.lines if ln.number == first), None)
    return line.section or "" if line else ""


def _date_in(text: str) -> str | None:
    dates = _DATE.findall(text)
    return max(dates) if dates else None


def _common_prefix(claims: Sequence[Claim]) -> str | None:
    """The /24 most full addresses share: what a short `.121` is written against."""
    counts: dict[str, int] = defaultdict(int)
    for claim in claims:
        for kind, value in claim.values:
            if kind == "ip":
                counts[value.rsplit(".", 1)[0]] += 1
    if not counts:
        return None
    best = max(sorted(counts), key=lambda p: counts[p])
    return best if counts[best] >= 2 else None


def _expand_short(claim: Claim, prefix: str | None) -> Claim:
    values = {(("ip", f"{prefix}.{v}") if kind == "ip-tail" and prefix else (kind, v))
              for kind, v in claim.values}
    values = {(k, v) for k, v in values if k != "ip-tail"}
    return replace(claim, values=frozenset(values))


def _conflicts(claims: Sequence[Claim]) -> Iterator[tuple[Claim, Claim, str, str]]:
    """Pairs of one-valued claims in different places tying a subject to different values."""
    by_key: dict[tuple[str, str], dict[str, list[Claim]]] = defaultdict(lambda: defaultdict(list))
    for claim in claims:
        kinds = {kind for kind, _ in claim.values}
        for kind in kinds:
            own = [v for k, v in claim.values if k == kind]
            if len(own) != 1:  # a line with two addresses records a change, or two hosts
                continue
            for subject in claim.subjects:
                by_key[(subject, kind)][own[0]].append(claim)
    reported: set[tuple[str, int, str, int]] = set()
    for (subject, kind), values in sorted(by_key.items()):
        if not 2 <= len(values) <= MAX_VALUES_PER_SUBJECT:
            continue
        (_, left), (_, right) = sorted(values.items())
        for first in left:
            for second in right:
                pair = (first.file, first.line, second.file, second.line)
                if first.file == second.file and not first.file.startswith("MEMORY.md"):
                    continue  # one memory's own lines: its author saw both
                if subject not in first.own and subject not in second.own:
                    continue  # tied only through a shared heading: two things, one section
                if kind == "ip" and _owned_elsewhere(first.hosts, second.hosts, subject):
                    continue  # each address follows its own host's name
                if kind.startswith("count of") and _owned_elsewhere(
                        first.counted, second.counted, subject):
                    continue  # each total follows the name of what it counts
                if pair not in reported:
                    reported.add(pair)
                    yield first, second, subject, kind


def _owned_elsewhere(first: frozenset[str], second: frozenset[str], subject: str) -> bool:
    """Both lines give their value to another name than `subject`, each its own."""
    return bool(first and second) and subject not in first | second and first != second


def _older_first(first: Claim, second: Claim) -> list[tuple[Claim, Claim]]:
    """Which side to question. When both carry an explicit date and one is newer, only
    the older; when one does and the other is a file last written before that day, only
    that file (it was not touched since the newer statement). Otherwise both: an undated
    line, or a file written since, may hold either the old value or the correction."""
    if first.dated and second.dated and first.dated != second.dated:
        older, newer = sorted((first, second), key=lambda c: c.dated or "")
        return [(older, newer)]
    for this, that in ((first, second), (second, first)):
        if that.dated and not this.dated and this.written and this.written < that.dated:
            return [(this, that)]
    return [(first, second), (second, first)]


def _finding(this: Claim, that: Claim, subject: str, kind: str) -> Finding:
    newer = sorted((this, that), key=lambda c: c.dated or "", reverse=True)
    mine = next(v for k, v in this.values if k == kind)
    theirs = next(v for k, v in that.values if k == kind)
    message = (f"says {subject!r} has {kind} {mine} (line {this.line}), but {that.file} "
               f"line {that.line} says {theirs}"
               + (f" (dated {that.dated})" if that.dated else "")
               + (f", after this memory was last written ({this.written})" if that.dated and
                  not this.dated and this.written and this.written < that.dated else "")
               + "; read both and keep the one that is true now")
    return Finding(
        FindingCode.CONTRADICTION, message,
        evidence={"kind": "value-conflict", "subject": subject, "value_kind": kind,
                  "sides": [{"file": c.file, "line": c.line, "says": short_quote(c.text),
                             "dated": c.dated} for c in newer],
                  "claim_line": {"where": "body", "line": this.line,
                                 "text": short_quote(this.text)}},
        related=(that.file,))


def _dedupe(items: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, ...]] = set()
    out: list[Finding] = []
    for item in items:
        key = (item.evidence["subject"], *item.related)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
