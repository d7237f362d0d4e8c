"""The journalled steps: each is recorded before it runs, so a crash can be finished or undone."""
