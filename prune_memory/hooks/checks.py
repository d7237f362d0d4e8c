"""The gate's checks on text about to become memory: secrets, injected instructions, and the
retention policy's never-persist rules. They are the hygiene stage's own single-text checks.

Imported only when a write really targets a memory directory, so other writes never pay for it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from prune_memory.errors import PruneMemoryError
from prune_memory.hooks.payload import Candidate
from prune_memory.secrets.base import SecretSpan
from prune_memory.secrets.mask import describe
from prune_memory.secrets.patterns import PatternDetector
from prune_memory.secrets.scan import find_spans, hits_for
from prune_memory.secrets.vendor import VendorDetector
from prune_memory.stages.filters import Policy, default_policy, load_policy, match_filters
from prune_memory.stages.poison import find_injection
from prune_memory.vocab import OWN_FILES

_PATTERNS = (PatternDetector(),)
_VENDOR = (VendorDetector(),)


class GateHit(NamedTuple):
    """One reason to stop a write: the rule, where it sits, and a description with no secret."""

    rule: str  # "secret", "injected-instruction" or "never-persist:<rule id>"
    where: str
    line: int
    detail: str


class CheckResult(NamedTuple):
    hits: tuple[GateHit, ...]
    problems: tuple[str, ...]  # why a check ran with less than it should have (for the log)


def check_texts(texts: Iterable[Candidate], memory_dir: str, *,
                policy_rules: bool = True) -> CheckResult:
    """Every gate hit in `texts`, bound for `memory_dir` (whose retention policy applies).

    `policy_rules=False` leaves the never-persist rules out: the tool's own files quote the
    very phrases those rules look for (the policy's examples, the log's entry summaries).
    """
    policy, problems = _policy(memory_dir) if policy_rules else (None, ())
    hits: list[GateHit] = []
    for candidate in texts:
        hits.extend(_secret_hits(candidate))
        hits.extend(GateHit("injected-instruction", candidate.where, hit.line, hit.kind)
                    for hit in find_injection(candidate.text))
        if policy is not None:
            found = match_filters(candidate.text, policy, within_lines=True)
            hits.extend(GateHit(f"never-persist:{hit.rule}", candidate.where, hit.line,
                                hit.reason) for hit in found)
    return CheckResult(tuple(hits), problems)


def is_own_file(path: str, memory_dir: str) -> bool:
    """Whether `path` is the pruning log or the retention policy of `memory_dir`."""
    real = os.path.realpath(path)
    return os.path.dirname(real) == memory_dir and os.path.basename(real) in OWN_FILES


def secret_spans(text: str) -> tuple[SecretSpan, ...]:
    """The scan's spans, with the vendor plugins run only over text the patterns left alone.

    A token our own patterns already caught then never costs the detect-secrets import, which
    alone would use up the gate's time budget; vendor finds elsewhere are still reported.
    """
    found = find_spans(text, _PATTERNS)
    blanked = _blank(text, found)
    extra = tuple(span for span in find_spans(blanked, _VENDOR)
                  if not any(span.overlaps(other) for other in found))
    return tuple(sorted(found + extra, key=lambda span: span.start))


def _secret_hits(candidate: Candidate) -> list[GateHit]:
    spans = secret_spans(candidate.text)
    return [GateHit("secret", candidate.where, hit.line, describe(hit))
            for hit in hits_for(candidate.text, spans)]


def _blank(text: str, spans: tuple[SecretSpan, ...]) -> str:
    """`text` with each span replaced by spaces, so offsets stay the same."""
    if not spans:
        return text
    pieces, cursor = [], 0
    for span in spans:
        pieces += [text[cursor:span.start], " " * span.length]
        cursor = span.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _policy(memory_dir: str) -> tuple[Policy, tuple[str, ...]]:
    """The directory's policy; the built-in rules (and a note) when its file cannot be used."""
    try:
        return load_policy(Path(memory_dir)), ()
    except PruneMemoryError as err:
        return default_policy(), (f"retention policy unusable, built-in rules applied: {err}",)
