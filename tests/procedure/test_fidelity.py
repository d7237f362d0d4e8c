from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prune_memory.analysis.contradictions import NEGATIONS, SEED_NEGATIONS
from prune_memory.analysis.duplicates import MAX_PARTNERS, article_free
from prune_memory.analysis.instruction_files import claude_md_units
from prune_memory.model import Entry, EntryKind, Finding, FindingCode, MemoryDir
from prune_memory.procedure.fidelity import check_fidelity
from tests.jsonstore.storegen import generate_texts
from tests.reference_allpairs import reference_store

MTIME = datetime(2026, 9, 1, tzinfo=UTC)
NONE: frozenset[str] = frozenset()


def topic(file: str, body: str, **frontmatter: Any) -> Entry:
    return Entry(file=file, kind=EntryKind.TOPIC, name=frontmatter.get("name", file[:-3]),
                 description=str(frontmatter.get("description", "")), memory_type="project",
                 frontmatter=frontmatter, body=body, sha256="0", size=len(body), mtime=MTIME,
                 index_lines=(1,))


def index_fact(line: int, text: str) -> Entry:
    return Entry(file=f"MEMORY.md#L{line}", kind=EntryKind.INDEX_LINE, name=text[:60],
                 description="", memory_type=None, frontmatter={}, body=text, sha256="0",
                 size=len(text), mtime=MTIME, index_lines=(line,))


def memdir(*entries: Entry) -> MemoryDir:
    return MemoryDir(root=Path("/nowhere"), index=None, entries=entries)


def codes(found: dict[str, tuple[Finding, ...]], file: str) -> list[str]:
    return [f.code.value for f in found.get(file, ())]


def only(found: dict[str, tuple[Finding, ...]], file: str, code: FindingCode) -> Finding:
    [finding] = [f for f in found.get(file, ()) if f.code is code]
    return finding


PNPM = "Use pnpm for installs; npm breaks the lockfile."


def test_exact_duplicate_keeps_the_most_complete_copy() -> None:
    short = topic("a.md", PNPM)
    rich = topic("b.md", PNPM.upper() + "  ", description="Package manager", type="project")
    found = check_fidelity(memdir(short, rich), protected=NONE)
    finding = only(found, "a.md", FindingCode.DUPLICATE)
    assert finding.related == ("b.md",) and finding.evidence["survivor"] == "b.md"
    assert "more frontmatter (2 fields against 0)" in finding.message
    kept = only(found, "b.md", FindingCode.DUPLICATE)
    assert kept.related == ("a.md",) and kept.evidence["survivor"] == "b.md"
    assert "this copy stays" in kept.message


def test_modified_stamp_breaks_a_tie_in_length() -> None:
    plain = topic("a.md", PNPM)
    stamped = dataclasses.replace(topic("b.md", PNPM), modified=MTIME)
    found = check_fidelity(memdir(plain, stamped), protected=NONE)
    assert only(found, "a.md", FindingCode.DUPLICATE).evidence["survivor"] == "b.md"
    assert "modified" in only(found, "a.md", FindingCode.DUPLICATE).message


def test_protected_copy_always_survives() -> None:
    short, rich = topic("a.md", PNPM), topic("b.md", PNPM + "!!", description="more", extra=1)
    found = check_fidelity(memdir(short, rich), protected=frozenset({"a.md"}))
    assert only(found, "b.md", FindingCode.DUPLICATE).related == ("a.md",)
    assert "protected" in only(found, "b.md", FindingCode.DUPLICATE).message
    both = check_fidelity(memdir(short, rich), protected=frozenset({"a.md", "b.md"}))
    assert all(f.evidence["survivor"] == file for file, items in both.items() for f in items)


def test_topic_file_beats_an_inline_index_fact() -> None:
    fact = index_fact(7, "USE PNPM FOR INSTALLS --- NPM BREAKS THE LOCKFILE!!!")
    found = check_fidelity(memdir(fact, topic("pm.md", PNPM)), protected=NONE)
    assert only(found, "MEMORY.md#L7", FindingCode.DUPLICATE).related == ("pm.md",)
    assert only(found, "pm.md", FindingCode.DUPLICATE).evidence["survivor"] == "pm.md"


def test_equal_copies_fall_back_to_file_name() -> None:
    found = check_fidelity(memdir(topic("z.md", PNPM), topic("m.md", PNPM)), protected=NONE)
    assert only(found, "z.md", FindingCode.DUPLICATE).related == ("m.md",)


def test_near_duplicates_are_reported_on_both_sides() -> None:
    a = topic("a.md", "The staging deploy runs from the release branch every Friday at noon")
    b = topic("b.md", "The staging deploy runs from the release branch every Friday at 2pm")
    found = check_fidelity(memdir(a, b), protected=NONE)
    first = only(found, "a.md", FindingCode.NEAR_DUPLICATE)
    assert first.related == ("b.md",) and first.evidence["jaccard"] == round(10 / 12, 3)
    assert first.evidence["other_text"] == b.body
    assert only(found, "b.md", FindingCode.NEAR_DUPLICATE).related == ("a.md",)
    assert check_fidelity(memdir(a, b), protected=NONE, near_threshold=0.9) == {}


def test_negation_contradiction_carries_both_texts_and_its_limits() -> None:
    yes = topic("a.md", "The integration tests hit the real database")
    no = topic("b.md", "The integration tests don't hit the real database")
    found = check_fidelity(memdir(yes, no), protected=NONE)
    flag = only(found, "a.md", FindingCode.CONTRADICTION)
    assert flag.evidence["text"] == yes.body and flag.evidence["other_text"] == no.body
    assert flag.evidence["negations"] == {"a.md": [], "b.md": ["dont"]}
    assert "misses contradictions worded differently" in flag.message
    assert codes(found, "b.md") == ["near-duplicate", "contradiction"]
    # the seed's four words do not include "don't"
    seedlike = check_fidelity(memdir(yes, no), protected=NONE, negations=SEED_NEGATIONS)
    assert codes(seedlike, "a.md") == ["near-duplicate"]


