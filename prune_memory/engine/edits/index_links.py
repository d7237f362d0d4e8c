"""Which lines of MEMORY.md link a given file: a fast, line-level matcher for edits.

`store.index.parse_index` (markdown-it) is the reference reading of the index, but it
parses the whole file several times (about 250 ms for 500 lines), too slow to run before
every step of a 500-entry batch. This matcher reads one line at a time and agrees with it
on the shapes an index uses: `[t](file.md)`, `[t](<file name.md>)`, percent-encoding,
`./file.md`, reference links and their definitions, and `[[name]]`; it skips code fences,
inline code, frontmatter and HTML comments. A test holds the two readings together.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

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
