"""The index, MEMORY.md, read: its lines, sections and links, which lines Claude Code
loads, which lines point at which topic file, and the facts written straight into it.

`parse_index` (markdown-it) is the reference reading. An index made only of `## Section`
headings over one-line items (`- [Title](file.md) — hook`) is read line by line without a
markdown parser (`plain_structure`), and `linking_lines` finds the lines that link a file
one line at a time, fast enough to run before every step of a batch; property tests hold
both to the reference. A line that opens with a link to a memory is a pointer; any other
list item, paragraph line or table row states something itself and is an inline fact,
named `MEMORY.md#L<n>`. A wrapped line belongs to its item; a nested item is a fact of its
own, except under a pointer, whose sub-items travel with it. Its edits live in
`index_edit.py`."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote, urlsplit

from prune_memory.model import INDEX_FILE, Block, Entry, EntryKind, Index, IndexLine, Link, LinkKind
from prune_memory.secrets.mask import mask_text
from prune_memory.store.links import find_links, make_link, markdown
from prune_memory.store.loadcap import comment_lines, frontmatter_end, measure
from prune_memory.store.safe_read import decode_text

if TYPE_CHECKING:
    from markdown_it.token import Token

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


_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_ENTRY_ID = re.compile(r"^MEMORY\.md#L([1-9]\d*)$")
_OPENS_WITH_LINK = re.compile(r"^(?:[*_~]{1,3})?\[")
_FACT_BLOCKS = frozenset({Block.ITEM, Block.PARAGRAPH, Block.TABLE_ROW})


def table_of(index: Index) -> dict[str, int]:
    """Inline facts that are rows of a table, mapped to the table's first line. Rows of one
    table share their shape by design: that makes them alike, not duplicates."""
    out: dict[str, int] = {}
    start: int | None = None
    for line in index.lines:
        if line.block in (Block.TABLE_HEAD, Block.TABLE_ROW) or (
                start is not None and line.text.lstrip().startswith("|")):
            start = line.number if start is None else start
            if line.block is Block.TABLE_ROW:
                out[index_entry_id(line.number, index.file)] = start
        else:
            start = None
    return out


def index_entry_id(number: int, file: str = "MEMORY.md") -> str:
    return f"{file}#L{number}"


def index_line_number(file: str) -> int | None:
    """The 1-based line number of an inline-fact id `MEMORY.md#L<n>`; None for other names."""
    found = _ENTRY_ID.match(file.removeprefix("./"))
    return int(found.group(1)) if found else None


def fact_text(line: str) -> str:
    """What an inline fact says: the list item without its bullet, a row without its pipes."""
    text = _BULLET.sub("", line).strip()
    if text.startswith("|") and text.endswith("|") and len(text) > 1:
        text = " | ".join(cell.strip() for cell in text[1:-1].split("|"))
    return text


def is_pointer(line: IndexLine) -> bool:
    """The line opens with a link to a memory: it points, it does not state."""
    internal = [lk for lk in line.links if not lk.external]
    return bool(internal) and _OPENS_WITH_LINK.match(fact_text(line.text)) is not None


def pointer_targets(line: IndexLine, names: dict[str, str]) -> set[str]:
    """Files a line points at: by relative link, or by `[[name]]` of the memory."""
    targets = {lk.target for lk in line.links if not lk.external and not lk.escapes
               and lk.kind is not LinkKind.WIKI}
    targets |= {names[lk.target] for lk in line.links
                if lk.kind is LinkKind.WIKI and lk.target in names}
    return targets


def attach_index_lines(index: Index, topics: list[Entry]) -> list[Entry]:
    """Each topic with the numbers of the index lines that link to it."""
    names = {t.name: t.file for t in topics} | {t.file.removesuffix(".md"): t.file
                                                for t in topics}
    lines_for: dict[str, list[int]] = {}
    for line in index.lines:
        for target in pointer_targets(line, names):
            lines_for.setdefault(target, []).append(line.number)
    return [dataclasses.replace(t, index_lines=tuple(lines_for.get(t.file, ()))) for t in topics]


def root_item(line: IndexLine, by_number: dict[int, IndexLine]) -> IndexLine:
    """The outermost list item a line hangs under (the line itself when it hangs on none)."""
    seen = line
    while seen.parent is not None and seen.parent in by_number:
        seen = by_number[seen.parent]
    return seen


def inline_facts(index: Index, mtime: dt.datetime) -> list[Entry]:
    """Every item of the index that states something itself, with its wrapped lines. A
    nested item is a fact of its own, as Claude Code reads each line; under a pointer it
    belongs to that pointer and leaves with it."""
    by_number = {ln.number: ln for ln in index.lines}
    groups: dict[int, list[IndexLine]] = {}
    for line in index.lines:
        if is_pointer(root_item(line, by_number)) or not line.text.strip():
            continue
        head = line if line.block is not Block.ITEM_MORE or line.parent is None \
            else by_number.get(line.parent, line)
        if head.block in _FACT_BLOCKS and not is_pointer(head):
            groups.setdefault(head.number, []).append(line)
    facts = [_fact(index, lines, mtime) for _, lines in sorted(groups.items())]
    return [fact for fact in facts if fact.body]


def line_entry(index: Index, line: IndexLine, mtime: dt.datetime) -> Entry:
    """One index line as an entry of its own (a pointer whose hook is in question)."""
    return _fact(index, [line], mtime)


def _fact(index: Index, lines: list[IndexLine], mtime: dt.datetime) -> Entry:
    head = lines[0]
    body = "\n".join(fact_text(ln.text) for ln in lines).strip()
    raw = "\n".join(ln.text for ln in lines).encode("utf-8")
    return Entry(
        file=index_entry_id(head.number, index.file), kind=EntryKind.INDEX_LINE,
        name=mask_text(fact_text(head.text))[:60], description="", memory_type=None, frontmatter={},
        body=body, sha256=hashlib.sha256(raw).hexdigest(), size=len(raw), mtime=mtime,
        links=tuple(lk for ln in lines for lk in ln.links),
        index_lines=tuple(ln.number for ln in lines),
    )


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


_INLINE = re.compile(r"\]\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
_REF_USE = re.compile(r"\[([^\[\]]+)\](?:\[([^\[\]]*)\])?(?![(:])")
_DEFINITION = re.compile(r"^ {0,3}\[([^\[\]]+)\]:\s*(<[^<>\n]*>|\S+)")
_WIKI = re.compile(r"\[\[([^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|[^\[\]\n]*)?\]\]")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def normalize_target(href: str) -> str:
    """The memory file an href names: no `<>`, no fragment, percent-decoded, no `./`."""
    href = href.strip()
    if href.startswith("<") and href.endswith(">"):
        href = href[1:-1]
    href = _ESCAPE.sub(r"\1", href)
    path = unquote(urlsplit(href).path)
    while path.startswith("./"):
        path = path[2:]
    return path


def visible_lines(lines: list[str]) -> list[bool]:
    """For each line: could it hold a link the model sees (not fenced, not in a comment)?"""
    out: list[bool] = []
    fence: str | None = None
    in_comment = False
    frontmatter = bool(lines) and lines[0].rstrip("\r") == "---"
    for number, line in enumerate(lines):
        bare = line.rstrip("\r")
        if frontmatter:
            out.append(False)
            frontmatter = not (number > 0 and bare == "---")
            continue
        opened = _FENCE.match(bare)
        if fence is not None:
            out.append(False)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            out.append(False)
            continue
        if in_comment:
            out.append(False)
            in_comment = "-->" not in bare
            continue
        if bare.lstrip().startswith("<!--"):
            out.append(False)
            in_comment = "-->" not in bare.split("<!--", 1)[1]
            continue
        out.append(True)
    return out


def definitions(lines: list[str], visible: list[bool]) -> dict[str, str]:
    """Reference definitions: normalised label → target."""
    found: dict[str, str] = {}
    for line, shown in zip(lines, visible, strict=True):
        if shown and (m := _DEFINITION.match(line)):
            found.setdefault(_label(m.group(1)), normalize_target(m.group(2)))
    return found


def line_targets(line: str, refs: dict[str, str]) -> set[str]:
    """Every memory file one visible line links to (including a definition's own target)."""
    text = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line.rstrip("\r"))
    targets = {normalize_target(m.group(1)) for m in _INLINE.finditer(text)}
    if m := _DEFINITION.match(text):
        targets.add(normalize_target(m.group(2)))
    else:
        for use in _REF_USE.finditer(text):
            label = use.group(2) or use.group(1)
            if _label(label) in refs:
                targets.add(refs[_label(label)])
    for wiki in _WIKI.finditer(text):
        name = wiki.group(1).strip()
        targets.update({name, f"{name}.md"})
    return targets


