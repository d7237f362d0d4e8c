"""Text analysis: duplicates, contradictions, noise and the other readings of memories."""
