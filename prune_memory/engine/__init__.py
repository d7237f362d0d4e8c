"""The write engine: every change to a memory directory, journalled and reversible.

- apply.py: withdraw, inoculate, update — what the procedure and the CLI call; protect.py,
  flags.py, restore.py, undo.py, reaccession.py and repairs.py are the other writes.
- build*.py: what a step will write, worked out from the disk before anything changes
  (preview.py shows it as diffs).
- steps/: the journalled steps that write it; a withdrawal is written by steps/withdraw.py,
  and steps/recovery.py finishes or undoes a step a crash cut short.
- edits/: byte-preserving edits of index lines, log rows, `[[links]]` and topic bodies.
- tombstone.py, superseded.py, vault.py: what a withdrawal leaves behind; passrecord.py
  keeps a pass for a whole undo; session.py and lock.py make one writer at a time.

Files are read and written through store/ (store/files.py, store/atomic.py).
"""
