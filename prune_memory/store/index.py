"""Parse MEMORY.md into lines, sections and links, and mark which lines Claude Code loads."""

from __future__ import annotations

from collections import defaultdict

from markdown_it.token import Token

from prune_memory.model import INDEX_FILE, Index, IndexLine, Link
from prune_memory.store.links import find_links, markdown
from prune_memory.store.loadcap import comment_lines, frontmatter_end, measure
from prune_memory.store.safe_read import decode_text


def parse_index(raw: bytes, file: str = INDEX_FILE) -> Index:
    """Every line of the index with its section, links and load status."""
    text = decode_text(file, raw)
    lines = text.split("\n")
    start = frontmatter_end(lines)
    body = "\n".join(lines[start:])
    tokens = markdown().parse(body)  # parsed once; every question below reads these tokens
    view = measure(text, tokens=tokens)
    hidden = {start + n for n in comment_lines(body, tokens)}
    links_by_line: dict[int, list[Link]] = defaultdict(list)
    for link in find_links(body, line_offset=start, tokens=tokens):
        links_by_line[link.line].append(link)
    headings, items = _structure(tokens, start)
    section: str | None = None
    out: list[IndexLine] = []
    for number, line in enumerate(lines, start=1):
        if number in headings:
            section = headings[number]
        if number == len(lines) and line == "":
            break  # the file's final newline
        out.append(IndexLine(
            number=number, text=line.rstrip("\r"), section=section,
            links=tuple(links_by_line.get(number, ())),
            loaded=number in view.loaded and (number - 1) not in hidden,
            is_item=number in items,
        ))
    return Index(file=file, raw=raw, lines=tuple(out), cap=view.cap)


def _structure(tokens: list[Token], offset: int) -> tuple[dict[int, str], set[int]]:
    """Heading text by 1-based line, and the lines where list items start."""
    headings: dict[int, str] = {}
    items: set[int] = set()
    for pos, token in enumerate(tokens):
        if token.map is None:
            continue
        line = token.map[0] + 1 + offset
        if token.type == "heading_open":
            headings[line] = tokens[pos + 1].content.strip()
        elif token.type == "list_item_open":
            items.add(line)
    return headings, items
