"""One memory says another is wrong: a link to it on a line that asks for a correction.

A note such as "[[deploy-notes]]: its port line needs correcting" or "see `ci_setup.md`, now
out of date" is the folder's own evidence that the memory it links holds something no
longer true. It does not say what the truth is, so the linked memory goes to review with
the line that doubts it quoted; nothing is changed on its strength.
"""

from __future__ import annotations

import re
from collections import defaultdict

from prune_memory.analysis.text import short_quote
from prune_memory.model import Finding, FindingCode, Link, LinkKind, MemoryDir

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
            found[target][entry.file] = _finding(target, entry.file, link.line, line)
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


def _finding(target: str, said_by: str, number: int, line: str) -> Finding:
    return Finding(
        FindingCode.CONTRADICTION,
        f"{said_by} line {number} says this memory needs correcting: {short_quote(line, 120)}; "
        "check which part no longer holds",
        evidence={"kind": "said-outdated", "subject": target,
                  "sides": [{"file": said_by, "line": number, "says": short_quote(line)}]},
        related=(said_by,))
