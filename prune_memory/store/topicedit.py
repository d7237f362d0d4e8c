"""Rewrite a topic file's body, keeping its frontmatter and stamping `modified:` in it."""

from __future__ import annotations

import re

from prune_memory.store.lineends import split_ends, usual_end

_MODIFIED = re.compile(r"^modified\s*:")


def with_new_body(raw: bytes, body: str, stamp: str) -> bytes:
    """`raw` with its body replaced by `body`; frontmatter kept, `modified: <stamp>` set.

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
    head = "".join(line + end for line, end in zip(lines[1:close], ends[1:close], strict=True)
                   if not _MODIFIED.match(line))
    text = f"---{ends[0]}{head}modified: {stamp}{eol}---{ends[close] or eol}{new_body}"
    return (bom + text).encode("utf-8")
