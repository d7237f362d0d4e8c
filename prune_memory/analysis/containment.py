"""Copies that an exact match misses: one memory wholly inside a longer one, or two that
differ only in articles and punctuation.

Jaccard similarity stays under any threshold when one copy adds a clause; containment does
not: every word of the shorter memory is in the longer. Candidates come from an index of
each memory's rarest word, so the work grows with the number of real overlaps, not with
the square of the directory.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from prune_memory.analysis.similarity import tokens

ARTICLES = frozenset({"a", "an", "the"})
MIN_WORDS = 8  # a shorter memory is contained in too much by chance
MAX_CANDIDATES = 64  # per memory: a very common rarest word is no lead
# The longer copy adds a clause or two; a memory ten times longer that happens to use the
# same words is a different memory that covers more (an index hook and its topic, say).
MAX_GROWTH = 2


@dataclass(frozen=True)
class Contained:
    """`inner` (an index) says nothing that `outer` does not also say."""

    inner: int
    outer: int
    same: bool  # equal once articles and punctuation are dropped


def article_free(text: str) -> str:
    """The words of `text` without articles: the key for copies differing only in those."""
    return without_articles(tokens(text))


def without_articles(words: Sequence[str]) -> str:
    """`article_free` of text already split into its words."""
    return " ".join(w for w in words if w not in ARTICLES)


def contained_pairs(texts: Sequence[str], kinds: Sequence[str] = (), *,
                    normalised: Sequence[str] | None = None) -> Iterator[Contained]:
    """Every memory whose words all appear in one longer (or article-equal) memory of the
    same kind (`kinds[i]`, when given: an index line is not a copy of a topic file).
    `normalised` (`similarity.normalise` of each text), when the caller has it, saves
    reading the words again."""
    words_of = [norm.split() for norm in normalised] if normalised is not None \
        else [tokens(t) for t in texts]
    sets = [frozenset(words) - ARTICLES for words in words_of]
    keys = [without_articles(words) for words in words_of]
    frequency = Counter(word for words in sets for word in words)
    postings: dict[str, list[int]] = defaultdict(list)
    for position, words in enumerate(sets):
        for word in words:
            postings[word].append(position)
    same_key: dict[str, list[int]] = defaultdict(list)
    for position, key in enumerate(keys):
        same_key[key].append(position)
    for inner, words in enumerate(sets):
        if len(words) < MIN_WORDS:
            # too short to be contained by chance-free evidence; a copy but for articles
            # and punctuation is still a copy
            for outer in same_key[keys[inner]]:
                if outer < inner and (not kinds or kinds[outer] == kinds[inner]) and words:
                    yield Contained(inner, outer, True)
            continue
        rarest = min(words, key=lambda w: (frequency[w], w))
        for outer in postings[rarest][:MAX_CANDIDATES]:
            if kinds and kinds[outer] != kinds[inner]:
                continue
            if outer == inner or len(sets[outer]) > MAX_GROWTH * len(words) \
                    or not words <= sets[outer]:
                continue
            same = keys[inner] == keys[outer]
            if same and inner > outer:
                continue  # one finding per equal pair, on the later copy
            if same or len(keys[outer]) > len(keys[inner]):
                yield Contained(inner, outer, same)
