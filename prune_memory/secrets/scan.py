"""One scan over every detector: known examples dropped, overlapping finds merged."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from prune_memory.matching.regexgate import Needles, folds_unseen, lowered
from prune_memory.secrets.base import SecretDetector, SecretHit, SecretSpan, shown_prefix
from prune_memory.secrets.gitleaks import GitleaksDetector
from prune_memory.secrets.patterns import PatternDetector
from prune_memory.secrets.shortkeys import ShortKeyDetector
from prune_memory.secrets.vendor import VendorDetector

DETECTORS: tuple[SecretDetector, ...] = (PatternDetector(), ShortKeyDetector(), VendorDetector(),
                                         GitleaksDetector())

# Published documentation keys: they look exactly like secrets and are meant to be copied.
KNOWN_EXAMPLES = frozenset({
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
})


def find_spans(text: str,
               detectors: Sequence[SecretDetector] = DETECTORS) -> tuple[SecretSpan, ...]:
    """Where the secrets in `text` are, one span per secret, in text order."""
    if detectors is DETECTORS:
        return _default_spans(text)
    if not _screen(tuple(detectors)).may_hold(text):
        return ()  # the usual case: not one literal any detector needs
    return scan_spans(text, detectors)


@lru_cache(maxsize=1 << 14)
def _default_spans(text: str) -> tuple[SecretSpan, ...]:
    """`find_spans` with every detector, remembered: a plan scans an entry's text, then
    masks the same text wherever it quotes it."""
    if not _screen(DETECTORS).may_hold(text):
        return ()
    return scan_spans(text, DETECTORS)


def scan_spans(text: str, detectors: Sequence[SecretDetector]) -> tuple[SecretSpan, ...]:
    """`find_spans` without the screen: every detector runs."""
    candidates = [span for detector in detectors for span in detector.spans(text)
                  if not is_known_example(text[span.start:span.end])]
    return _merge(candidates)


class _Screen:
    """One pass for every literal of every detector, before any detector runs."""

    def __init__(self, detectors: tuple[SecretDetector, ...]) -> None:
        screens = [detector.screen() for detector in detectors]
        self.always = any(screen is None for screen in screens)
        self.folded = Needles(n for screen in screens if screen for n in screen.needles)
        self.exact = Needles(n for screen in screens if screen for n in screen.exact)
        patterns = [re.compile(p.pattern, p.flags)
                    for screen in screens if screen for p in screen.patterns]
        # The plain patterns searched as one alternation of the text.
        joined = [p for p in patterns if not p.flags & ~re.UNICODE and not p.groups]
        self.patterns = tuple(p for p in patterns if p not in joined)
        if joined:
            self.patterns = (re.compile("|".join(f"(?:{p.pattern})" for p in joined)),
                             *self.patterns)

    def may_hold(self, text: str) -> bool:
        if self.always or (self.folded and self.folded.found_in(lowered(text))) \
                or self.exact.found_in(text):
            return True
        if folds_unseen(text):
            return True  # they fold to ASCII letters under IGNORECASE: let the detectors look
        return any(pattern.search(text) for pattern in self.patterns)


_SCREENS: dict[tuple[SecretDetector, ...], _Screen] = {}


def _screen(detectors: tuple[SecretDetector, ...]) -> _Screen:
    screen = _SCREENS.get(detectors)
    if screen is None:
        screen = _SCREENS[detectors] = _Screen(detectors)
    return screen


def find_secrets(text: str,
                 detectors: Sequence[SecretDetector] = DETECTORS) -> tuple[SecretHit, ...]:
    """Every secret in `text`, described by label, a short prefix, length and 1-based line."""
    return hits_for(text, find_spans(text, detectors))


def hits_for(text: str, spans: Iterable[SecretSpan]) -> tuple[SecretHit, ...]:
    """Describe spans of `text` without keeping their values."""
    spans = tuple(spans)
    if not spans:
        return ()
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return tuple(
        SecretHit(label=span.label, first4=shown_prefix(text[span.start:span.end]),
                  length=span.length, line=bisect.bisect_right(line_starts, span.start))
        for span in spans
    )


def without_allowed(hits: Iterable[SecretHit], allowed: Iterable[str]) -> tuple[SecretHit, ...]:
    """Drop hits whose label the entry explicitly allows (`allow_secret:` in its frontmatter)."""
    allow = frozenset(allowed)
    return tuple(hit for hit in hits if hit.label not in allow)


def is_known_example(value: str) -> bool:
    """Documentation keys, which vendors publish with an EXAMPLE marker in the value."""
    return value in KNOWN_EXAMPLES or "EXAMPLE" in value


def _merge(candidates: list[SecretSpan]) -> tuple[SecretSpan, ...]:
    """Keep the surest, then longest, of any overlapping spans (ties: the first detector).

    Kept spans with a length never overlap, so sorted by start their ends rise too, and a
    new span need only be checked against its two neighbours there (a text of 40,000
    token-shaped strings used to cost a billion comparisons). Empty spans, which no
    detector returns, are kept apart as points so the answer stays the same for them too.
    """
    ranked = sorted(candidates, key=lambda s: (-s.confidence, -s.length))
    starts: list[int] = []
    spans: list[SecretSpan] = []
    points: list[int] = []
    kept: list[SecretSpan] = []
    for span in ranked:
        at = bisect.bisect_right(starts, span.start)
        if any(span.overlaps(other) for other in spans[max(at - 1, 0):at + 1]):
            continue
        after = bisect.bisect_right(points, span.start)
        if after < len(points) and points[after] < span.end:
            continue  # an empty span sits strictly inside this one
        kept.append(span)
        if span.length:
            starts.insert(at, span.start)
            spans.insert(at, span)
        else:
            bisect.insort(points, span.start)
    return tuple(sorted(kept, key=lambda s: s.start))
