"""Hygiene (steps 3 and 6): secrets, noise, poison, provenance and the never-persist filters.

`check_hygiene` runs every check over a loaded memory directory. The single-text functions it
re-exports (`score_noise`, `find_injection`, `find_secrets`, `match_filters`) are what the
write-time gate calls on a memory that is not saved yet.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from prune_memory.analysis.gcpause import collector_paused
from prune_memory.analysis.noise import (
    LOW_IMPORTANCE_BELOW,
    NOISE_AT,
    NoiseScore,
    importance_of,
    is_ephemeral_kind,
    score_noise,
)
from prune_memory.analysis.poison import find_injection, untrusted_origin
from prune_memory.analysis.policy import FilterHit, Policy, match_filters
from prune_memory.model import Entry, EntryKind, Finding, FindingCode, MemoryDir
from prune_memory.secrets.base import SecretHit
from prune_memory.secrets.mask import describe, mask_text
from prune_memory.secrets.scan import find_secrets, without_allowed

__all__ = ["check_hygiene", "entry_findings", "find_injection", "find_secrets",
           "match_filters", "provenance", "score_noise", "secret_findings"]

PROVENANCE_KEYS = ("source", "origin", "trace_id")
# Frontmatter the scanner skips: our own markers and dates, never a place a secret hides.
_NOT_SCANNED = frozenset({"type", "allow_secret", "modified"})


def check_hygiene(memdir: MemoryDir, *, policy: Policy,
                  require_source: bool = False) -> dict[str, tuple[Finding, ...]]:
    """Findings per entry file; entries with nothing to report are left out."""
    report: dict[str, tuple[Finding, ...]] = {}
    with collector_paused():
        for entry in memdir.entries:
            findings = entry_findings(entry, policy=policy, require_source=require_source)
            if findings:
                report[entry.file] = findings
    return report


def entry_findings(entry: Entry, *, policy: Policy,
                   require_source: bool = False) -> tuple[Finding, ...]:
    """Every hygiene finding for one entry, secrets first."""
    findings = list(secret_findings(entry))
    source = entry.frontmatter.get("source")
    content = entry.body or entry.description  # the content, not the summary line above it
    noise = score_noise(content, source=source if isinstance(source, str) else None,
                        secrets=())  # a secret is flagged on its own, never withdrawn as noise
    if noise.score >= NOISE_AT:
        findings.append(_noise_finding(noise, content))
    findings.extend(_low_importance(entry))
    text = entry.text  # built once: the checks below share its lower-cased copy
    findings.extend(_filter_finding(hit) for hit in match_filters(text, policy))
    findings.extend(poison_findings(text, entry.frontmatter, entry.memory_type))
    if require_source and not provenance(entry.frontmatter):
        findings.append(Finding(
            FindingCode.NO_PROVENANCE,
            "no source: add `source:`, `origin:` or `trace_id:` saying where this came from",
            {"looked_for": list(PROVENANCE_KEYS), "kind": entry.kind.value}))
    return tuple(findings)


def entry_secrets(entry: Entry) -> tuple[tuple[str, SecretHit], ...]:
    """(where, hit) for each secret in the body and the frontmatter, minus allowed labels."""
    where = "index line" if entry.kind is EntryKind.INDEX_LINE else "body"
    body_lines = entry.body.count("\n") + 1
    meta_text = _frontmatter_text(entry.frontmatter)
    # One scan over both parts; lines of the rendered frontmatter mean nothing to a reader,
    # so hits there carry line 0.
    found = [(where, hit) if hit.line <= body_lines
             else ("frontmatter", hit._replace(line=0))
             for hit in find_secrets(f"{entry.body}\n{meta_text}" if meta_text else entry.body)]
    kept = set(without_allowed((hit for _, hit in found), allowed_labels(entry.frontmatter)))
    return tuple((part, hit) for part, hit in found if hit in kept)


def secret_findings(entry: Entry) -> Iterable[Finding]:
    for part, hit in entry_secrets(entry):
        place = f"on line {hit.line} of the {part}" if part == "body" else f"in the {part}"
        yield Finding(
            FindingCode.SECRET,
            f"possible secret {describe(hit)} {place}: rotate it and keep only a pointer to "
            f"where it is stored (or add `allow_secret: {hit.label}` if it is not a secret)",
            hit.to_json())


def poison_findings(text: str, meta: dict[str, Any], memory_type: str | None) -> list[Finding]:
    findings: list[Finding] = []
    origin = untrusted_origin(meta, memory_type)
    if origin is not None:
        findings.append(Finding(
            FindingCode.POISON,
            "untrusted content stored as a fact: verify it, or type it as an untrusted note",
            {"reason": "untrusted-source", **origin}))
    injected = find_injection(text)
    if injected:
        findings.append(Finding(
            FindingCode.POISON,
            f"reads as an instruction planted for the model ({injected[0].kind}); review it",
            {"reason": "injected-instruction", "phrases": [hit.to_json() for hit in injected]}))
    return findings


def provenance(meta: dict[str, Any]) -> str | None:
    """The first non-empty provenance field, by name (`source`, `origin`, `trace_id`)."""
    return next((key for key in PROVENANCE_KEYS if str(meta.get(key) or "").strip()), None)


def allowed_labels(meta: dict[str, Any]) -> frozenset[str]:
    """Labels in `allow_secret:` (one label or a list)."""
    value = meta.get("allow_secret")
    if isinstance(value, str):
        return frozenset(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list):
        return frozenset(str(part).strip() for part in value)
    return frozenset()


def _frontmatter_text(meta: dict[str, Any]) -> str:
    lines: list[str] = []
    for key, value in meta.items():
        if key in _NOT_SCANNED:
            continue
        if isinstance(value, dict):
            lines.append(_frontmatter_text(value))
        elif isinstance(value, list):
            lines.extend(f"{key}: {item}" for item in value)
        elif value is not None:
            lines.append(f"{key}: {value}")
    return "\n".join(lines)


def _low_importance(entry: Entry) -> Iterable[Finding]:
    """An `importance:` below 0.2 is the writer's own rating: a utility signal, which backs a
    withdrawal only together with fidelity evidence, never alone."""
    importance = importance_of(entry.frontmatter)
    if importance is not None and importance < LOW_IMPORTANCE_BELOW:
        yield Finding(FindingCode.LOW_UTILITY,
                      f"rated importance {importance:g} (below {LOW_IMPORTANCE_BELOW:g}) by "
                      "whoever wrote it", {"kind": "low-importance", "importance": importance})


def _noise_finding(noise: NoiseScore, text: str) -> Finding:
    code = FindingCode.EPHEMERAL if is_ephemeral_kind(noise) else FindingCode.NOISE
    what = "session status, not knowledge" if code is FindingCode.EPHEMERAL else "likely noise"
    return Finding(code, f"{what} (noise score {noise.score:.2f}: {', '.join(noise.reasons)})",
                   {**noise.to_json(), "excerpt": excerpt(text)})


def excerpt(text: str, limit: int = 120) -> str:
    """The first non-blank line, secrets masked before it is cut."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    masked = " ".join(mask_text(first).split())
    return masked if len(masked) <= limit else masked[: limit - 1] + "…"


def _filter_finding(hit: FilterHit) -> Finding:
    return Finding(hit.code, f"matches never-persist rule {hit.rule}: {hit.reason}",
                   hit.to_json())
