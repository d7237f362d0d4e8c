"""Session logs and standing rules: telling a record of one session from a rule that lasts.

A feedback memory says what to do from now on: a `Why:` / `How to apply:` pair, or
imperative wording. It may mention "this session" or "next session" and still be a rule.
A session log reports what happened once: a dated name (`session_2026-03-17.md`,
`bugs_2026_03_30.md`), a heading or description about one session, a list of things
fixed that day, and no rule for later. Only the second shape is evidence for withdrawal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prune_memory.analysis.text import HEADING, headings
from prune_memory.matching.regexgate import GatedPattern
from prune_memory.model import Entry, EntryKind, Finding, FindingCode, MemoryDir
from prune_memory.store.index import is_pointer

_RULE_MARKERS = re.compile(
    r"^\s*(?:[*_]{0,2})(?:why|how to apply|rule|规则|原因|怎么用|如何应用|warum|anwendung|"
    r"por qué|cómo aplicar)(?:[*_]{0,2})\s*[:：]", re.IGNORECASE | re.MULTILINE)
_IMPERATIVE = GatedPattern(
    r"\b(?:always|never|must|do not|don't|prefer|avoid|make sure|remember to|instead of)\b|"
    r"必须|不要|禁止|永远|总是|务必|immer|niemals|nie\b|siempre|nunca",
    re.IGNORECASE)
_DATED_NAME = re.compile(r"(?:19|20)\d\d[-_.]?(?:0[1-9]|1[0-2])[-_.]?(?:[0-2]\d|3[01])")
_SESSION_WORDS = GatedPattern(
    r"\b(?:session|sitzung|sesión|bug ?log|changelog of the day|today|tonight|"
    r"yesterday|tomorrow)\b|会话|今天|今晚|明天|明日|昨天",
    re.IGNORECASE)
_FIXED_ITEMS = GatedPattern(r"\b(?:fixed|resolved|root cause|was broken|caused)\b", re.IGNORECASE)
_MONTHS = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
           r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
# A day named in a title: "Doc refresh 2026-05-06", "(March 22, 2026)", "2026年5月6日".
_DATED_TITLE = re.compile(
    r"(?:19|20)\d\d[-_./](?:0?[1-9]|1[0-2])[-_./](?:[0-2]?\d|3[01])\b|"
    rf"\b{_MONTHS}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d\b|"
    rf"\b\d{{1,2}}\s+{_MONTHS}\.?\s+(?:19|20)\d\d\b|(?:19|20)\d\d年\d{{1,2}}月\d{{1,2}}日",
    re.IGNORECASE)
# "Shipped in 3.0 (2026-04-07)": the day a feature landed dates the feature, not a session.
_MILESTONE = re.compile(r"\b(?:shipped|released|launched|landed|live since|introduced|added in|"
                        r"since v?\d)\b|已上线|已发布", re.IGNORECASE)
# A bullet telling a change made then ("Plan icon changed from Zap to Crown").
_CHANGE_ITEM = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+.*\b(?:changed|replaced|replacing|added|removed|updated|"
    r"renamed|moved|enlarged|increased|decreased|reduced|scaled|bumped|switched|tweaked|"
    r"fixed|now (?:uses|shows|has))\b", re.IGNORECASE | re.MULTILINE)
CHANGE_ITEMS_AT = 4
# Kept for a moment that passes: "archived for tomorrow's comparison".
_FOR_LATER = re.compile(r"\b(?:tomorrow|tonight|later today)\b|明天|明日|今晚|\bmorgen\b|"
                        r"\bmañana\b", re.IGNORECASE)

# Signals needed before a memory reads as a log of one session; a rule in it asks for more.
SESSION_LOG_AT = 2
SESSION_LOG_WITH_RULE_AT = 3


@dataclass(frozen=True)
class SessionSignals:
    """What makes an entry read like a log of one session, and what speaks against it."""

    signals: tuple[str, ...]
    rule: str | None

    @property
    def score(self) -> int:
        return len(self.signals)


def standing_rule(entry: Entry) -> str | None:
    """Why the entry reads as a lasting rule (a quoted marker or phrase), or None."""
    return lasting_rule(entry.memory_type, entry.text)


def lasting_rule(memory_type: str | None, text: str) -> str | None:
    """`standing_rule` for a memory known only by its type and its text (the gate's case)."""
    if memory_type in ("feedback", "user"):
        return f"type: {memory_type}"
    return stated_rule(text)


def stated_rule(text: str) -> str | None:
    """A rule the text states: a `Why:` / `How to apply:` marker, or imperative wording."""
    if found := _RULE_MARKERS.search(text):
        return f"rule marker {found.group(0).strip()!r}"
    imperatives = _IMPERATIVE.findall(text)
    if len(imperatives) >= 3:
        return f"imperative wording ({', '.join(dict.fromkeys(i.lower() for i in imperatives))})"
    return None


def fact_rule(text: str) -> bool:
    """A fact of one index line states a rule of its own: a rule marker, or one word of
    command ("Do NOT use `taskkill`"): one is enough in a line that short."""
    return bool(_RULE_MARKERS.search(text) or _IMPERATIVE.search(text))


def session_signals(entry: Entry, *, rule_from: int = 0) -> SessionSignals:
    """The signals of a one-session log in the entry's name, head and body; the standing
    rule is looked for when there are at least `rule_from` signals (else it is None)."""
    if entry.kind is EntryKind.INDEX_LINE:
        return SessionSignals((), None)
    signals: list[str] = []
    stem = entry.file.removesuffix(".md")
    if dated := _DATED_NAME.search(stem):
        signals.append(f"dated file name ({dated.group(0)})")
    head = " ".join((entry.name, entry.description, *headings(entry.body)[:2]))
    if words := _SESSION_WORDS.search(head):
        signals.append(f"its title or first heading speaks of one session ({words.group(0)!r})")
    if (dated_title := _DATED_TITLE.search(head)) and not _MILESTONE.search(head):
        signals.append(f"a day named in its title ({dated_title.group(0)!r})")
    fixes = len(_FIXED_ITEMS.findall(entry.body))
    if fixes >= 3:
        signals.append(f"a list of things fixed then ({fixes} fixes told)")
    elif (changes := len(_CHANGE_ITEM.findall(entry.body))) >= CHANGE_ITEMS_AT:
        signals.append(f"a list of changes made then ({changes} told)")
    if later := _FOR_LATER.search(entry.body):
        signals.append(f"kept for a moment that has passed ({later.group(0)!r})")
    # its type alone does not make a record of one session a rule; a root cause with its fix
    # is a lesson that outlives the session
    rule = (stated_rule(entry.text) or _lesson(entry.body)) if len(signals) >= rule_from \
        else None
    return SessionSignals(tuple(signals), rule)


_LESSON = re.compile(r"^\W*(?:root cause|fix|workaround|lesson|gotcha)\W*[:：]",
                     re.IGNORECASE | re.MULTILINE)
LESSONS_AT = 2


def _lesson(body: str) -> str | None:
    found = _LESSON.findall(body)
    if len(found) >= LESSONS_AT:
        return f"troubleshooting lessons ({len(found)} root causes, fixes or workarounds)"
    return None


def session_log_finding(entry: Entry) -> Finding | None:
    """An `ephemeral` finding (kind `session-log`) for a log of one session with no rule."""
    found = session_signals(entry, rule_from=SESSION_LOG_AT)  # fewer never make a log
    if found.score < (SESSION_LOG_AT if found.rule is None else SESSION_LOG_WITH_RULE_AT):
        return None
    return Finding(
        FindingCode.EPHEMERAL,
        "reads as a log of one session: " + "; ".join(found.signals)
        + (f"; it also holds a rule ({found.rule}), so read it before withdrawing"
           if found.rule else "; no standing rule in it"),
        evidence={"kind": "session-log", "signals": list(found.signals), "rule": found.rule},
    )




def index_session_logs(memdir: MemoryDir) -> dict[str, tuple[Finding, ...]]:
    """`ephemeral` findings (kind `session-log`) for the facts MEMORY.md keeps under a
    heading about one dated session ("## Previous Session (2026-04-21, cycle 148)"): the
    notes of that session, read in every later one. A fact that states a rule of its own
    ("do not kill the user's browser") is left alone."""
    if memdir.index is None:
        return {}
    under: dict[int, tuple[str, str, str]] = {}  # line → (heading, session word, day)
    open_heads: list[tuple[int, tuple[str, str, str] | None]] = []
    for line in memdir.index.lines:
        if found := HEADING.match(line.text):
            level, title = len(line.text) - len(line.text.lstrip("#")), found.group(1).strip()
            while open_heads and open_heads[-1][0] >= level:
                open_heads.pop()
            said, dated = _SESSION_WORDS.search(title), _DATED_TITLE.search(title)
            open_heads.append((level, (title, said.group(0), dated.group(0))
                               if said and dated else None))
            continue
        session = next((s for _level, s in reversed(open_heads) if s is not None), None)
        if session is not None and not is_pointer(line):
            under[line.number] = session
    out: dict[str, tuple[Finding, ...]] = {}
    for entry in memdir.entries:
        if entry.kind is not EntryKind.INDEX_LINE or not entry.index_lines:
            continue
        heads = {under.get(n) for n in entry.index_lines}
        if len(heads) != 1 or (session := heads.pop()) is None:
            continue
        if fact_rule(entry.body):
            continue
        title, word, day = session
        signals = [f"its section speaks of one session ({word!r} in {title!r})",
                   f"a day named in that heading ({day!r})"]
        out[entry.file] = (Finding(
            FindingCode.EPHEMERAL,
            "reads as a log of one session: " + "; ".join(signals) + "; no standing rule in it",
            evidence={"kind": "session-log", "signals": signals, "rule": None,
                      "section": title}),)
    return out
