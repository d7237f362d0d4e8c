"""A statement denied by another, between memories or against CLAUDE.md, is a contradiction
for review — the shape the similarity check misses."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.analysis.contradictions import (
    Statement,
    check_negations,
    denials,
    denied_pairs,
    same_claim,
    statements,
    stem,
)
from prune_memory.model import Action, FindingCode
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.store.loader import load_memory_dir
from tests.conftest import CliResult, topic, write_tree

NOW = datetime(2026, 7, 1, tzinfo=UTC)
STAMP = "modified: 2026-06-20T00:00:00Z\n"


def _memory(tmp_path: Path, bodies: dict[str, str]) -> Path:
    files = {name: topic(name.removesuffix(".md"), body, extra=STAMP)
             for name, body in bodies.items()}
    index = "# Memory\n" + "".join(f"- [{n}]({n}) — hook\n" for n in files)
    return write_tree(tmp_path / "memory", {"MEMORY.md": index, **files})


@pytest.mark.parametrize(("a", "b"), [
    ("resets", "reset"), ("deploys", "deployed"), ("caches", "caching"), ("policies", "policy"),
    ("pushes", "push"), ("planned", "plan"),
])
def test_stems_meet(a: str, b: str) -> None:
    assert stem(a) == stem(b)


def test_a_negated_verb_phrase_reduces_to_the_same_core() -> None:
    (plain,) = statements(0, "The artifact cache resets nightly.")
    (denied,) = statements(1, "- The artifact cache does not reset nightly.")
    assert plain.core == denied.core and denied.negated and not plain.negated


def test_memories_that_deny_each_other_go_to_review(tmp_path: Path) -> None:
    root = _memory(tmp_path, {
        "cache.md": "The artifact cache resets nightly.\nIt lives on the build host.",
        "ops.md": "Note: the artifact cache doesn't reset nightly; purge it by hand.",
        "other.md": "The mirror never syncs on weekends.",
    })
    found = check_negations(load_memory_dir(root))
    assert set(found) == {"cache.md", "ops.md"}
    (finding,) = found["cache.md"]
    assert finding.code is FindingCode.CONTRADICTION and finding.related == ("ops.md",)
    assert finding.evidence["kind"] == "negated-statement"
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    assert {e.file: e.action for e in plan.entries if e.file != "other.md"} == {
        "cache.md": Action.REVIEW, "ops.md": Action.REVIEW}


@pytest.mark.parametrize(("first", "second"), [
    # a condition or a partial statement: not a denial
    ("The artifact cache resets nightly.", "The artifact cache does not reset nightly "
                                           "unless the disk is full."),
    # denials of different things
    ("The artifact cache resets nightly.", "The package index does not reset nightly."),
])
def test_hedged_or_different_claims_are_left_alone(tmp_path: Path, first: str,
                                                   second: str) -> None:
    root = _memory(tmp_path, {"a.md": first, "b.md": second})
    assert check_negations(load_memory_dir(root)) == {}


def test_one_memory_qualifying_itself_is_not_a_contradiction(tmp_path: Path) -> None:
    root = _memory(tmp_path, {"a.md": "Staging deploys on Fridays.\n"
                                      "Staging does not deploy on Fridays in December."})
    assert check_negations(load_memory_dir(root)) == {}


def test_against_claude_md_denials_and_other_totals(tmp_path: Path) -> None:
    root = _memory(tmp_path, {
        "stack.md": "The compose file defines 7 services for local work.\n"
                    "Migrations run on deploy.",
        "fine.md": "Lint runs in pre-commit.",
    })
    claude = [("CLAUDE.md", "# Project\n\nThe compose file defines 5 services for local "
                            "work.\nMigrations never run on deploy; run them by hand.\n")]
    found = check_negations(load_memory_dir(root), claude)
    kinds = sorted(f.evidence["kind"] for f in found["stack.md"])
    assert kinds == ["claude-md-different-total", "claude-md-negated-statement"]
    assert {f.evidence["claude_md_line"] for f in found["stack.md"]} == {3, 4}
    assert "fine.md" not in found


def test_the_pass_reads_claude_md_from_the_repo(tmp_path: Path) -> None:
    # Nearly the same words as the CLAUDE.md line, but denied: a contradiction to review,
    # never a near-repeat to withdraw.
    root = _memory(tmp_path, {"stack.md": "Migrations run on deploy."})
    repo = write_tree(tmp_path / "repo", {"CLAUDE.md": "Migrations never run on deploy.\n"})
    plan = build_plan(root, PassOptions(repo=repo, now=NOW, home=tmp_path / "home"))
    entry = plan.entry("stack.md")
    assert entry is not None and entry.action is Action.REVIEW
    assert [f.evidence["kind"] for f in entry.findings if f.code is FindingCode.CONTRADICTION] \
        == ["claude-md-negated-statement"]


def test_store_report_flags_denied_statements(cli: Callable[..., CliResult],
                                              tmp_path: Path) -> None:
    texts = ["The cache resets nightly", "The cache does not reset nightly",
             "Releases are cut on Tuesdays"]
    assert denied_pairs(texts) == [(0, 1)]
    store = tmp_path / "s.jsonl"
    store.write_text("".join(json.dumps({"id": f"r{n}", "text": t, "created_at": "2026-06-01"})
                             + "\n" for n, t in enumerate(texts)), encoding="utf-8")
    flags = json.loads(cli("jsonl", "report", store, "--now", "2026-07-01").out)[
        "contradiction_flags"]
    assert [(f["ids"], f["reason"]) for f in flags] == [
        (["r0", "r1"], "one statement denies the other")]
    seed = json.loads(cli("jsonl", "report", store, "--negations", "seed",
                          "--now", "2026-07-01").out)
    assert seed["contradiction_flags"] == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.booleans(), st.booleans(),
                          st.frozensets(st.sampled_from("abcdefgh"), min_size=2, max_size=6)),
                max_size=30))
def test_the_indexed_search_finds_what_comparing_every_pair_finds(
        rows: list[tuple[int, bool, bool, frozenset[str]]]) -> None:
    said = [Statement(owner, n, "", negated, core, hedged)
            for n, (owner, negated, hedged, core) in enumerate(rows)]
    found = {(d.first.line, d.second.line) for d in denials(said, said, same_side=True)}
    expected = set()
    for a in said:
        for b in said:
            if (a.negated and not b.negated and not a.hedged and not b.hedged
                    and a.owner != b.owner and same_claim(a.core, b.core)):
                expected.add((a.line, b.line))
    assert found == expected


def _denials_by_comparing_all(said: list[Statement]) -> list[tuple[int, int, int, int]]:
    """Every denial found by comparing each negated statement with every plain one, in the
    order the pass reports them: by the rarest word shared, then in the order given."""
    plain = [s for s in said if not s.negated and not s.hedged]
    count: dict[str, int] = {}
    for s in plain:
        for word in s.core:
            count[word] = count.get(word, 0) + 1
    out: dict[tuple[int, int, int, int], None] = {}
    for a in said:
        if not a.negated or a.hedged:
            continue
        words = sorted(a.core, key=lambda w: (count.get(w, 0), w))
        rank = {w: n for n, w in enumerate(words)}
        hits = [(n, b) for n, b in enumerate(plain)
                if b.owner != a.owner and same_claim(a.core, b.core)]
        hits.sort(key=lambda hit: (min(rank[w] for w in hit[1].core if w in rank), hit[0]))
        for _, b in hits:
            out.setdefault((a.owner, a.line, b.owner, b.line))
    return list(out)


VOCABULARY = ["cache", "reset", "nightly", "deploy", "staging", "test", "pass", "main", "build",
              "queue"]
# Four claims over the same ten words, each said as it is, a word more or less, or denied.
CLAIMS = [VOCABULARY[0:5], VOCABULARY[2:8], VOCABULARY[4:10], VOCABULARY[1:4] + VOCABULARY[6:9]]


def _said(claim: int, extra: int, dropped: int, lead: str) -> str:
    words = CLAIMS[claim]
    if extra % 3:
        words = [*words[:dropped], *words[dropped + 1:], VOCABULARY[extra]]
    return lead + " ".join(words)


sentence = st.builds(_said, st.integers(0, 3), st.integers(0, 9), st.integers(0, 5),
                     st.sampled_from(["", "it does not ", "never "]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(sentence, min_size=1, max_size=3).map(". ".join), max_size=40))
def test_denials_are_those_of_comparing_every_pair_in_the_same_order(texts: list[str]) -> None:
    """The pair-keyed lookup finds what comparing every negated statement with every plain
    one finds, on text from ten words where every word is common."""
    said = [s for n, text in enumerate(texts) for s in statements(n, text)]
    found = [(d.first.owner, d.first.line, d.second.owner, d.second.line)
             for d in denials(said, said, same_side=True)]
    assert found == _denials_by_comparing_all(said)
