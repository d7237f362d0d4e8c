"""Files shipped with the tool (templates): from the source tree, or from the installed wheel."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from prune_memory.errors import PruneMemoryError

_SOURCE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@cache
def read_template(name: str) -> str:
    """Text of `templates/<name>`; the wheel carries them as `prune_memory/templates`."""
    packaged = resources.files("prune_memory").joinpath("templates").joinpath(name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = _SOURCE_TEMPLATES / name
    if source.is_file():
        return source.read_text(encoding="utf-8")
    raise PruneMemoryError(f"template {name!r} is missing from this installation")
