"""Guess which file an inexact index link meant: case, a missing `.md`, `-` for `_`."""

from __future__ import annotations

from collections.abc import Iterable


def _key(name: str) -> str:
    return name.lower().removesuffix(".md").replace("-", "_").replace(" ", "_")


def close_match(target: str, files: Iterable[str]) -> str | None:
    """The one existing file an inexact target most likely names, if exactly one fits."""
    wanted = _key(target.rsplit("/", 1)[-1])
    hits = sorted(f for f in files if _key(f) == wanted)
    return hits[0] if len(hits) == 1 else None
