"""gitleaks' token rules, kept as data (`gitleaks.toml` beside this module), each run only
where one of its keywords occurs.

detect-secrets' plugins miss tokens gitleaks keeps rules for: a bare npm access token
(`npm_…`, not only in an `.npmrc` line), PyPI upload tokens shorter than its 70 characters,
Discord's client secrets, and the dozens of prefixed tokens (`glsa_`, `hf_`, `dop_v1_`,
`shpat_`) of services it has no plugin for. A rule's `entropy` is the least Shannon entropy
(bits per character) its secret must have, as gitleaks applies it.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import NamedTuple

from prune_memory.matching.regexgate import LazyPattern, Needles, lowered
from prune_memory.secrets.base import VENDOR_FORMAT, Screen, SecretSpan

RULES_FILE = Path(__file__).with_name("gitleaks.toml")


class Rule(NamedTuple):
    label: str
    regex: LazyPattern
    keywords: tuple[str, ...]
    entropy: float
    group: int | None  # the group holding the secret; None: the longest one that matched


@cache
def rules() -> tuple[Rule, ...]:
    data = tomllib.loads(RULES_FILE.read_text(encoding="utf-8"))
    return tuple(Rule(str(r["id"]), LazyPattern(str(r["regex"])),
                      tuple(str(k).lower() for k in r["keywords"]),
                      float(r.get("entropy", 0)), r.get("secretGroup"))
                 for r in data["rules"])


class GitleaksDetector:
    name = "gitleaks"

    def screen(self) -> Screen:
        return Screen(tuple(sorted({k for rule in rules() for k in rule.keywords})))

    def spans(self, text: str) -> Iterator[SecretSpan]:
        present = _keywords().present(lowered(text))
        for rule in rules():
            if present.isdisjoint(rule.keywords):
                continue
            for match in rule.regex.finditer(text):
                start, end = _secret_part(match, rule.group)
                if end > start and entropy(text[start:end]) >= rule.entropy:
                    yield SecretSpan(rule.label, start, end, VENDOR_FORMAT)


@cache
def _keywords() -> Needles:
    return Needles(k for rule in rules() for k in rule.keywords)


def entropy(value: str) -> float:
    """Shannon entropy of `value`, in bits per character."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _secret_part(match: re.Match[str], group: int | None) -> tuple[int, int]:
    if group is not None:
        return match.span(group)
    groups = [i for i in range(1, (match.re.groups or 0) + 1) if match.group(i)]
    best = max(groups, key=lambda i: len(match.group(i)), default=0)
    return match.span(best)
