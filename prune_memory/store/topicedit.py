"""Rewrite a topic file's body, keeping its frontmatter and stamping `modified:` in it."""

from __future__ import annotations

import re

_MODIFIED = re.compile(r"^modified\s*:")


def with_new_body(raw: bytes, body: str, stamp: str) -> bytes:
    """`raw` with its body replaced by `body`; frontmatter kept, `modified: <stamp>` set.

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
    head.append(f"modified: {stamp}")
    return (bom + eol.join(["---", *head, "---", new_body])).encode("utf-8")
