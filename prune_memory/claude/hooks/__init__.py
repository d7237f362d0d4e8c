"""Claude Code integration: the write-time gate, the read counter, hook and skill install."""