def links_others(targets: set[str], file: str) -> bool:
    """Whether a line whose `line_targets` include `file` links another memory file too. A
    line two memories share stays when one of them leaves: taking it would take the
    other's pointer."""
    return any(t.endswith(".md") and t != file for t in targets)


def linking_lines(lines: list[str], file: str, *, alone: bool = False) -> list[int]:
    """0-based numbers of the lines that link `file` (`alone`: and no other memory)."""
    visible = visible_lines(lines)
    refs = definitions(lines, visible)
    labels = [label for label, target in refs.items() if target == file]
    stem = file.removesuffix(".md")

    def may_link(line: str) -> bool:
        # Cheap test first: only lines naming the file, or spelling it in a way only the
        # full reading can see (percent-encoding, escapes, a reference label), are parsed.
        if stem in line or "%" in line or "\\" in line:
            return True
        return bool(labels) and any(label in _label(line) for label in labels)

    return [n for n, line in enumerate(lines)
            if visible[n] and "[" in line and may_link(line)
            and file in (targets := line_targets(line, refs))
            and not (alone and links_others(targets, file))]


def linked_targets(lines: list[str]) -> set[str]:
    """Every target a visible line links: `file in linked_targets(lines)` says what
    `bool(linking_lines(lines, file))` says, for every file at once (whose cheap test only
    skips lines that cannot link the file)."""
    visible = visible_lines(lines)
    refs = definitions(lines, visible)
    found: set[str] = set()
    for line, shown in zip(lines, visible, strict=True):
        if shown and "[" in line:
            found |= line_targets(line, refs)
    return found


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()
