"""Text helpers the probes share: sentences, historical wording, numbers, corrections."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from prune_memory.model import Entry
from prune_memory.secrets.mask import mask_text

# A line that reports a change records history; it is not a stale claim.
CHANGE_WORDS = re.compile(
    r"\b(?:renamed|moved|deleted|removed|dropped|migrated|replaced|switched|swapped|became"
    r"|abandoned|reverted|formerly|previously|no longer|superseded|deprecated"
    # "`x` used to live in src/" tells a change; "(it is) used to filter rows" does not
    r"|(?<![;,:(—]\s)(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)"
    r"(?<!\bbeen\s)(?<!\bget\s)(?<!\bgets\s)(?<!\bgot\s)(?<!^)used to"
    r"|retired|ripped out|gave up)\b"
    r"|删除|删掉|已删|删了|移除|去掉|改名|重命名|迁移|替换|废弃|退役|拆除|弃用|合并为|删"
    r"|\b(?:entfernt|gelöscht|umbenannt|ersetzt|verschoben|abgelöst|eingefroren"
    r"|eliminad[oa]s?|borrad[oa]s?|renombrad[oa]s?|reemplazad[oa]s?|movid[oa]s?)\b"
    # Ukrainian and Russian: deleted, removed, renamed, moved, replaced (any ending)
    r"|(?<!\w)(?:видал|вилуч|викину|прибра|перейменов|перейменува|перенес|замін|переименова|"
    r"замен|убра)\w*|(?<!\w)удал(?:ил|ено|ены|ена|ение|ён(?!н)|ен(?!н))\w*",
    re.IGNORECASE,
)
# A sentence about what is planned or proposed is not a claim about the repo as it is now.
PLANNED = re.compile(
    r"\b(?:will|would|going to|plan(?:s|ned)?(?: to)?|proposed?|should (?:add|create|move|"
    r"remove|delete|rename)|to-?do|next step|later|eventually|once|consider(?:ing)?|could|"
    r"idea|wish|future|someday)\b|计划|待做|待办|将来|未来|以后|geplant|vorgesehen|künftig|"
    r"pendiente|planeado|futuro", re.IGNORECASE)
# A sentence that says something is absent agrees with an absent path; it claims no presence.
ABSENT = re.compile(
    r"\b(?:no longer|not (?:yet )?(?:exist|present|there|tracked|committed|in git|in the repo)|"
    r"does(?:n'?t| not) exist|is gone|are gone|without|absent|missing|never|no such|"
    r"gitignored|untracked|not committed|uncommitted|local only|locally)\b|不存在|没有|未提交|"
    r"nicht (?:mehr|vorhanden)|existiert nicht|no existe|ya no", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z`\"'(\[*_-])")

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
}
NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+|" + "|".join(sorted(NUMBER_WORDS, key=len,
                                                           reverse=True)) + r")"


# An ATX heading line; group 1 is its text.
HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)


def headings(body: str) -> list[str]:
    return [m.group(1).strip() for m in HEADING.finditer(body)]


def first_heading(body: str) -> str:
    found = HEADING.search(body)
    return found.group(1) if found else ""


def parse_number(text: str) -> int | None:
    """`12`, `1,200` or a small number word as an int; anything else None."""
    cleaned = text.strip().lower().replace(",", "").replace("_", "")
    if cleaned.isdigit():
        return int(cleaned)
    return NUMBER_WORDS.get(cleaned)


_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|>|\||```|~~~)")


def paragraphs(text: str) -> Iterator[str]:
    """Soft-wrapped lines joined back together; list items, headings and code stay apart."""
    current: list[str] = []
    for line in text.splitlines():
        if not line.strip() or _BLOCK_START.match(line) or line.startswith("    "):
            if current:
                yield " ".join(current)
            current = [line.strip()] if line.strip() else []
        else:
            current.append(line.strip())
    if current:
        yield " ".join(current)


def sentences(text: str) -> Iterator[str]:
    """The text cut into paragraphs, and paragraphs into sentences."""
    for paragraph in paragraphs(text):
        for part in _SENTENCE_END.split(paragraph):
            if part.strip():
                yield part.strip()


def entry_sentences(entry: Entry) -> tuple[str, ...]:
    """The description and the body, each cut into sentences on its own."""
    return _sentences_of(entry.description, entry.body)


@lru_cache(maxsize=8192)
def _sentences_of(description: str, body: str) -> tuple[str, ...]:
    return (*sentences(description), *sentences(body))


def sentence_with(entry: Entry, needle: str) -> str:
    """The first sentence of the entry containing `needle`, or `needle` itself."""
    return next((s for s in entry_sentences(entry) if needle in s), needle)


PAST_TENSE = re.compile(r"\b(?:was|were|had been|had)\b", re.IGNORECASE)


def mentions_change(sentence: str) -> bool:
    return CHANGE_WORDS.search(sentence) is not None


def planned(sentence: str) -> bool:
    """Speaks of what is to be done, not of what is."""
    return PLANNED.search(sentence) is not None


def says_absent(sentence: str) -> bool:
    """Says something is not there (or not in git): absence agrees with it."""
    return ABSENT.search(sentence) is not None


def told_as_past(sentence: str) -> bool:
    """Narrated in the past tense ("results were cached in Redis")."""
    return PAST_TENSE.search(sentence) is not None


def _wordish(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def standalone_spans(text: str, term: str, ignore_case: bool = False,
                     bounded: bool = True) -> Iterator[tuple[int, int]]:
    """Where `term` stands on its own: not inside a longer word, path or dotted name.

    Plain string search with a look at the neighbours; no regex is compiled per term.
    """
    haystack, needle = (text.lower(), term.lower()) if ignore_case else (text, term)
    check_before = bounded and _wordish(term[:1])
    check_after = bounded and _wordish(term[-1:])
    start = haystack.find(needle)
    while start >= 0 and needle:
        end = start + len(needle)
        before = text[start - 1] if start else ""
        after, next_after = text[end:end + 1], text[end + 1:end + 2]
        ok_before = not check_before or not before or not (_wordish(before) or before in "/.@-")
        ok_after = not check_after or not after or not (
            _wordish(after) or after in "/-" or (after == "." and _wordish(next_after)))
        if ok_before and ok_after:
            yield start, end
        start = haystack.find(needle, start + 1)


def has_standalone(text: str, term: str, ignore_case: bool = False) -> bool:
    return next(standalone_spans(text, term, ignore_case), None) is not None


def match_case(sample: str, replacement: str) -> str:
    """Write `replacement` in the case style of `sample` (JEST→VITEST, Jest→Vitest)."""
    if sample.isupper() and len(sample) > 1:
        return replacement.upper()
    if sample[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    if sample.islower():
        return replacement.lower()
    return replacement


def short_quote(text: str, limit: int = 160) -> str:
    """A one-line quote for evidence; any secret in it is masked before it is cut."""
    flat = " ".join(mask_text(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
