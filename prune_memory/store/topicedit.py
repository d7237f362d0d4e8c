"""Rewrite a topic file's body (and its `description`), keeping the rest of its frontmatter
and stamping `modified:` in it."""

from __future__ import annotations

import re

from prune_memory.store.yamlvalue import scalar

_MODIFIED = re.compile(r"^modified\s*:")
_DESCRIPTION = re.compile(r"^description\s*:")


def with_new_body(raw: bytes, body: str, stamp: str, description: str | None = None) -> bytes:
    """`raw` with its body replaced by `body`; frontmatter kept, `modified: <stamp>` set, and
    `description:` rewritten when a new one is given.

    Like Claude Code, only a file that already has frontmatter gets the stamp.
    """
    decoded = raw.decode("utf-8")
    bom = "\ufeff" if decoded.startswith("\ufeff") else ""
    text = decoded[len(bom):]
    eol = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(eol)
    new_body = body.rstrip("\n").replace("\n", eol) + eol
    if not lines or lines[0] != "---":
        return (bom + new_body).encode("utf-8")
    close = next((n for n in range(1, len(lines)) if lines[n] == "---"), None)
    if close is None:
        return (bom + new_body).encode("utf-8")
    head = [ln for ln in lines[1:close] if not _MODIFIED.match(ln)]
    if description is not None:
        head = _described(head, description)
    head.append(f"modified: {stamp}")
    old_body = eol.join(lines[close + 1:])
    gap = old_body[:len(old_body) - len(old_body.lstrip("\r\n"))]  # blank lines kept
    return (bom + eol.join(["---", *head, "---", gap + new_body.lstrip("\r\n")])).encode("utf-8")


def _described(head: list[str], description: str) -> list[str]:
    """The frontmatter lines with `description:` (and any indented continuation) replaced."""
    at = next((n for n, ln in enumerate(head) if _DESCRIPTION.match(ln)), None)
    line = f"description: {scalar(' '.join(description.split()))}"
    if at is None:
        return [*head, line]
    end = at + 1
    while end < len(head) and head[end][:1] in (" ", "\t"):
        end += 1
    return [*head[:at], line, *head[end:]]
