"""The only code that reads or writes files inside a memory directory."""
