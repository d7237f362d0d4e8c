"""prune-memory: deliberate, evidenced, reversible forgetting for Claude Code memory."""

__version__ = "0.1.0"
