"""What a lint is run with: the provenance rule, the freshness limit, the size cap."""

from __future__ import annotations

from dataclasses import dataclass, replace

DEFAULT_MAX_AGE_DAYS = 180
DEFAULT_MAX_ENTRIES = 500


@dataclass(frozen=True)
class LintOptions:
    """`require_source` None means the default of the target: on for a store, whose
    records carry provenance fields, off for a memory directory (Claude Code writes none)."""

    require_source: bool | None = None
    max_age_days: int = DEFAULT_MAX_AGE_DAYS
    max_entries: int | None = DEFAULT_MAX_ENTRIES

    def for_kind(self, kind: str) -> LintOptions:
        if self.require_source is not None:
            return self
        return replace(self, require_source=kind == "store")