def test_same_name_with_different_text_is_a_contradiction() -> None:
    a = topic("db_a.md", "Postgres listens on port 5432", name="db-port")
    b = topic("db_b.md", "Local database moved to 6543 last sprint", name="db-port")
    c = topic("db_c.md", "Cache key is tenant id", key="cache")
    d = topic("db_d.md", "cache KEY is tenant-id!", key="cache")
    found = check_fidelity(memdir(a, b, c, d), protected=NONE)
    assert only(found, "db_a.md", FindingCode.CONTRADICTION).evidence["reason"] == (
        "same name, different text")
    # same key, same normalised text: a duplicate, not a contradiction
    assert codes(found, "db_c.md") == codes(found, "db_d.md") == ["duplicate"]
    assert only(found, "db_c.md", FindingCode.DUPLICATE).evidence["survivor"] == "db_d.md"


def test_empty_bodies_are_left_to_the_noise_check() -> None:
    assert check_fidelity(memdir(topic("a.md", ""), topic("b.md", "  ")), protected=NONE) == {}


def test_claude_md_units_skip_headings_and_short_lines() -> None:
    units = claude_md_units([("CLAUDE.md", "# Title\n```bash\nmake\n```\nUse the venv python.\n")])
    assert [(u.line, u.text) for u in units] == [
        (5, "Use the venv python."), (1, "# Title\n```bash\nmake\n```\nUse the venv python.")]


def test_pairs_match_the_all_pairs_reference_on_generated_memories() -> None:
    texts = generate_texts(400, seed=5)
    entries = [topic(f"m{n:04d}.md", text) for n, text in enumerate(texts)]
    found = check_fidelity(memdir(*entries), protected=NONE)
    exact, near, flags = reference_store(texts, [None] * len(texts), near_threshold=0.8,
                                         negations=NEGATIONS)

    def pairs(code: FindingCode) -> set[tuple[str, str]]:
        return {(file, f.related[0]) for file, items in found.items()
                for f in items if f.code is code}

    file = [e.file for e in entries]
    # pairs equal but for articles and punctuation are reported one by one, as copies to
    # merge (`article-copy`), not inside the near-duplicate groups
    copies = {(i, j) for i, j, _ in near if article_free(texts[i]) == article_free(texts[j])}
    grouped = {f: tuple(x for x in items if x.evidence.get("kind") != "article-copy")
               for f, items in found.items()}
    assert_near_groups(grouped, [(file[i], file[j], sim) for i, j, sim in near
                                 if (i, j) not in copies])
    article_copies = [x for items in found.values() for x in items
                      if x.evidence.get("kind") == "article-copy"]
    assert len(article_copies) <= len(copies)
    assert pairs(FindingCode.CONTRADICTION) == {
        p for i, j, _, _ in flags for p in ((file[i], file[j]), (file[j], file[i]))}
    losers = [f for items in found.values() for f in items
              if f.code is FindingCode.DUPLICATE and f.related == (f.evidence["survivor"],)]
    article_losers = [f for f in losers if "articles" in f.message]
    assert len(losers) - len(article_losers) == sum(len(g) - 1 for g in exact)
    assert len(article_losers) <= len(copies)
    assert exact and near and flags


def assert_near_groups(found: dict[str, tuple[Finding, ...]],
                       near: list[tuple[str, str, float]]) -> None:
    """One near-duplicate finding per entry that has partners: its closest MAX_PARTNERS
    partners (ties: the earlier file), and the size of its connected group."""
    partners: dict[str, dict[str, float]] = defaultdict(dict)
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            name = parent[name]
        return name

    for a, b, sim in near:
        partners[a][b] = partners[b][a] = sim
        parent[root(a)] = root(b)
    nears = {name: [f for f in items if f.code is FindingCode.NEAR_DUPLICATE]
             for name, items in found.items()}
    nears = {name: items for name, items in nears.items() if items}
    assert set(nears) == set(partners)
    sizes = Counter(root(name) for name in partners)
    for name, (finding,) in nears.items():
        ranked = sorted(partners[name].items(), key=lambda kv: (-kv[1], kv[0]))
        assert list(finding.related) == [other for other, _ in ranked[:MAX_PARTNERS]]
        assert finding.evidence.get("group_size", 2) == sizes[root(name)]


def test_near_copies_some_denied_give_each_note_its_closest_few_contradictions() -> None:
    """200 near copies of a rule and 200 of its denial: 40,000 likely contradictions, a
    finding for each side of each before. Each note now keeps its closest five (a pair
    stays when either side keeps it), so the findings grow with the notes, and every note
    still has one."""
    from prune_memory.procedure.fidelity import CONTRADICTION_PARTNERS

    base = ["deploy", "the", "api", "server", "to", "staging", "after", "the", "nightly",
            "tests", "pass", "on", "main"]
    notes = []
    for n in range(400):
        words = [*base[: n % 12], f"note{n}", *base[n % 12 + 1:]]
        notes.append(topic(f"n{n:03d}.md", " ".join(["never", *words] if n % 2 else words)))
    found = check_fidelity(memdir(*notes), protected=NONE)
    per_note = [sum(f.code is FindingCode.CONTRADICTION for f in found.get(n.file, ()))
                for n in notes]
    assert min(per_note) >= 1
    assert sum(per_note) <= 2 * CONTRADICTION_PARTNERS * len(notes)  # both sides of a pair
