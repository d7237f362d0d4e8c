"""Files shipped with the tool (templates): from the source tree, or from the installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from prune_memory.errors import PruneMemoryError

_PACKAGED_TEMPLATES = Path(__file__).resolve().parent / "templates"
_SOURCE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@cache
def read_template(name: str) -> str:
    """Text of `templates/<name>`; the wheel carries them as `prune_memory/templates`."""
    # Plain paths, not importlib.resources: the write-time gate reads a template on every
    # tool call, and importlib.resources costs more to import than the read itself.
    for folder in (_PACKAGED_TEMPLATES, _SOURCE_TEMPLATES):
        if (folder / name).is_file():
            return (folder / name).read_text(encoding="utf-8")
    raise PruneMemoryError(f"template {name!r} is missing from this installation")
