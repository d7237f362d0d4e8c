"""Parse MEMORY.md into lines, sections and links, and mark which lines Claude Code loads."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from markdown_it.token import Token

from prune_memory.model import INDEX_FILE, Block, Index, IndexLine, Link
from prune_memory.store.index_plain import PlainLine, plain_structure
from prune_memory.store.links import find_links, markdown
from prune_memory.store.loadcap import comment_lines, frontmatter_end, measure
from prune_memory.store.safe_read import decode_text

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def parse_index(raw: bytes, file: str = INDEX_FILE) -> Index:
    """Every line of the index with its section, links, block and load status."""
    text = decode_text(file, raw)
    lines = _LINE_BREAK.split(text)  # CR, CRLF and LF alike, as markdown reads them
    start = frontmatter_end(lines)
    plain = plain_structure(lines[start:], start)
    if plain is not None:  # the usual shape: no markdown parser needed
        view = measure(text)
        hidden: set[int] = set()
        shape, links_by_line = _plain_shape(plain, start)
    else:
        body = "\n".join(lines[start:])
        tokens = markdown().parse(body)  # parsed once; every question below reads these
        view = measure(text, tokens=tokens)
        hidden = {start + n for n in comment_lines(body, tokens)}
        links_by_line = defaultdict(list)
        for link in find_links(body, line_offset=start, tokens=tokens):
            links_by_line[link.line].append(link)
        shape = _structure(tokens, start)
    section: str | None = None
    out: list[IndexLine] = []
    for number, line in enumerate(lines, start=1):
        if number in shape.headings:
            section = shape.headings[number]
        if number == len(lines) and line == "":
            break  # the file's final newline
        block = shape.blocks.get(number, Block.OTHER) if line.strip() else Block.OTHER
        out.append(IndexLine(
            number=number, text=line, section=section,
            links=tuple(links_by_line.get(number, ())),
            loaded=number in view.loaded and (number - 1) not in hidden,
            is_item=block is Block.ITEM, block=block,
            parent=shape.parents.get(number) if line.strip() else None,
        ))
    return Index(file=file, raw=raw, lines=tuple(out), cap=view.cap)


@dataclass
class _Shape:
    headings: dict[int, str] = field(default_factory=dict)
    blocks: dict[int, Block] = field(default_factory=dict)
    parents: dict[int, int] = field(default_factory=dict)


_LEAF_BLOCKS = {"fence": Block.CODE, "code_block": Block.CODE, "html_block": Block.HTML}


def _structure(tokens: list[Token], offset: int) -> _Shape:
    """Headings, the block of every 1-based line, and which item each item line hangs on."""
    shape = _Shape()
    items: list[int] = []  # the open list items, outermost first
    in_head = False
    for pos, token in enumerate(tokens):
        if token.type == "list_item_close":
            items.pop()
        if token.type in ("thead_open", "thead_close"):
            in_head = token.type == "thead_open"
        if token.map is None:
            continue
        first, end = token.map[0] + 1 + offset, token.map[1] + offset
        if token.type == "heading_open":
            shape.headings[first] = tokens[pos + 1].content.strip()
            shape.blocks[first] = Block.HEADING
        elif token.type == "list_item_open":
            _mark_item(shape, items, first, end)
            items.append(first)
        elif token.type == "paragraph_open" and not items:
            shape.blocks.update({n: Block.PARAGRAPH for n in range(first, end + 1)})
        elif token.type == "tr_open":
            shape.blocks[first] = Block.TABLE_HEAD if in_head else Block.TABLE_ROW
        elif token.type in _LEAF_BLOCKS and not items:
            shape.blocks.update({n: _LEAF_BLOCKS[token.type] for n in range(first, end + 1)})
    return shape


def _plain_shape(plain: list[PlainLine], offset: int
                 ) -> tuple[_Shape, dict[int, list[Link]]]:
    """What `_structure` and `find_links` give for a body of plain lines."""
    shape = _Shape()
    links: dict[int, list[Link]] = {}
    for n, line in enumerate(plain, start=offset + 1):
        if line.block is Block.OTHER:
            continue
        shape.blocks[n] = line.block
        if line.heading is not None:
            shape.headings[n] = line.heading
        if line.links:
            links[n] = list(line.links)
    return shape, links


def _mark_item(shape: _Shape, open_items: list[int], first: int, end: int) -> None:
    """An item's first line, and its other lines as part of it (nested items re-mark theirs)."""
    for number in range(first + 1, end + 1):
        shape.blocks[number] = Block.ITEM_MORE
        shape.parents[number] = first
    shape.blocks[first] = Block.ITEM
    if open_items:
        shape.parents[first] = open_items[-1]
    else:
        shape.parents.pop(first, None)
