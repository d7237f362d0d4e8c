"""Regular expressions made cheap and safe: literal pre-filters, line gating, time limits."""
