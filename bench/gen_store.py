"""Generate realistic memory stores for benchmarks and proof tests.

Two kinds of store, both deterministic for a seed:

- a Claude Code memory directory (`write_memory_dir`): topic files with frontmatter, an
  index `MEMORY.md` in sections, and controlled shares of exact duplicates, near
  duplicates, negation pairs (from `tests/jsonstore/storegen.py`'s Zipf text), ephemeral
  lines, stale paths (renamed or deleted in a repo made by `bench/gen_repo.py`), live
  paths and fake secrets (from `tests/secrets/corpus.py`, built at run time, never stored);
- a JSON/JSONL store (`write_jsonl_store`), straight from storegen's records.

Either generator gives the text: `zipf` (storegen's, a vocabulary growing with the store) or
`similar` (`bench/gen_similar.py`: 150 words, mostly near-copies, negations, session notes).

Run alone: .venv/bin/python bench/gen_store.py DEST --entries N [--jsonl] [--generator similar]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.gen_repo import RepoFacts  # noqa: E402
from bench.gen_similar import generate_similar_texts  # noqa: E402
from tests.jsonstore.storegen import (  # noqa: E402
    NOW,
    Shares,
    generate_records,
    generate_texts,
    heaps_vocabulary,
)
from tests.secrets.corpus import secrets as fake_secrets  # noqa: E402

TYPES = ("project", "project", "project", "feedback", "user", "reference")
EPHEMERAL = (
    "Currently debugging the flaky upload test; next session pick up from the retry loop.",
    "Step 3 done",
    "Tried pinning the cache key, didn't work.",
    "Today I looked at the deploy logs for an hour.",
    "PR #{n} merged",
    "Collecting rich\nSuccessfully installed rich-13.7.1",
)


@dataclass(frozen=True)
class MemoryShares:
    """Fractions of entries of each kind; the text-level shares go to storegen."""

    text: Shares = field(default_factory=lambda: Shares(exact=0.04, near=0.05, negation=0.03))
    ephemeral: float = 0.06
    stale_path: float = 0.06
    live_path: float = 0.06
    secret: float = 0.01


@dataclass(frozen=True)
class GeneratedDir:
    root: Path
    entries: int
    kinds: dict[str, int]
    secret_values: tuple[str, ...]  # so a test can grep every output for them


def _kind(rng: random.Random, shares: MemoryShares, facts: RepoFacts | None) -> str:
    roll = rng.random()
    for kind, share in (("ephemeral", shares.ephemeral), ("secret", shares.secret),
                        ("stale_path", shares.stale_path if facts else 0.0),
                        ("live_path", shares.live_path if facts else 0.0)):
        if roll < share:
            return kind
        roll -= share
    return "text"


def _body(kind: str, text: str, n: int, rng: random.Random, facts: RepoFacts | None,
          secret_text: str) -> str:
    if kind == "ephemeral":
        return EPHEMERAL[n % len(EPHEMERAL)].format(n=n % 500)
    if kind == "secret":
        return f"{text}\n\n{secret_text}"
    if kind == "stale_path" and facts:
        if n % 2 and facts.renames:
            old = facts.renames[n % len(facts.renames)][0]
            return f"{text} The handler sits in `{old}`."
        if facts.deletions:
            return f"{text} Seed data came from `{facts.deletions[n % len(facts.deletions)]}`."
    if kind == "live_path" and facts and facts.live:
        return f"{text} Helpers live in `{facts.live[(n * 13) % len(facts.live)]}`."
    return text


GENERATORS = ("zipf", "similar")  # storegen's Zipf text; gen_similar's 150-word notes


def texts_of(generator: str, count: int, seed: int, shares: Shares | None = None) -> list[str]:
    """`count` texts from one of the two generators."""
    if generator == "similar":
        return generate_similar_texts(count, seed=seed)
    if generator != "zipf":
        raise ValueError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    return generate_texts(count, seed=seed, vocab_size=heaps_vocabulary(count), shares=shares)


def write_memory_dir(dest: Path, entries: int, *, seed: int = 0, facts: RepoFacts | None = None,
                     shares: MemoryShares | None = None, now: datetime = NOW,
                     sections: int = 20, generator: str = "zipf") -> GeneratedDir:
    """Write a memory directory of `entries` topic files plus `MEMORY.md` into `dest`."""
    shares = shares or MemoryShares()
    rng = random.Random(seed)
    texts = texts_of(generator, entries, seed, shares.text)
    secret_pool = fake_secrets()
    dest.mkdir(parents=True, exist_ok=True)
    kinds: Counter[str] = Counter()
    values: list[str] = []
    per_section = max(1, -(-entries // sections))
    index = ["# Memory", ""]
    for n, text in enumerate(texts):
        kind = _kind(rng, shares, facts)
        sample = secret_pool[n % len(secret_pool)]
        if kind == "secret":
            values.append(sample.value)
        kinds[kind] += 1
        name = f"{TYPES[n % len(TYPES)]}_{n:06d}.md"
        (dest / name).write_text(_topic(n, name, _body(kind, text, n, rng, facts, sample.text),
                                        rng, now), encoding="utf-8")
        if n % per_section == 0:
            index += ["", f"## Area {n // per_section}"]
        index.append(f"- [Note {n}]({name}) — {' '.join(text.split()[:6])}")
    (dest / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return GeneratedDir(root=dest, entries=entries, kinds=dict(kinds), secret_values=tuple(values))


def _topic(n: int, name: str, body: str, rng: random.Random, now: datetime) -> str:
    memory_type = name.split("_", 1)[0]
    head = [f"name: note-{n}", f"description: Generated note {n}", f"type: {memory_type}"]
    if rng.random() < 0.4:
        stamp = now - timedelta(days=rng.uniform(0, 400))
        head.append(f"modified: {stamp.isoformat(timespec='seconds')}")
    return "---\n" + "\n".join(head) + "\n---\n\n" + body + "\n"


def write_jsonl_store(path: Path, records: int, *, seed: int = 7,
                      vocabulary: int | None = None, generator: str = "zipf") -> Path:
    """A JSONL store of `records` storegen records (the `jsonl report` input)."""
    texts = generate_similar_texts(records, seed=seed) if generator == "similar" else None
    rows = generate_records(records, seed=seed,
                            vocab_size=vocabulary or heaps_vocabulary(records), texts=texts)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jsonl", action="store_true", help="write a JSONL store instead")
    parser.add_argument("--generator", choices=GENERATORS, default="zipf")
    args = parser.parse_args()
    if args.jsonl:
        write_jsonl_store(args.dest, args.entries, seed=args.seed, generator=args.generator)
        print(f"{args.entries} records in {args.dest}")
        return 0
    made = write_memory_dir(args.dest, args.entries, seed=args.seed, generator=args.generator)
    print(f"{made.entries} entries in {made.root}: {made.kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
