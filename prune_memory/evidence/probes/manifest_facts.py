"""The shape every manifest parser returns, and how package names are compared."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ManifestFacts:
    """What one file declares. Package keys are normalised (`normal_name`)."""

    packages: Mapping[str, str] = field(default_factory=dict)
    runtimes: Mapping[str, str] = field(default_factory=dict)
    name: str | None = None
    locked: bool = False


def normal_name(name: str) -> str:
    """Lower case, with `_` and `.` read as `-` (how pip compares names)."""
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def text_or_none(value: object) -> str | None:
    return str(value) if isinstance(value, str) and value.strip() else None
