"""The second generator: notes from a vocabulary of about 150 words, most of them near-copies.

A long-lived memory folder fills with session notes that say nearly the same thing in nearly
the same words: "Session 12: fixed the upload retry, tests pass, next check the cache". Here
every note is built from one small vocabulary (`WORDS`, 150 words, no digits beyond a few
session numbers), so any two notes share many of their words, which is the worst case for a
join that filters candidates by their rarest words. Of the notes:

- a share are session-style logs ("session 4: ... next ..."), a share plain rules;
- about half are edited copies of an earlier note (one to three words changed, added or
  dropped), so families of hundreds of near-identical notes build up;
- a share add a negation ("not", "never", "no") to a copy, the shape of a contradiction.

Negations are written without apostrophes, so the seed's tokeniser (`[a-z0-9]+`) and the
tool's read the same words and a report can be compared with the seed's key for key.
Deterministic for a seed. `bench/gen_store.py` writes memory directories and JSONL stores
from these texts as it does from its own (`texts="similar"`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

SUBJECTS = ("upload", "retry", "cache", "deploy", "staging", "build", "test", "tests", "api",
            "server", "client", "login", "session", "token", "config", "branch", "queue",
            "worker", "database", "migration", "schema", "index", "search", "report", "page",
            "button", "form", "lint", "release", "hook", "script", "docker", "image", "log",
            "logs", "timeout", "port", "proxy", "route", "handler")
VERBS = ("fixed", "added", "removed", "moved", "checked", "tried", "ran", "use", "run", "keep",
         "skip", "update", "restart", "review", "merge", "push", "pull", "split", "cache",
         "retry", "wait", "rebuild", "pin", "bump", "clean", "guard", "mock", "measure",
         "profile", "trace")
SMALL = ("the", "a", "to", "in", "on", "for", "with", "after", "before", "when", "and", "or",
         "is", "are", "it", "this", "that", "we", "from", "of", "by", "at", "then", "first",
         "again", "still", "now", "only", "always", "also")
QUALIFIERS = ("slow", "fast", "flaky", "broken", "green", "red", "old", "new", "main", "local",
              "remote", "shared", "nightly", "weekly", "manual", "clean", "stale", "fresh",
              "long", "short", "big", "small", "safe", "unsafe", "full", "empty", "next",
              "last", "done", "open", "ok")
SESSION = ("session", "next", "todo", "pick", "up", "later", "today", "yesterday", "worked",
           "notes", "step", "pass")
NEGATIONS = ("not", "never", "no")
WORDS = tuple(dict.fromkeys(SUBJECTS + VERBS + SMALL + QUALIFIERS + SESSION + NEGATIONS))
POOLS = (SUBJECTS, VERBS, SMALL, SMALL, QUALIFIERS, SUBJECTS)


@dataclass(frozen=True)
class SimilarShares:
    """Fractions of notes of each shape; the rest are fresh notes of the same vocabulary."""

    copy: float = 0.5  # an edited copy of an earlier note
    negated_copy: float = 0.08  # a copy with a negation word put in
    exact_copy: float = 0.03  # the same words, another case or punctuation
    session: float = 0.3  # of the fresh notes, session-log shaped


def _fresh(rng: random.Random, session: bool) -> list[str]:
    length = rng.randint(8, 24)
    words = [rng.choice(POOLS[rng.randrange(len(POOLS))]) for _ in range(length)]
    if session:
        step = rng.choice(("next", "todo", "later", "pick up"))
        words = ["session", str(rng.randint(1, 9)), *words[:length // 2], step,
                 *words[length // 2:]]
    return words


def _edited(source: list[str], rng: random.Random) -> list[str]:
    words = list(source)
    for _ in range(rng.choice((1, 1, 2, 3))):
        action = rng.random()
        pool = POOLS[rng.randrange(len(POOLS))]
        if action < 0.5 and words:
            words[rng.randrange(len(words))] = rng.choice(pool)
        elif action < 0.8:
            words.insert(rng.randrange(len(words) + 1), rng.choice(pool))
        elif len(words) > 4:
            del words[rng.randrange(len(words))]
    return words


def _render(words: list[str], rng: random.Random) -> str:
    text = " ".join(words)
    if rng.random() < 0.4 and len(words) > 3:
        cut = rng.randrange(2, len(words) - 1)
        text = " ".join(words[:cut]) + ", " + " ".join(words[cut:])
    return text[:1].upper() + text[1:] + rng.choice((".", ".", "", "!"))


def generate_similar_texts(count: int, *, seed: int = 0,
                           shares: SimilarShares | None = None) -> list[str]:
    """`count` note texts over `WORDS`, many of them near-copies of each other."""
    shares = shares or SimilarShares()
    rng = random.Random(seed)
    words_of: list[list[str]] = []
    texts: list[str] = []
    for _ in range(count):
        roll = rng.random()
        source = rng.randrange(len(words_of)) if words_of else None
        if source is not None and roll < shares.exact_copy:
            words = words_of[source]
            text = rng.choice((texts[source].lower(), texts[source].upper(),
                               texts[source] + "!!"))
        elif source is not None and roll < shares.exact_copy + shares.copy:
            words = _edited(words_of[source], rng)
            text = _render(words, rng)
        elif source is not None and roll < shares.exact_copy + shares.copy + shares.negated_copy:
            words = list(words_of[source])
            words.insert(rng.randrange(len(words) + 1), rng.choice(NEGATIONS))
            text = _render(words, rng)
        else:
            words = _fresh(rng, rng.random() < shares.session)
            text = _render(words, rng)
        words_of.append(words)
        texts.append(text)
    return texts
