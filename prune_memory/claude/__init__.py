"""Claude Code's side: where it keeps memory, its hooks, settings, skill and transcripts."""
