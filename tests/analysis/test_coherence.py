"""Step 9's coherence proposals — one pointer per topic file, orderly sections, fragments to
merge, a shrunk file to fold into the index — are for review and never applied; a link
shown as an example in prose is not dropped as dangling."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.analysis.coherence import (
    MERGE_PARTNERS,
    content_words,
    fragment_merges,
    index_coherence,
)
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.review import Choice, Verdict
from prune_memory.procedure.run_pass import finish_pass
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import CliResult, topic, write_tree

NOW = datetime(2026, 8, 1, tzinfo=UTC)
STAMP = "modified: 2026-07-20T00:00:00Z\n"

INDEX = """# Memory

- [Loose](loose.md) — above every section

## Project

- [Build](build.md) — how the build runs
- [Theme](theme.md) — a user preference filed under Project
- [Build again](build.md) — the same file twice

## Reference

## Project
- [Deploy](deploy.md) — release steps
"""


def _files() -> dict[str, str]:
    return {
        "MEMORY.md": INDEX,
        "loose.md": topic("loose", "Loose notes about the wiki layout.", extra=STAMP),
        "build.md": topic("build", "The build runs make in a container.", extra=STAMP),
        "theme.md": topic("theme", "Prefers the dark theme in every tool.", type_="feedback",
                          extra=STAMP),
        "deploy.md": topic("deploy", "Releases are tagged from main.", extra=STAMP),
    }


def test_index_coherence(tmp_path: Path) -> None:
    found = index_coherence(load_memory_dir(write_tree(tmp_path / "m", _files())))
    kinds = {(f["kind"], str(f.get("file") or f.get("section") or f.get("lines"))) for f in found}
    assert kinds == {("repeated-pointer", "build.md"), ("loose-pointers", "[3]"),
                     ("misplaced-pointer", "theme.md"), ("empty-section", "Reference"),
                     ("repeated-section", "Project")}


def test_a_tidy_index_with_a_title_is_coherent(tmp_path: Path) -> None:
    files = _files()
    files["MEMORY.md"] = ("# Memory\n\n## Project\n- [Build](build.md) — b\n"
                          "- [Deploy](deploy.md) — d\n- [Loose](loose.md) — l\n"
                          "## Feedback\n- [Theme](theme.md) — t\n")
    assert index_coherence(load_memory_dir(write_tree(tmp_path / "m", files))) == []


def test_fragments_by_name_and_by_words(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "# M\n",
        "project_auth_login.md": topic("a", "Login uses the SSO redirect.", extra=STAMP),
        "project_auth_tokens.md": topic("b", "Tokens live for one hour.", extra=STAMP),
        "cache_a.md": topic("c", "The CDN cache for images is purged by the deploy script "
                                 "on every release.", extra=STAMP),
        "cache_b.md": topic("d", "The CDN cache for fonts is purged by the deploy script "
                                 "too.", extra=STAMP),
        "same_1.md": topic("e", "Docs are built with mkdocs on every push.", extra=STAMP),
        "same_2.md": topic("f", "Docs are built with mkdocs on every push!", extra=STAMP),
    })
    pairs = {tuple(m["files"]) for m in fragment_merges(load_memory_dir(root))}
    # the exact copies are the duplicate check's business, not a merge of fragments
    assert pairs == {("project_auth_login.md", "project_auth_tokens.md"),
                     ("cache_a.md", "cache_b.md")}


def test_a_large_family_of_names_is_not_fragments(tmp_path: Path) -> None:
    bodies = {"users": "Lists accounts with paging.", "orders": "Creates carts and checkouts.",
              "search": "Queries the Elastic index.", "health": "Answers probes from k8s.",
              "files": "Streams uploads to S3 buckets."}
    files = {f"project_api_{n}.md": topic(n, body, description=f"the {n} endpoint",
                                          extra=STAMP) for n, body in bodies.items()}
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n", **files})
    assert fragment_merges(load_memory_dir(root)) == []


def test_coherence_is_in_the_plan_and_never_a_repair(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", _files())
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    assert {c["kind"] for c in plan.reachability["coherence"]} >= {"repeated-pointer",
                                                                  "empty-section"}
    assert all(r["kind"] in ("drop-dangling", "fix-link", "index-orphan")
               for r in plan.reachability["repairs"])


def test_a_file_that_lost_more_than_half_is_proposed_for_folding(tmp_path: Path) -> None:
    body = ("Deploys go out from main after the smoke suite passes. The suite lives in "
            "tests/smoke and takes four minutes. Flaky tests are quarantined with a label and "
            "a ticket. Nobody deploys on Friday afternoons.")
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n- [Deploy](deploy.md) — how\n",
                                       "deploy.md": topic("deploy", body, extra=STAMP)})
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    verdict = Verdict("deploy.md", Choice.UPDATE, text="Deploys go out from main.",
                      reason="trimmed")
    snapshot = take_snapshot(root, NOW, tmp_path / "snaps")
    report = finish_pass(root, plan, [verdict], [], snapshot=snapshot, now=NOW)
    (shrunk,) = report.resynthesis.shrunk
    assert shrunk["fold"]["proposed_line"] == "- Deploys go out from main."
    assert shrunk["fold"]["replaces"] == ["- [Deploy](deploy.md) — how"]
    assert (root / "deploy.md").exists()  # a proposal only: nothing was folded


def test_links_shown_as_examples_in_prose_are_not_dropped(
        cli: Callable[..., CliResult], tmp_path: Path) -> None:
    index = ("# Memory\n\nEach line of this index looks like [Title](file.md) — a hook; keep "
             "it short.\n\n- [Title](file.md) — one-line hook (the format)\n"
             "- [Old notes](old_notes.md) — withdrawn by hand\n"
             "- [Build](build.md) — how the build runs\n")
    root = write_tree(tmp_path / "m", {"MEMORY.md": index,
                                       "build.md": topic("build", "make in a container",
                                                         extra=STAMP)})
    result = cli("run", root, "--yes", "--now", "2026-08-01T00:00:00Z",
                 "--snapshot-dir", tmp_path / "snaps")
    assert result.code == 0, result.err
    after = (root / "MEMORY.md").read_text()
    assert "Each line of this index looks like [Title](file.md)" in after
    assert "- [Title](file.md) — one-line hook (the format)" in after
    assert "old_notes.md" not in after
    assert load_memory_dir(root).index is not None


def _reference_merges(words: list[frozenset[str]], limit: int) -> set[tuple[int, int]]:
    """Every qualifying pair by comparing all pairs, then each fragment's closest `limit`."""
    qualifying: dict[tuple[int, int], float] = {}
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            shared = len(words[i] & words[j])
            union = len(words[i] | words[j])
            if words[i] and words[j] and 2 * shared >= union and shared >= 3 \
                    and shared / union < 0.8:
                qualifying[(i, j)] = shared / union
    kept: set[tuple[int, int]] = set()
    for i in range(len(words)):
        partners = sorted(((sim, -(b if a == i else a)) for (a, b), sim in qualifying.items()
                           if i in (a, b)), reverse=True)[:limit]
        kept |= {(min(i, -other), max(i, -other)) for _sim, other in partners}
    return kept


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["cache", "deploy", "script", "images", "fonts",
                                          "purged", "release", "every", "nightly", "cdn"]),
                         min_size=3, max_size=7), min_size=2, max_size=24))
