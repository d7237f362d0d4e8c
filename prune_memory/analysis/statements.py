"""Memories cut into statements, each reduced to what it asserts and whether it denies it.

"The cache resets nightly" and "The cache does not reset nightly" reduce to the same core
({cache, reset, nightly}) with opposite polarity: the shape of a contradiction that a
comparison of whole texts misses, because the negation and its auxiliary change the words.
The reduction is crude on purpose (a few suffixes, a fixed word list) and applied the same
way to both sides, so it only has to be consistent, not linguistically right.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from prune_memory.analysis.similarity import tokens

# Tokens arrive case-folded with inner apostrophes dropped ("doesn't" -> "doesnt").
NEGATORS = frozenset({
    "not", "never", "no", "cannot", "cant", "dont", "doesnt", "didnt", "isnt", "arent",
    "wasnt", "werent", "wont", "wouldnt", "shouldnt", "couldnt", "hasnt", "havent", "hadnt",
    "mustnt", "neednt", "nor",
})
# Words that carry tense, mood or grammar but not the claim; dropped from the core.
FILLER = frozenset({
    "do", "does", "did", "is", "are", "was", "were", "be", "been", "being", "am", "will",
    "would", "should", "could", "can", "has", "have", "had", "must", "may", "might", "shall",
    "longer", "anymore", "the", "a", "an", "to", "of", "it", "its", "this", "that", "these",
    "those", "and", "or", "on", "in", "at", "by", "for", "with", "as", "any", "ever", "also",
    "still", "so", "we", "our", "you", "your", "they", "there", "here",
})
# Words that make a statement conditional or partial: its negation is not a contradiction.
HEDGES = frozenset({"if", "unless", "when", "except", "only", "until", "sometimes", "maybe",
                    "whether", "but", "though", "although"})
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")
_BULLET = re.compile(r"^\s*(?:[-*+>]|\d+[.)])\s+")
MIN_CORE, MAX_TOKENS = 2, 30


@dataclass(frozen=True)
class Statement:
    """One sentence of a text: where it is, what it asserts, and whether it denies it."""

    owner: int  # index of the text it came from
    line: int  # 1-based line in that text
    text: str
    negated: bool
    core: frozenset[str]
    hedged: bool


def statements(owner: int, text: str) -> Iterator[Statement]:
    """The statements of `text` worth comparing (two content words or more)."""
    in_fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or line.lstrip().startswith(("#", "|", "<!--")):
            continue
        for sentence in _SENTENCE.split(_BULLET.sub("", line)):
            found = _statement(owner, number, sentence.strip())
            if found is not None:
                yield found


def _statement(owner: int, line: int, sentence: str) -> Statement | None:
    words = tokens(sentence)
    if not words or len(words) > MAX_TOKENS:
        return None
    core = frozenset(stem(w) for w in words if w not in NEGATORS and w not in FILLER)
    if len(core) < MIN_CORE:
        return None
    return Statement(owner, line, sentence, not NEGATORS.isdisjoint(words), core,
                     hedged=not HEDGES.isdisjoint(words))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude English stem: resets/reset, deploys/deployed/deploying, caches/cache."""
    if len(word) <= 3 or word.isdigit():
        return word
    base = word
    if word.endswith("ies"):
        base = word[:-3] + "y"
    elif word.endswith("es") and word[:-2].endswith(("ch", "sh", "x", "z", "ss")):
        base = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        base = word[:-1]
    elif word.endswith(("ing", "ed")):
        cut = word[:-3] if word.endswith("ing") else word[:-2]
        if len(cut) >= 3:
            base = cut[:-1] if len(cut) > 3 and cut[-1] == cut[-2] else cut
    # A final e comes and goes with the suffix (cache/caching): drop it on both sides.
    return base[:-1] if len(base) > 3 and base.endswith("e") else base
