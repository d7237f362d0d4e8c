"""The index as Claude Code writes it, read without a markdown parser.

Most MEMORY.md files are `## Section` headings over one-line items, `- [Title](file.md) —
hook`. For a body made only of such lines (and blank ones) markdown-it's reading is known
in advance: each heading names a section, each item is a top-level list item whose one
link is its `[Title](file.md)`. `plain_structure` gives that reading line by line; any
other line, or a title, target or hook with a character markdown could read differently
(emphasis, code, escapes, entities, HTML, a second bracket), returns None, and the caller
parses with markdown-it, the reference. A property test holds the two readings together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from prune_memory.model import Block, Link, LinkKind
from prune_memory.store.links import make_link, markdown

# A heading's text is kept as written; it only must hold no link (no `[`, no `<`).
_HEADING = re.compile(r"(#{1,6}) +([^#\s\[<][^#\[<]*)")
# `[title](target)rest`: a title markdown reads as plain text, a target with no space,
# parenthesis, angle bracket or escape, and a rest that can hold no link (no `[`, no `<`).
_ITEM = re.compile(r"- (\[([^\[\]\\`*<>&!\s][^\[\]\\`*<>&!]*|)\]\(([^\s()<>\\]+)\)([^\[<]*))")
# A target markdown leaves as it is and `links.make_link` takes for a relative memory file.
_FILE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
# An underscore run not between two letters or digits could open or close emphasis.
_EMPHASIS_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9_])_|_(?![A-Za-z0-9_])")


class PlainLine(NamedTuple):
    block: Block
    heading: str | None
    links: tuple[Link, ...]


def plain_structure(lines: Sequence[str], offset: int) -> list[PlainLine] | None:
    """Block, heading and links of each body line (1-based line `offset + n + 1`), or None
    when a line is not of the plain shape."""
    out: list[PlainLine] = []
    for n, line in enumerate(lines):
        if not line:
            out.append(PlainLine(Block.OTHER, None, ()))
            continue
        read = _heading(line) if line[0] == "#" else _item(line, offset + n + 1)
        if read is None:
            return None
        out.append(read)
    return out


def _heading(line: str) -> PlainLine | None:
    found = _HEADING.fullmatch(line)
    if found is None or found.group(2) != found.group(2).strip():
        return None
    return PlainLine(Block.HEADING, found.group(2), ())


def _item(line: str, number: int) -> PlainLine | None:
    found = _ITEM.fullmatch(line)
    if found is None:
        return None
    content, title, target, rest = found.groups()
    if _EMPHASIS_UNDERSCORE.search(title):
        return None
    kind = LinkKind.INLINE if f"[{title}](" in content else LinkKind.REFERENCE
    del rest  # plain text: nothing in it is a link
    if _FILE_NAME.fullmatch(target):  # `file.md`: a memory file, as markdown and make_link see it
        return PlainLine(Block.ITEM, None, (Link(target, title, number, kind),))
    md = markdown()
    href = md.normalizeLink(target)
    if not md.validateLink(href):
        return None
    return PlainLine(Block.ITEM, None, (make_link(href, title, number, kind),))
