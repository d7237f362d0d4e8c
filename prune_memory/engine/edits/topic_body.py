"""Rewrite a topic file's body (and its `description`), keeping the rest of its frontmatter
and stamping `modified:` in it."""

from __future__ import annotations

import re

from prune_memory.engine.edits.yamlvalue import scalar
from prune_memory.store.lineends import split_ends, usual_end

_MODIFIED = re.compile(r"^modified\s*:")
_DESCRIPTION = re.compile(r"^description\s*:")


def with_new_body(raw: bytes, body: str, stamp: str, description: str | None = None) -> bytes:
    """`raw` with its body replaced by `body`; frontmatter kept, `modified: <stamp>` set, and
    `description:` rewritten when a new one is given.

    Like Claude Code, only a file that already has frontmatter gets the stamp. The lines
    kept keep their own endings (CR, CRLF or LF); new lines take the file's usual one.
    """
    decoded = raw.decode("utf-8")
    bom = "\ufeff" if decoded.startswith("\ufeff") else ""
    lines, ends = split_ends(decoded[len(bom):])
    eol = usual_end(ends)
    new_body = body.rstrip("\n").replace("\n", eol) + eol
    close = next((n for n in range(1, len(lines)) if lines[n] == "---"), None) \
        if lines and lines[0] == "---" else None
    if close is None:
        return (bom + new_body).encode("utf-8")
    kept = [(line, end) for line, end in zip(lines[1:close], ends[1:close], strict=True)
            if not _MODIFIED.match(line)]
    if description is not None:
        kept = _described(kept, description, eol)
    head = "".join(line + end for line, end in kept)
    after = close + 1
    while after < len(lines) and lines[after] == "":
        after += 1
    gap = "".join(ends[close + 1:after])  # the blank lines before the body, kept as they were
    body_text = new_body.lstrip("\r\n")
    text = f"---{ends[0]}{head}modified: {stamp}{eol}---{ends[close] or eol}{gap}{body_text}"
    return (bom + text).encode("utf-8")


def _described(head: list[tuple[str, str]], description: str,
               eol: str) -> list[tuple[str, str]]:
    """The frontmatter lines with `description:` (and any indented continuation) replaced."""
    at = next((n for n, (ln, _) in enumerate(head) if _DESCRIPTION.match(ln)), None)
    line = (f"description: {scalar(' '.join(description.split()))}", eol)
    if at is None:
        return [*head, line]
    end = at + 1
    while end < len(head) and head[end][0][:1] in (" ", "\t"):
        end += 1
    return [*head[:at], (line[0], head[at][1] or eol), *head[end:]]
