"""The store lint: provenance, freshness, secrets, poison, duplicates and a size cap."""
