"""Tie a finding to the claim it is about: the line it sits on, and whether it is the subject.

A memory is many claims. One stale line in a long reference calls for correcting that line;
only when the stale claim is the memory's own subject — its name, its description, its first
heading — is the memory as a whole about something that is gone.
"""

from __future__ import annotations

import dataclasses
import re

from prune_memory.analysis.text import first_heading, short_quote
from prune_memory.model import Entry, EntryKind, Finding


def claim_text(finding: Finding) -> str | None:
    """The words of the memory the finding is about, as the probe recorded them."""
    said = finding.evidence.get("claim", finding.evidence.get("memory_says"))
    return str(said).strip("` ") if isinstance(said, str | int) and str(said).strip() else None


def subject(entry: Entry) -> str:
    """What the memory is about: its name, description and first heading."""
    return " ".join((entry.name, entry.file, entry.description, first_heading(entry.body)))


def locate_claim(entry: Entry, finding: Finding) -> Finding:
    """The finding with `claim` ({where, line, text}) and `central` added to its evidence."""
    said = claim_text(finding)
    if said is None:
        return finding
    where = _where(entry, said)
    central = _central(entry, said, finding)
    evidence = {**finding.evidence, "central": central}
    if where is not None:
        evidence["claim_line"] = where
    return dataclasses.replace(finding, evidence=evidence)


def _central(entry: Entry, said: str, finding: Finding) -> bool:
    """The claim names what the memory is about: the claim (or the issue it cites) is in
    its name, description or first heading, or the words of a file's name are. A fact in
    the index is about what its label names (`**Start:**`, or its first words)."""
    if entry.kind is EntryKind.INDEX_LINE:
        if finding.evidence.get("section"):
            return True  # the file its section's heading names
        label = re.split(r":\*{0,2}\s|\s[—–-]\s", entry.body.split("\n", 1)[0], maxsplit=1)[0]
        return _plain(said) in _plain(label)
    about = _plain(subject(entry))
    named = [said, str(finding.evidence.get("reference") or "")]
    if any(n and _plain(n) in about for n in named):
        return True
    words = [w for w in re.split(r"[_\W]+", _stem(said)) if len(w) >= 4]
    return bool(words) and all(w in about for w in words)


def _where(entry: Entry, said: str) -> dict[str, object] | None:
    if entry.kind is EntryKind.INDEX_LINE:
        number = next((n for n, line in zip(entry.index_lines, entry.body.splitlines(),
                                            strict=False) if said in line), None)
        return {"where": "MEMORY.md", "line": number or entry.index_lines[0],
                "text": short_quote(entry.body.splitlines()[0] if entry.body else "")}
    if said in entry.description:
        return {"where": "description", "line": None, "text": short_quote(entry.description)}
    for number, line in enumerate(entry.body.splitlines(), start=1):
        if said in line:
            return {"where": "body", "line": number, "text": short_quote(line)}
    return None


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[#_\-]+", " ", text.lower()).split())


def _stem(said: str) -> str:
    """A file name without its extension, when long enough to mean something in a name."""
    last = said.rstrip("/").rsplit("/", 1)[-1]
    stem = last.rsplit(".", 1)[0].lower() if "." in last else ""
    return stem if len(stem) >= 4 else "\0"
