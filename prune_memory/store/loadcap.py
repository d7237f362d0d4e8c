"""Which lines of MEMORY.md Claude Code actually loads.

Claude Code drops YAML frontmatter and block-level HTML comments, keeps the first 200
lines, then, if the text is still over 25,000 characters (JavaScript string length, i.e.
UTF-16 code units), cuts it at the last newline before that mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from prune_memory.model import LoadCap
from prune_memory.store.links import markdown

if TYPE_CHECKING:
    from markdown_it.token import Token

LINE_CAP = 200
CHAR_CAP = 25_000


@dataclass(frozen=True)
class LoadedView:
    cap: LoadCap
    loaded: frozenset[int]  # 1-based numbers of the original lines that reach the model
    body_start: int  # 0-based index of the first line after the frontmatter


def utf16_len(text: str) -> int:
    """Length as JavaScript counts it: astral characters take two code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def frontmatter_end(lines: list[str]) -> int:
    """Index of the first line after a leading `---` … `---` block (0 when there is none)."""
    if not lines or lines[0].rstrip("\r") != "---":
        return 0
    for pos in range(1, len(lines)):
        if lines[pos].rstrip("\r") == "---":
            return pos + 1
    return 0


def comment_lines(body: str, tokens: list[Token] | None = None) -> set[int]:
    """0-based line numbers (within `body`) covered by block-level HTML comments."""
    hidden: set[int] = set()
    if tokens is None and "<!--" not in body:
        return hidden
    for token in tokens if tokens is not None else markdown().parse(body):
        if token.type == "html_block" and token.map and token.content.lstrip().startswith("<!--"):
            hidden.update(range(token.map[0], token.map[1]))
    return hidden


def measure(text: str, line_cap: int = LINE_CAP, char_cap: int = CHAR_CAP,
            tokens: list[Token] | None = None) -> LoadedView:
    """Load-cap figures for an index text, and which original lines survive the cut.

    `tokens`, when given, are markdown-it's tokens of the text after its frontmatter.
    """
    lines = text.split("\n")
    start = frontmatter_end(lines)
    hidden = comment_lines("\n".join(lines[start:]), tokens)
    visible = [(start + i, ln) for i, ln in enumerate(lines[start:]) if i not in hidden]
    if visible and visible[-1][1] == "":
        visible.pop()  # the newline that ends the file does not start another line
    stripped = "\n".join(ln for _, ln in visible)
    kept = visible[:line_cap]
    kept = _cut_chars(kept, char_cap)
    cap = LoadCap(lines=len(visible), chars=utf16_len(stripped), loaded_lines=len(kept),
                  line_cap=line_cap, char_cap=char_cap)
    return LoadedView(cap=cap, loaded=frozenset(no + 1 for no, _ in kept), body_start=start)


def _cut_chars(kept: list[tuple[int, str]], char_cap: int) -> list[tuple[int, str]]:
    total = sum(utf16_len(ln) for _, ln in kept) + max(len(kept) - 1, 0)
    if total <= char_cap:
        return kept
    out: list[tuple[int, str]] = []
    end = -1  # index of the newline after the previous kept line
    for item in kept:
        end += 1 + utf16_len(item[1])
        if end > char_cap:
            break
        out.append(item)
    return out
