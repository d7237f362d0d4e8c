"""The write engine: every change to a memory directory, journalled and reversible.

One module per operation a person knows, each for topic files and facts in MEMORY.md,
one or many, with the typed journal records of its steps built and run beside it:
withdraw.py, update.py, inoculate.py, restore.py, undo.py (a whole pass), reaccession.py,
protect.py, flag.py, repairs.py (step 9's index repairs).

- journal.py: the write-ahead journal and what a step is; recovery.py finishes or undoes
  a step a crash cut short; session.py makes one writer at a time (the lock).
- entries.py: an entry as the disk holds it now, checked against the plan.
- tombstone.py, superseded.py, vault.py, links.py: what a withdrawal leaves behind (the
  tombstone, the counter-memory, the private copy of a secret, `[[links]]` unlinked);
  passrecord.py keeps a pass for a whole undo; preview.py shows what a plan would write.

Files are read and written through store/ (store/files.py, store/atomic.py; the index's
and the log's text edits in store/index_edit.py and store/pruninglog.py).
"""

# Every operation registers its step kinds with the journal when imported: importing them
# here makes each kind known before `recover` reads a record, whatever was imported first.
from prune_memory.engine import (  # noqa: F401
    inoculate,
    reaccession,
    repairs,
    restore,
    undo,
    update,
    withdraw,
)
