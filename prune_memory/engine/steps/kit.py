"""What a journalled step is: the record the journal keeps, and what running it did."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# A journal record of one step, as the journal stores it.
Step = dict[str, Any]


@dataclass(frozen=True)
class StepOutcome:
    """What one step did: `done`, `rolled-back`, `cancelled` (after its commit point)."""

    op: str
    file: str
    status: str
    message: str = ""
