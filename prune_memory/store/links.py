"""Find the links in markdown text: inline, reference-style and `[[name]]`, never inside code."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from prune_memory.model import Link, LinkKind

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

WIKI_LINK = re.compile(r"\[\[([^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|[^\[\]\n]*)?\]\]")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt  # only what parses pays for it (not the write gate)

    return MarkdownIt("commonmark").enable("table")


def find_links(text: str, *, line_offset: int = 0,
               tokens: list[Token] | None = None) -> tuple[Link, ...]:
    """Every link in `text`; `line` is 1-based, shifted by `line_offset` lines.

    Pass `tokens` when the caller has already parsed `text`.
    """
    if tokens is None and "[" not in text:
        return ()  # no bracket, no link: skip the parse
    links: list[Link] = []
    for token in tokens if tokens is not None else markdown().parse(text):
        if token.type == "inline" and token.map is not None:
            links.extend(_inline_links(token, token.map[0] + 1 + line_offset))
    return tuple(links)


def _inline_links(block: Token, first_line: int) -> Iterator[Link]:
    line = first_line
    children = block.children or []
    for pos, child in enumerate(children):
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == "link_open":
            href = str(child.attrs.get("href", ""))
            label = _link_label(children, pos)
            kind = LinkKind.INLINE if f"[{label}](" in block.content else LinkKind.REFERENCE
            yield make_link(href, label, line, kind)
        elif child.type == "text":
            for match in WIKI_LINK.finditer(child.content):
                name = match.group(1).strip()
                yield Link(target=name, text=match.group(0), line=line, kind=LinkKind.WIKI)


def make_link(href: str, text: str, line: int, kind: LinkKind) -> Link:
    """Decode and classify one href: external URL, escaping path, or a relative memory file."""
    if _SCHEME.match(href) and not href.lower().startswith("file:"):
        return Link(target=href, text=text, line=line, kind=kind, external=True)
    path = unquote(urlsplit(href).path) if not href.lower().startswith("file:") else href
    escapes = href.lower().startswith("file:") or path.startswith(("/", "\\")) or \
        bool(re.match(r"^[a-zA-Z]:[\\/]", path))
    normal = posixpath.normpath(path) if path else ""
    if normal == ".." or normal.startswith("../"):
        escapes = True
    if not escapes and normal.startswith("./"):
        normal = normal[2:]
    return Link(target=path if escapes else normal, text=text, line=line, kind=kind,
                escapes=escapes)


def _link_label(children: list[Token], start: int) -> str:
    parts: list[str] = []
    for child in children[start + 1:]:
        if child.type == "link_close":
            break
        parts.append(child.content)
    return "".join(parts)
