"""The write session every engine operation runs in: the lock, then recovery of old steps."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from prune_memory.engine import lock, openpass
from prune_memory.engine.steps.kit import StepOutcome
from prune_memory.engine.steps.recovery import Recovery, recover_pending
from prune_memory.store.safe_read import refuse_linked_own_paths, require_directory


@contextmanager
def writing(root: Path) -> Iterator[list[str]]:
    """Hold the lock of `root` and settle any interrupted step; yields notes for the user."""
    require_directory(root)
    refuse_linked_own_paths(root)
    with lock.holding(root) as held:
        recovered = recover_pending(root)
        notes = [held.message] if held.message else []
        yield notes + recovery_notes(recovered.steps)


def recover(root: Path) -> tuple[Recovery, list[str]]:
    """Finish or roll back an interrupted step and remove leftover temp files; then record
    the pass it belonged to, when that pass stopped before its record was written."""
    require_directory(root)
    refuse_linked_own_paths(root)
    with lock.holding(root) as held:
        done = recover_pending(root)
        return done, [*([held.message] if held.message else []), *openpass.settle(root)]


def recovery_notes(steps: Sequence[StepOutcome], listed: int = 3) -> list[str]:
    """A line per settled step; past `listed`, a batch's finished withdrawals are counted,
    and only the ones that did not simply finish are named."""
    if len(steps) <= listed:
        return [_note(o) for o in steps]
    done = [o for o in steps if o.status == "done"]
    return [f"recovered an interrupted batch: {len(done)} step(s) finished",
            *(_note(o) for o in steps if o.status != "done")]


def _note(o: StepOutcome) -> str:
    return f"recovered an interrupted {o.op} of {o.file}: {o.status}. {o.message}".strip()
