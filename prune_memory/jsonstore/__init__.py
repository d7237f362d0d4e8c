"""Audit, prune and recall-check plain JSON-list and JSONL memory stores."""
