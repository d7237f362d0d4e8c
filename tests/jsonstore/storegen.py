"""Generate realistic memory stores for equivalence tests and benchmarks.

Text is drawn from a Zipf-distributed vocabulary (a few common words dominate, most words
are rare; exponent 1.05, so the 100 commonest words make up about two thirds of the text),
sentences run 8 to 40 words (median about 14), and controlled shares of records are reworded
copies: exact duplicates (case, punctuation and spacing changed), near duplicates (a few
words edited, so some land above the 0.8 threshold and some below) and negation pairs
(a copy with one negation word added). Deterministic for a given seed.
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from typing import Any

COMMON = ("the", "to", "a", "in", "for", "and", "of", "is", "use", "on", "with", "we", "it",
          "this", "that", "be", "run", "from", "by", "as", "are", "when", "should", "at", "or",
          "uses", "tests", "file", "config", "an", "all", "after", "before", "build", "deploy",
          "api", "user", "server", "branch", "test", "main")
NEGATED = ("not", "never", "no", "don't", "doesn't", "isn't", "won't", "cannot", "shouldn't")
_ONSETS = ("b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w",
           "z", "br", "cl", "dr", "fl", "gr", "pl", "pr", "sk", "st", "tr")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "io", "ou")
_CODAS = ["", "", "n", "r", "s", "t", "l", "m", "x", "nd", "st"]

NOW = datetime(2026, 10, 12, tzinfo=UTC)
BASE_RECORDS, BASE_VOCABULARY = 3000, 4000


def heaps_vocabulary(count: int) -> int:
    """Vocabulary for a store of `count` records: 4,000 words at 3,000 records, growing with
    the square root of the text (Heaps' law), as the vocabulary of real text does."""
    return round(BASE_VOCABULARY * math.sqrt(count / BASE_RECORDS))


@dataclass(frozen=True)
class Shares:
    """Fractions of records made as copies of an earlier one; the rest are fresh sentences."""

    exact: float = 0.05
    near: float = 0.06
    negation: float = 0.04
    natural_negation: float = 0.08  # fresh sentences that contain a negation anyway
    keyed: float = 0.03


def vocabulary(size: int, rng: random.Random) -> list[str]:
    """Common English words first, then made-up words, all distinct."""
    words = list(COMMON)
    seen = set(words) | {w.replace("'", "") for w in NEGATED}
    while len(words) < size:
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                       for _ in range(rng.choice((1, 2, 2, 3))))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class _Zipf:
    def __init__(self, words: list[str], exponent: float) -> None:
        self.words = words
        weights = (1 / rank ** exponent for rank in range(1, len(words) + 1))
        self.cumulative = list(accumulate(weights))

    def draw(self, rng: random.Random) -> str:
        point = rng.random() * self.cumulative[-1]
        return self.words[min(bisect.bisect(self.cumulative, point), len(self.words) - 1)]


def _sentence_words(rng: random.Random, zipf: _Zipf) -> list[str]:
    length = min(40, 8 + int(rng.expovariate(1 / 9)))
    return [zipf.draw(rng) for _ in range(length)]


def _render(words: list[str], rng: random.Random) -> str:
    text = " ".join(words)
    if rng.random() < 0.3:
        cut = rng.randrange(1, len(words))
        text = " ".join(words[:cut]) + ", " + " ".join(words[cut:])
    return text[:1].upper() + text[1:] + rng.choice((".", ".", ".", "", "!"))


def _reworded(source: list[str], rng: random.Random, zipf: _Zipf) -> list[str]:
    words = list(source)
    for _ in range(rng.choice((1, 1, 2, 3))):
        action = rng.random()
        if action < 0.5 and words:
            words[rng.randrange(len(words))] = zipf.draw(rng)
        elif action < 0.75:
            words.insert(rng.randrange(len(words) + 1), zipf.draw(rng))
        elif len(words) > 2:
            del words[rng.randrange(len(words))]
    return words


def _exact_copy(text: str, rng: random.Random) -> str:
    variants = (text.lower(), text.upper(), "  " + text.replace(" ", "  ") + " ", text + "!!")
    return rng.choice(variants)


def generate_texts(count: int, *, seed: int = 0, vocab_size: int = 4000,
                   exponent: float = 1.05, shares: Shares | None = None) -> list[str]:
    """`count` memory texts with the given shares of exact, near and negated copies."""
    shares = shares or Shares()
    rng = random.Random(seed)
    zipf = _Zipf(vocabulary(vocab_size, rng), exponent)
    words_of: list[list[str]] = []
    texts: list[str] = []
    for _ in range(count):
        roll = rng.random()
        source = rng.randrange(len(words_of)) if words_of else None
        if source is not None and roll < shares.exact:
            words, text = words_of[source], _exact_copy(texts[source], rng)
        elif source is not None and roll < shares.exact + shares.near:
            words = _reworded(words_of[source], rng, zipf)
            text = _render(words, rng)
        elif source is not None and roll < shares.exact + shares.near + shares.negation:
            words = list(words_of[source])
            words.insert(rng.randrange(len(words) + 1), rng.choice(NEGATED))
            text = _render(words, rng)
        else:
            words = _sentence_words(rng, zipf)
            if rng.random() < shares.natural_negation:
                words.insert(rng.randrange(len(words) + 1), rng.choice(NEGATED))
            text = _render(words, rng)
        words_of.append(words)
        texts.append(text)
    return texts


def generate_records(count: int, *, seed: int = 0, vocab_size: int = 4000,
                     exponent: float = 1.05, shares: Shares | None = None,
                     now: datetime = NOW, texts: list[str] | None = None) -> list[dict[str, Any]]:
    """Store records (id, text, dates, recall_count, pinned, sometimes key) around `now`;
    `texts`, when given, are used instead of generated ones."""
    shares = shares or Shares()
    if texts is None:
        texts = generate_texts(count, seed=seed, vocab_size=vocab_size, exponent=exponent,
                               shares=shares)
    rng = random.Random(seed + 1)
    key_pool = max(2, count // 60)
    records: list[dict[str, Any]] = []
    for number, text in enumerate(texts):
        created = now - timedelta(days=rng.uniform(0, 1100))
        record: dict[str, Any] = {"id": f"m{number:06d}", "text": text,
                                  "created_at": created.date().isoformat()}
        if rng.random() < 0.3:
            record["updated_at"] = (created + (now - created) * rng.random()).isoformat()
        if rng.random() < 0.5:
            record["recall_count"] = int(rng.expovariate(1 / 3))
            record["last_recalled_at"] = (created + (now - created) * rng.random()).isoformat()
        if rng.random() < 0.02:
            record["pinned"] = True
        if rng.random() < shares.keyed:
            record["key"] = f"fact-{rng.randrange(key_pool)}"
        records.append(record)
    return records
