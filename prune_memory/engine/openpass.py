"""A pass is open from its snapshot until its record is written, so one that never got to
the end (killed after a step, stopped by a full disk) can still be undone whole.

`begin` leaves `<stamp>.open.json` beside the pass records before the pass's first write;
writing the record removes it. `settle` — run by `recover` and by `restore --pass` — turns
a marker its process left behind into the pass record it would have written: what differs
from the snapshot now, and the register ids the log gained since. Without it, `restore
--pass last` undid the pass before instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

from prune_memory.engine import passcheck, passrecord
from prune_memory.errors import RefusedError
from prune_memory.model import LOG_FILE
from prune_memory.secrets.mask import mask_text
from prune_memory.store import atomic, confine
from prune_memory.store.pruninglog import parse_log, read_log
from prune_memory.store.safe_read import read_regular
from prune_memory.store.snapshot import read_snapshot_file

OPEN_SUFFIX = ".open.json"
_REGISTER_ID = re.compile(r"\d{4}-\d{2}-\d{2}-\d+")


def marker(root: Path, stamp: str) -> Path:
    return passrecord.passes_dir(root) / f"{stamp}{OPEN_SUFFIX}"


def begin(root: Path, manifest: Path, stamp: str, date: str, command: str = "") -> None:
    """Mark the pass of snapshot `stamp` open (after settling any a dead process left);
    `command` is what makes it, so a pass recorded by `settle` is named like the others."""
    settle(root)
    data = {"manifest": str(manifest), "stamp": stamp, "date": date, "pid": os.getpid(),
            "command": mask_text(command)}
    try:
        atomic.atomic_write(marker(root, stamp), json.dumps(data).encode("utf-8"))
    except OSError as err:
        raise RefusedError(f"cannot mark the pass open under the state directory "
                           f"({err.strerror or err}); nothing was changed") from err


def close(root: Path, stamp: str) -> None:
    """The pass is recorded (or wrote nothing): its marker goes."""
    with contextlib.suppress(FileNotFoundError):
        marker(root, stamp).unlink()


def settle(root: Path) -> list[str]:
    """Record each pass a process left open when it stopped; a note per pass recorded."""
    notes: list[str] = []
    for path in sorted(passrecord.passes_dir(root).glob(f"*{OPEN_SUFFIX}")):
        try:
            data = json.loads(read_regular(path).decode("utf-8"))
        except (OSError, ValueError, RecursionError) as err:
            raise confine.NotOursError(f"open pass {path}", "it does not read as JSON") from err
        manifest, stamp, date, pid, command = passcheck.checked_open(root, path, data)
        if pid != os.getpid() and _alive(pid):
            continue  # a pass still running in another process, between two write sessions
        if not (passrecord.passes_dir(root) / f"{stamp}{passrecord.RECORD_SUFFIX}").exists():
            ids = _logged_since(root, Path(manifest).parent)
            if ids:  # the pass logged a change of its own; else it stopped before any
                passrecord.save(root, Path(manifest), stamp, date, ids, command=command)
                notes.append(f"recorded the pass {stamp}, which stopped before it finished, "
                             "so `restore --pass` can undo it")
        close(root, stamp)
    return notes


def _logged_since(root: Path, snapshot: Path) -> tuple[str, ...]:
    """The register ids the pass wrote rows for since its snapshot: its withdrawals and
    updates, and changes that name one (a reaccession). Protection and flag rows, which
    name none, are not a pass's."""
    raw = read_snapshot_file(snapshot, LOG_FILE)
    before = parse_log(raw.decode("utf-8", errors="replace") if raw else "")  # as read_log
    now = read_log(root)
    known = {row.register_id for row in before.rows}
    ids = [row.register_id for row in now.rows if row.register_id not in known]
    ids += [c.register_id for c in now.changes[len(before.changes):]
            if c.change != "restored" and _REGISTER_ID.fullmatch(c.register_id)]
    return tuple(dict.fromkeys(ids))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
