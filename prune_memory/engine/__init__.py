"""The write engine: every change to a memory directory, journalled and reversible."""
