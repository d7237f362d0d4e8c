"""Run journalled steps, and finish or undo the ones a crash interrupted."""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prune_memory.engine.steps import journal
from prune_memory.engine.steps.indexline import run_restore_line, run_withdraw_line
from prune_memory.engine.steps.kit import StepOutcome
from prune_memory.engine.steps.reaccession import run_reaccession
from prune_memory.engine.steps.simple import run_inoculate, run_restore, run_update
from prune_memory.engine.steps.undo import run_undo_pass
from prune_memory.engine.steps.update import (
    run_revert_update,
    run_revert_update_line,
    run_update_entry,
    run_update_line,
)
from prune_memory.engine.steps.withdraw import run_withdraw
from prune_memory.engine.steps.withdraw_batch import run_withdraw_batch
from prune_memory.errors import PruneMemoryError, RefusedError
from prune_memory.model import TOMBSTONE_DIR
from prune_memory.store import atomic

Runner = Callable[[Path, dict[str, Any]], StepOutcome]
RUNNERS: dict[str, Runner] = {
    "withdraw": run_withdraw,
    "restore": run_restore,
    "update": run_update,
    "inoculate": run_inoculate,
    "withdraw-line": run_withdraw_line,
    "restore-line": run_restore_line,
    "update-entry": run_update_entry,
    "revert-update": run_revert_update,
    "update-line": run_update_line,
    "revert-update-line": run_revert_update_line,
    "undo-pass": run_undo_pass,
    "reaccession": run_reaccession,
}
# Steps that carry many entries, with one outcome each.
BATCH_RUNNERS: dict[str, Callable[[Path, dict[str, Any]], list[StepOutcome]]] = {
    "withdraw-batch": run_withdraw_batch,
}


@dataclass(frozen=True)
class Recovery:
    """What `recover` found and did."""

    steps: tuple[StepOutcome, ...]
    temps_removed: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return not self.steps and not self.temps_removed


class StepInterrupted(RefusedError):
    """A step could not finish (disk full, permission denied, a conflict only a person can
    settle). Its journal record stays, so nothing is lost; a batch must stop here."""


def execute(root: Path, step: dict[str, Any]) -> StepOutcome:
    """Journal `step`, run it, and drop the record once every file is in place."""
    (outcome,) = execute_all(root, step)
    return outcome


def execute_all(root: Path, step: dict[str, Any]) -> list[StepOutcome]:
    """`execute` for a step of any kind: one outcome, or one per entry of a batch."""
    _runs(step)  # an unknown kind is refused before anything is journalled
    try:
        record = journal.begin(root, step)
    except OSError as err:
        raise StepInterrupted(f"cannot write the journal ({_why(err)}); nothing was "
                              "changed") from err
    try:
        outcomes = _runs(step)(root, step)
    except (OSError, PruneMemoryError) as err:
        why = _why(err) if isinstance(err, OSError) else str(err)
        raise StepInterrupted(f"{step.get('op')} of {step.get('file')} stopped ({why}); the "
                              f"step is kept in {record} and nothing is lost — fix the cause, "
                              "then run `prune-memory recover`") from err
    journal.finish(record)
    return outcomes


def _why(err: OSError) -> str:
    where = f": {err.filename}" if err.filename else ""
    return f"{err.strerror or err}{where}"


def recover_pending(root: Path) -> Recovery:
    """Finish or roll back every interrupted step, then remove leftover temp files.

    The caller holds the lock. A step that cannot be settled raises RefusedError and keeps
    its journal record, so nothing is guessed.
    """
    outcomes: list[StepOutcome] = []
    for pending in journal.pending(root):
        run = _runs(pending.step)
        try:
            done = run(root, pending.step)
        except PruneMemoryError:
            raise  # a conflict a person must settle: the record stays where it is
        except OSError as err:
            if err.errno in _PASSING:
                raise StepInterrupted(f"recover could not finish {pending.path.name} "
                                      f"({_why(err)}); fix the cause and run `prune-memory "
                                      "recover` again") from err
            done = [_set_aside(root, pending, _why(err))]
        except (KeyError, TypeError, ValueError) as err:  # a record of a shape we never write
            done = [_set_aside(root, pending, f"malformed record: {err!r}")]
        else:
            journal.finish(pending.path)
        outcomes.extend(done)
    removed = [*atomic.clean_temps(root), *atomic.clean_temps(root / TOMBSTONE_DIR),
               *journal.clean_temps(root)]
    return Recovery(steps=tuple(outcomes), temps_removed=tuple(str(p) for p in removed))


# Errors that pass once space, permissions or the device come back: the step waits for
# them. Any other (a name too long, a path that cannot exist) never will.
_PASSING = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS,
                      errno.EIO, errno.EAGAIN, errno.EBUSY, errno.EINTR, errno.ENOMEM,
                      errno.EMFILE, errno.ENFILE})


def _set_aside(root: Path, pending: journal.Pending, why: str) -> StepOutcome:
    kept = journal.set_aside(pending.path, root)
    return StepOutcome(str(pending.step.get("op")), str(pending.step.get("file")),
                       "set-aside", f"it can never finish ({why}); its record was moved to "
                       f"{kept} for you to inspect — the files are as the step left them")


def _runs(step: dict[str, Any]) -> Callable[[Path, dict[str, Any]], list[StepOutcome]]:
    """What runs `step`, returning its outcomes as a list whatever its kind."""
    op = str(step.get("op"))
    if op in BATCH_RUNNERS:
        return BATCH_RUNNERS[op]
    single = _runner(step)
    return lambda root, record: [single(root, record)]


def _runner(step: dict[str, Any]) -> Runner:
    runner = RUNNERS.get(str(step.get("op")))
    if runner is None:
        raise RefusedError(f"journal step of unknown kind {step.get('op')!r}; inspect the "
                           "journal before running a write command again")
    return runner
