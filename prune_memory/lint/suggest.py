"""What `lint --suggest` proposes for each item: flag secrets, withdraw or archive noise,
review the rest. Suggestions never change anything; `run` and `withdraw` do that."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prune_memory.analysis.noise import NOISE_AT, STRONG_NOISE_AT, importance_of, score_noise
from prune_memory.lint.items import LintItem, Violation
from prune_memory.model import JSON

# `archive` is a withdrawal too (the body moves to deaccessioned/, restorable); the word
# marks the weaker case, where the entry is probably noise rather than certainly.
FLAG, WITHDRAW, ARCHIVE, REVIEW = "flag", "withdraw", "archive", "review"
_FOR_CHECK = {"secret": FLAG, "pii": FLAG, "duplicate": WITHDRAW, "poison": REVIEW,
              "stale": REVIEW, "no-provenance": REVIEW, "malformed": REVIEW}
_ALWAYS_FLAGGED = ("secret", "pii")


@dataclass(frozen=True)
class Suggestion:
    item: str
    action: str
    reasons: tuple[str, ...]
    noise_score: float

    def to_json(self) -> JSON:
        return {"item": self.item, "suggest": self.action, "reasons": list(self.reasons),
                "noise_score": self.noise_score}


def suggest(items: Sequence[LintItem],
            violations: Sequence[Violation]) -> tuple[Suggestion, ...]:
    """One suggestion per item that has a violation or scores as noise; secrets always flag."""
    checks: dict[str, list[str]] = {}
    for violation in violations:
        checks.setdefault(violation.item, []).append(violation.check.value)
    out: list[Suggestion] = []
    for item in items:
        source = item.meta.get("source")
        noise = score_noise(item.body or item.text, secrets=(),
                            source=source if isinstance(source, str) else None,
                            importance=importance_of(item.meta))
        found = checks.get(item.id, [])
        action = _action(found, noise.score)
        if action is not None:
            reasons = tuple(dict.fromkeys(found)) + (
                (f"noise {noise.score:.2f}: " + ", ".join(noise.reasons),)
                if noise.score >= NOISE_AT else ())
            out.append(Suggestion(item.id, action, reasons, noise.score))
    return tuple(out)


@dataclass(frozen=True)
class Listing:
    """Which suggestions to show: at least `min_score` noise, a window of `limit` from `offset`."""

    min_score: float = 0.0
    limit: int | None = None
    offset: int = 0


def ranked(suggestions: Sequence[Suggestion], listing: Listing) -> tuple[Suggestion, ...]:
    """Flags first and whatever their score (a secret is never hidden by `min_score`), then the
    rest by noise score, highest first; equal scores keep store order. Then the window."""
    flags = [s for s in suggestions if s.action == FLAG]
    rest = sorted((s for s in suggestions
                   if s.action != FLAG and s.noise_score >= listing.min_score),
                  key=lambda s: -s.noise_score)
    ordered = flags + rest
    end = None if listing.limit is None else listing.offset + listing.limit
    return tuple(ordered[listing.offset:end])


def _action(checks: list[str], noise: float) -> str | None:
    """Secrets and personal data outrank everything; then strong noise, duplicates, weaker
    noise, review."""
    if any(check in checks for check in _ALWAYS_FLAGGED):
        return FLAG
    if noise >= STRONG_NOISE_AT or "duplicate" in checks:
        return WITHDRAW
    if noise >= NOISE_AT:
        return ARCHIVE
    if checks:
        return _FOR_CHECK.get(checks[0], REVIEW)
    return None
