"""What a review leaves under the state directory: the session to resume, and the keeps.

A review stopped with `q`, Ctrl-C or Ctrl-D is saved as it stands (decisions and edited
text) and offered again by the next `run`. A `keep` is remembered with the hash of the
content that was kept — the pass's `# noqa` — and the entry is not proposed again until
that content changes. Both live outside the memory directory, private to the user.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from prune_memory.model import JSON
from prune_memory.procedure.review import Verdict
from prune_memory.state import dir_key, state_subdir
from prune_memory.store import atomic, confine
from prune_memory.store.safe_read import is_member_name, read_regular

SESSION = "session.json"
KEPT = "kept.json"


def reviews_dir(root: Path) -> Path:
    return state_subdir("reviews", dir_key(root))


@dataclass(frozen=True)
class SavedReview:
    saved_at: str
    verdicts: tuple[Verdict, ...]


def save_session(root: Path, verdicts: Sequence[Verdict], now: datetime) -> Path:
    """Keep the decisions of a review that stopped before it was applied."""
    data = {"memory_dir": str(root), "saved_at": now.isoformat(),
            "decisions": [v.to_json() for v in verdicts]}
    return _write(reviews_dir(root) / SESSION, data)


def load_session(root: Path) -> SavedReview | None:
    """The review saved for `root`, or None. A session file holding what a review never
    saves (decisions that are not a list of decisions, a text that is not text, a file
    that is not a plain name) is refused in one line: `confine.NotOursError`."""
    path = reviews_dir(root) / SESSION
    data = _read(path)
    if not data or not data.get("decisions"):
        return None
    source = f"the saved review {path}"
    items = data["decisions"]
    if not isinstance(items, list):
        raise confine.NotOursError(source, "its decisions are not a list")
    verdicts = tuple(_verdict(root, item, source) for item in items)
    return SavedReview(str(data.get("saved_at", "")), verdicts)


_TEXT_FIELDS = ("text", "reason", "sha256")
_DRAFT_FIELDS = ("pattern", "evidence", "abandonment_reason", "do_not_rederive", "period",
                 "slug")


def _verdict(root: Path, item: object, source: str) -> Verdict:
    """One saved decision, each field of the type a review writes."""
    decision = confine.mapping(item, source, "a decision")
    file = confine.text(decision.get("file"), source, "a decision's file")
    if not is_member_name(confine.confined(root, file, source, "a decision's file")):
        raise confine.NotOursError(source, f"a decision's file {confine.shown(file)} is "
                                   "not a file directly in the memory directory")
    for key in _TEXT_FIELDS:
        confine.optional_text(decision.get(key), source, f"a decision's {key}")
    draft = decision.get("inoculation")
    if draft is not None:
        for key in _DRAFT_FIELDS:
            confine.optional_text(confine.mapping(draft, source, "a draft").get(key), source,
                                  f"a draft's {key}")
    try:
        return Verdict.from_json(decision)
    except (KeyError, ValueError) as err:
        raise confine.NotOursError(source, f"a decision lacks or misnames {err}") from err


def drop_session(root: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        (reviews_dir(root) / SESSION).unlink()


def kept_entries(root: Path) -> dict[str, str]:
    """file → sha256 of the content a reviewer kept."""
    data = _read(reviews_dir(root) / KEPT) or {}
    return {str(file): str(item.get("sha256")) for file, item in data.items()
            if isinstance(item, dict)}


def remember_keeps(root: Path, verdicts: Sequence[Verdict], now: datetime,
                   pass_id: str = "") -> None:
    """Add these keeps to the ledger (a later keep of new content replaces the old one),
    with the pass they were made in, so undoing that pass can take them back too."""
    if not verdicts:
        return
    path = reviews_dir(root) / KEPT
    data = _read(path) or {}
    for verdict in verdicts:
        data[verdict.file] = {"sha256": verdict.sha256, "kept_on": now.date().isoformat(),
                              **({"pass": pass_id} if pass_id else {})}
    _write(path, data)


def forget_keeps(root: Path, pass_id: str) -> list[str]:
    """Drop the keeps made in pass `pass_id` (it is being undone: its review is asked
    again); the files whose keep was dropped."""
    path = reviews_dir(root) / KEPT
    data = _read(path) or {}
    dropped = sorted(file for file, item in data.items()
                     if isinstance(item, dict) and item.get("pass") == pass_id)
    if dropped:
        _write(path, {file: item for file, item in data.items() if file not in dropped})
    return dropped


def _read(path: Path) -> JSON | None:
    try:
        data = json.loads(read_regular(path).decode("utf-8"))  # never waits on a FIFO
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _write(path: Path, data: JSON) -> Path:
    atomic.atomic_write(path, json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8"))
    path.chmod(0o600)  # edited text can hold what the memory held
    return path
