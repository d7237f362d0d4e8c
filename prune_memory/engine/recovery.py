"""Finish or undo the steps a crash interrupted, then remove leftover temp files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prune_memory.engine import journal
from prune_memory.engine.journal import PASSING, StepInterrupted, StepOutcome, step_of, why
from prune_memory.errors import PruneMemoryError
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.store import atomic


@dataclass(frozen=True)
class Recovery:
    """What `recover` found and did."""

    steps: tuple[StepOutcome, ...]
    temps_removed: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return not self.steps and not self.temps_removed


def recover_pending(root: Path) -> Recovery:
    """Finish or roll back every interrupted step, then remove leftover temp files.

    The caller holds the lock. A step that cannot be settled raises RefusedError and keeps
    its journal record, so nothing is guessed.
    """
    outcomes: list[StepOutcome] = []
    for pending in journal.pending(root):
        try:
            done = step_of(pending.step).outcomes(root)
        except PruneMemoryError:
            raise  # a conflict a person must settle: the record stays where it is
        except OSError as err:
            if err.errno in PASSING:
                raise StepInterrupted(f"recover could not finish {pending.path.name} "
                                      f"({why(err)}); fix the cause and run `prune-memory "
                                      "recover` again") from err
            done = [_set_aside(root, pending, why(err))]
        except (KeyError, TypeError, ValueError) as err:  # a record of a shape we never write
            done = [_set_aside(root, pending, f"malformed record: {err!r}")]
        else:
            journal.finish(pending.path)
        outcomes.extend(done)
    removed = [*atomic.clean_temps(root), *atomic.clean_temps(root / TOMBSTONE_DIR),
               *journal.clean_temps(root)]
    return Recovery(steps=tuple(outcomes), temps_removed=tuple(str(p) for p in removed))


def _set_aside(root: Path, pending: journal.Pending, why: str) -> StepOutcome:
    kept = journal.set_aside(pending.path, root)
    return StepOutcome(str(pending.step.get("op")), str(pending.step.get("file")),
                       "set-aside", f"it can never finish ({why}); its record was moved to "
                       f"{kept} for you to inspect — the files are as the step left them")
