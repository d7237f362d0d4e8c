"""What one pass is run with: the repo to check against, the clock, the thresholds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from prune_memory.analysis.access import Access


@dataclass(frozen=True)
class PassOptions:
    repo: Path | None
    now: datetime
    home: Path = field(default_factory=Path.home)
    config: Path | None = None
    near_threshold: float = 0.8
    require_source: bool = False
    reads: Mapping[str, Access] = field(default_factory=dict)
