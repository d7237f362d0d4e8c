"""Poison: untrusted content stored as a fact, or text that reads as an injected instruction."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from prune_memory.matching.regexgate import LazyPattern, may_match, needle_lines
from prune_memory.secrets.mask import mask_text
from prune_memory.vocab import JSON

_UNTRUSTED_WORDS = frozenset({
    "web", "webpage", "website", "internet", "browse", "browsing", "inbound", "external",
    "untrusted", "email", "e-mail", "mail", "inbox", "message", "dm", "chat", "forum",
    "scraped", "scrape", "crawl", "crawled", "third-party", "thirdparty", "upload",
    "user-content", "unverified", "unknown", "issue-comment", "pr-comment", "ticket",
})
# Trust levels that name untrusted content or where it came from (`trust: web`, `inbound`).
_LOW_TRUST = frozenset({"untrusted", "low", "none", "unverified", "external", "unknown", "web",
                        "inbound", "internet", "third-party", "user-content"})
_HIGH_TRUST = frozenset({"trusted", "high", "verified", "reviewed", "internal"})
# Entries typed as notes are allowed to hold untrusted claims: they are not stored as facts.
NOTE_TYPES = frozenset({"note", "untrusted", "untrusted-note", "untrusted_note", "quarantine",
                        "unverified"})

_INJECTIONS: tuple[tuple[str, LazyPattern], ...] = tuple(
    (kind, LazyPattern(pattern, re.IGNORECASE)) for kind, pattern in (
        ("ignore-instructions",
         r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:(?:the|your|my|of)\s+)*"
         r"(?:previous|prior|above|earlier|preceding|original|system|developer)\s+"
         r"(?:instructions?|prompts?|messages?|rules|directions|guidelines|context)"),
        ("override-system-prompt",
         r"\b(?:disregard|ignore|bypass|override|reveal|print)\s+(?:the\s+|your\s+)?"
         r"system\s+prompt"),
        ("hide-from-user",
         r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|alert|warn|let)\s+the\s+user"
         r"|\bwithout\s+(?:telling|informing|asking|notifying)\s+the\s+user"
         r"|\b(?:keep|hide)\s+(?:this|it)\s+(?:secret\s+)?from\s+the\s+user"),
        ("standing-order", r"\byou\s+must\s+(?:always|never)\b"),
        ("new-identity",
         r"\byou\s+are\s+now\s+(?:a|an|in|the)\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must)\b"
         r"|\bnew\s+(?:system\s+)?instructions?\s*:"),
        ("exfiltrate",
         r"\b(?:send|post|upload|forward|exfiltrate|email)\s+(?:all\s+|the\s+|any\s+|your\s+)?"
         r"(?:\w+\s+){0,2}(?:secrets?|credentials?|tokens?|api\s+keys?|passwords?|\.env"
         r"|env(?:ironment)?\s+variables?)\s+to\b"),
        ("chat-markup", r"</?system>|\[/?INST\]|<\|im_(?:start|end)\|>"),
    )
)


class InjectionHit(NamedTuple):
    """A phrase that reads as an instruction planted for the model, with where it sits."""

    kind: str
    line: int
    phrase: str

    def to_json(self) -> JSON:
        return {"kind": self.kind, "line": self.line, "phrase": self.phrase}


def find_injection(text: str) -> tuple[InjectionHit, ...]:
    """Every injected-instruction phrase in `text`, one per kind and line."""
    found: dict[tuple[int, int], InjectionHit] = {}
    for order, (kind, pattern) in enumerate(_INJECTIONS):
        if not may_match(pattern, text):
            continue
        for number, line in _candidate_lines(pattern, text):
            match = pattern.search(line)
            if match:
                found[(number, order)] = InjectionHit(
                    kind, number, " ".join(match.group(0).split())[:80])
    return tuple(found[key] for key in sorted(found))


# str.splitlines breaks lines at these too; the fast path counts only "\n".
_OTHER_LINE_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _candidate_lines(pattern: LazyPattern, text: str) -> Iterator[tuple[int, str]]:
    """(number, text) of the lines that may match: those holding a required literal."""
    plain = not any(sep in text for sep in _OTHER_LINE_BREAKS)
    spans = needle_lines(pattern, text, per_line=True) if plain else None
    if spans is None:
        yield from enumerate(text.splitlines(), start=1)
        return
    number, counted_to = 1, 0
    for start, end in spans:
        number += text.count("\n", counted_to, start)
        counted_to = start
        yield number, text[start:end]


def untrusted_origin(meta: JSON, memory_type: str | None) -> JSON | None:
    """Evidence when frontmatter marks the content untrusted but it is stored as a fact."""
    if (memory_type or "").lower() in NOTE_TYPES:
        return None
    source = _flat(meta.get("source"))
    trust = _flat(meta.get("trust")).lower()
    if trust in _HIGH_TRUST:
        return None
    reasons = []
    if trust in _LOW_TRUST:
        reasons.append(f"trust: {trust}")
    if _untrusted_source(source):
        reasons.append(f"source: {mask_text(source)[:120]}")
    if not reasons:
        return None
    return {"marked_by": reasons, "stored_as": memory_type or "untyped memory"}


def _untrusted_source(source: str) -> bool:
    lower = source.lower().strip()
    if lower.startswith(("http://", "https://")):
        return True
    words = set(re.split(r"[^a-z0-9-]+", lower)) | set(re.split(r"[^a-z0-9]+", lower))
    return bool(words & _UNTRUSTED_WORDS)


def _flat(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)