def test_fragment_merges_are_each_fragments_closest_pairs(
        tmp_path_factory: pytest.TempPathFactory, texts: list[list[str]]) -> None:
    """With more than five partners a fragment keeps its closest five; with fewer, every
    pair is proposed, exactly as a comparison of all pairs finds them."""
    files = {f"note{n:02d}.md": topic(f"n{n}", " ".join(words) + ".", description="",
                                      extra=STAMP) for n, words in enumerate(texts)}
    root = write_tree(tmp_path_factory.mktemp("m"), {"MEMORY.md": "# M\n", **files})
    memdir = load_memory_dir(root)
    names = [e.file for e in memdir.topics]
    words = [content_words(f"{e.description} {e.body}") for e in memdir.topics]
    found = {tuple(sorted((names.index(m["files"][0]), names.index(m["files"][1]))))
             for m in fragment_merges(memdir)}
    assert found == _reference_merges(words, MERGE_PARTNERS)


def test_a_crowd_of_fragments_gives_a_bounded_number_of_proposals(tmp_path: Path) -> None:
    words = ["cache", "deploy", "script", "purged", "release", "images", "fonts", "nightly"]
    files = {f"note{n:02d}.md": topic(f"n{n}", " ".join([*words[:5], words[5 + n % 3]]) +
                                      f" v{n}.", description="", extra=STAMP)
             for n in range(40)}
    root = write_tree(tmp_path / "m", {"MEMORY.md": "# M\n", **files})
    merges = fragment_merges(load_memory_dir(root))
    assert 40 * MERGE_PARTNERS // 2 <= len(merges) <= 40 * MERGE_PARTNERS
