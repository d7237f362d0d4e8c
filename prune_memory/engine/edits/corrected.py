"""Mark an in-place correction where it was made: `[corrected YYYY-MM-DD]` after each
paragraph, list item or table row a drift correction changed (at its end, so a wrapped
sentence is not cut), so a reader sees which facts were brought up to date, and when."""

from __future__ import annotations

import difflib
import re
from datetime import datetime

from prune_memory.store.frontmatter_parse import parse_memory_text

# The decision-tree rules whose update is a correction of drift (step 10 of the procedure);
# 2-failed-fidelity is the name plans written by earlier versions gave it.
CORRECTION_RULES = frozenset({"4-stale-known-correction", "2-failed-fidelity"})
_MARK = re.compile(r"\s*\[corrected \d{4}-\d{2}-\d{2}\]")
_FENCE = re.compile(r"^\s*(?:```|~~~)")


def annotate(old_body: str, new_body: str, now: datetime) -> str:
    """`new_body` with `[corrected <date>]` on every non-blank line that differs from
    `old_body` (an earlier mark on the line gives way to the new date)."""
    old = [_MARK.sub("", line) for line in old_body.splitlines()]
    new = new_body.splitlines()
    changed: set[int] = set()
    matcher = difflib.SequenceMatcher(a=old, b=[_MARK.sub("", line) for line in new],
                                      autojunk=False)
    for tag, _a0, _a1, b0, b1 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(b0, b1))
    mark = f"[corrected {now.date().isoformat()}]"
    fenced = _fenced_lines(new)
    ends = {_block_end(new, n, fenced) for n in changed if new[n].strip() and n not in fenced}
    out = [_marked(line, mark) if n in ends else line for n, line in enumerate(new)]
    return "\n".join(out) + ("\n" if new_body.endswith("\n") else "")


def without_marks(text: str) -> str:
    """`text` with every `[corrected <date>]` mark taken out: what the words say."""
    return _MARK.sub("", text)


def annotated_body(raw: bytes, new_body: str, now: datetime) -> str:
    """`annotate` against the body of the file as it is on disk."""
    old = parse_memory_text("entry", raw.decode("utf-8", errors="replace")).body
    return annotate(old, new_body, now)


def body_written(raw: bytes, new_body: str, rule: str, now: datetime) -> str:
    """The body an update by `rule` writes: marked where a drift correction changed it.
    Applying and every preview of an update (the review's diff, `plan --diff`) call this,
    so the diff a person approves is the text written, marks included."""
    return annotated_body(raw, new_body, now) if rule in CORRECTION_RULES else new_body


_SENTENCE_ENDS = (".", "!", "?", ":", ";", ")", "|", "。", "！", "？", "`")
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|\||>|```|~~~)")


def _block_end(lines: list[str], n: int, fenced: set[int]) -> int:
    """The last line of the sentence line `n` starts: the lines a paragraph wraps it over,
    up to one that ends a sentence (a line of its own in a line-per-fact memory)."""
    end = n
    while end + 1 < len(lines) and lines[end + 1].strip() and end + 1 not in fenced \
            and not _BLOCK_START.match(lines[end + 1]) \
            and not lines[end].rstrip().endswith(_SENTENCE_ENDS):
        end += 1
    return end


def _marked(line: str, mark: str) -> str:
    bare = _MARK.sub("", line).rstrip()
    if bare.endswith("|") and bare.count("|") >= 2:  # a table row: inside its last cell
        return f"{bare[:-1].rstrip()} {mark} |"
    return f"{bare} {mark}"


def _fenced_lines(lines: list[str]) -> set[int]:
    inside = False
    out: set[int] = set()
    for n, line in enumerate(lines):
        if _FENCE.match(line):
            inside = not inside
            out.add(n)
        elif inside:
            out.add(n)
    return out
