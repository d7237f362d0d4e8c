"""What the steps learn from the project's git repo: history, probes, claims."""
