"""Personal data in a memory: e-mail addresses and phone numbers.

Not secrets — nothing to rotate, and `run` never flags them — but a store lint reports them,
since personal data read into every context leaks as widely as a key does. The patterns
keep out what only looks like an address: `package@1.0.6`, `redis@6380.service`,
`logo@2x.png`, `git@github.com:org/repo`, documentation domains and no-reply relays.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from prune_memory.secrets.base import ASSIGNMENT, SecretHit, SecretSpan
from prune_memory.secrets.scan import hits_for

EMAIL_LABEL, PHONE_LABEL = "email-address", "phone-number"

_EMAIL = re.compile(
    r"(?<![\w.+%/:-])(?P<local>[A-Za-z0-9][A-Za-z0-9._%+-]{0,63})@"
    r"(?P<domain>(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?P<tld>[A-Za-z]{2,24}))"
    r"(?![\w@-]|\.[A-Za-z0-9]|:[\w/~])")
# Reserved for documentation (RFC 2606, 6761) or private to one network: nobody's address.
_NOBODYS_DOMAINS = ("example.com", "example.org", "example.net", "example.edu")
_NOBODYS_TLDS = frozenset({
    "example", "test", "invalid", "localhost", "local", "lan", "internal", "home",
    "localdomain", "corp",
})
# Names after an `@` that are files or systemd units, not mail domains.
_NOT_MAIL_TLDS = frozenset({
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "pdf", "txt", "json", "yaml",
    "yml", "toml", "md", "py", "js", "ts", "tsx", "jsx", "rs", "go", "rb", "kt", "sh", "css",
    "html", "xml", "lock", "log", "zip", "gz", "tar", "so", "dll", "exe", "service",
    "socket", "timer", "mount", "target", "slice", "scope", "swap", "device",
})
_SERVICE_USERS = frozenset({"git", "noreply", "no-reply", "donotreply", "do-not-reply"})

_INTERNATIONAL = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,5}\)?){2,6}(?![\w.-]?\d)")
_NANP = re.compile(r"(?<![\w.+-])(?:\(\d{3}\)[ ]?|\d{3}[.-])\d{3}[.-]\d{4}(?![\w.-]?\d)")
_LABELLED = re.compile(
    r"\b(?:phone|tel|telephone|mobile|cell|fax)\b\.?\s*(?:no\.?|number|#)?\s*[:=]?\s*"
    r"(?P<value>\+?\d[\d ()./-]{5,}\d)", re.IGNORECASE)
MIN_DIGITS, MAX_DIGITS = 7, 15


class PiiDetector:
    """E-mail addresses and phone numbers, as spans (never values) like the secret detectors."""

    name = "pii"

    def screen(self) -> None:
        """No literal screen: a phone number is only digits."""
        return None

    def spans(self, text: str) -> Iterator[SecretSpan]:
        if "@" in text:
            for match in _EMAIL.finditer(text):
                if _personal_address(match):
                    yield SecretSpan(EMAIL_LABEL, match.start(), match.end(), ASSIGNMENT)
        yield from _phone_spans(text)


def find_pii(text: str) -> tuple[SecretHit, ...]:
    """Every e-mail address and phone number in `text`, described without its value."""
    spans = sorted(set(PiiDetector().spans(text)), key=lambda s: (s.start, -s.length))
    kept: list[SecretSpan] = []
    for span in spans:
        if not kept or not span.overlaps(kept[-1]):
            kept.append(span)
    return hits_for(text, kept)


def _personal_address(match: re.Match[str]) -> bool:
    domain, tld = match.group("domain").lower(), match.group("tld").lower()
    local = match.group("local").lower()
    labels = domain.split(".")[:-1]
    return not (
        tld in _NOBODYS_TLDS or tld in _NOT_MAIL_TLDS
        or any(domain == d or domain.endswith("." + d) for d in _NOBODYS_DOMAINS)
        or all(label.isdigit() for label in labels)  # redis-server@6380.service
        or local in _SERVICE_USERS or "noreply" in domain or "no-reply" in domain
    )


def _phone_spans(text: str) -> Iterator[SecretSpan]:
    if not any(ch.isdigit() for ch in text):
        return
    for pattern in (_INTERNATIONAL, _NANP):
        for match in pattern.finditer(text):
            if MIN_DIGITS <= _digits(match.group(0)) <= MAX_DIGITS:
                yield SecretSpan(PHONE_LABEL, match.start(), match.end(), ASSIGNMENT)
    for match in _LABELLED.finditer(text):
        if MIN_DIGITS <= _digits(match.group("value")) <= MAX_DIGITS:
            yield SecretSpan(PHONE_LABEL, match.start("value"), match.end("value"), ASSIGNMENT)


def _digits(value: str) -> int:
    return sum(ch.isdigit() for ch in value)
