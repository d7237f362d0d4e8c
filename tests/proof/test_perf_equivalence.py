"""The speed-ups made for the benchmarks give the same answers as the code they replaced."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from prune_memory.analysis.access import estimate_access
from prune_memory.analysis.similarity import has_words, tokens
from prune_memory.secrets.base import SecretSpan
from prune_memory.secrets.scan import _merge
from prune_memory.secrets.vendor import VENDOR_PLUGINS, triggered
from prune_memory.store.loader import load_memory_dir
from tests.secrets.corpus import lookalikes, secrets

UNION = re.compile("|".join(f"(?:{row.trigger})" for row in VENDOR_PLUGINS))


@given(st.text())
def test_has_words_agrees_with_tokens(text: str) -> None:
    assert has_words(text) == bool(tokens(text))


def test_vendor_triggers_one_by_one_match_where_their_union_does() -> None:
    samples = [s.text for s in secrets()] + [s.text for s in lookalikes()]
    samples += ["aws_secret key here", "AWS pass", "xoxb-1", "nothing at all", "x" * 40]
    assert any(triggered(text) for text in samples)
    for text in samples:
        assert triggered(text) == (UNION.search(text) is not None), text


@given(st.text(alphabet="AKIASGhpo_x-.:0123456789abcdefMNOsqlivekKu ", max_size=60))
def test_vendor_triggers_one_by_one_on_random_text(text: str) -> None:
    assert triggered(text) == (UNION.search(text) is not None)


def test_access_estimate_per_entry_sees_the_load_cap(tmp_path: Path) -> None:
    """The loaded-line set is cached per index; a second directory must not reuse it."""
    labels = []
    for lines in (3, 260):
        root = tmp_path / f"m{lines}"
        root.mkdir()
        index = ["# Memory"] + [f"- [n{i}](n{i}.md) — note" for i in range(lines)]
        (root / "MEMORY.md").write_text("\n".join(index) + "\n")
        for i in range(lines):
            (root / f"n{i}.md").write_text(f"---\nname: n{i}\n---\nnote {i}\n")
        memdir = load_memory_dir(root)
        last = next(e for e in memdir.entries if e.file == f"n{lines - 1}.md")
        first = next(e for e in memdir.entries if e.file == "n0.md")
        labels.append((estimate_access(first, memdir).label, estimate_access(last, memdir).label))
    assert "read every session" in labels[0][1]
    assert "read every session" in labels[1][0] and "past the load cap" in labels[1][1]


def _merge_all_pairs(candidates: list[SecretSpan]) -> tuple[SecretSpan, ...]:
    """The quadratic merge the indexed one replaced."""
    ranked = sorted(candidates, key=lambda s: (-s.confidence, -s.length))
    kept: list[SecretSpan] = []
    for span in ranked:
        if not any(span.overlaps(other) for other in kept):
            kept.append(span)
    return tuple(sorted(kept, key=lambda s: s.start))


_SPANS = st.builds(lambda label, start, length, confidence: SecretSpan(
    label, start, start + length, confidence), st.sampled_from("abc"), st.integers(0, 60),
    st.integers(0, 12), st.integers(1, 3))


@settings(max_examples=1000)
@given(st.lists(_SPANS, max_size=30))
@example([SecretSpan("a", 8, 8, 1), SecretSpan("a", 8, 10, 1), SecretSpan("a", 9, 9, 1)])
def test_secret_span_merge_matches_the_all_pairs_merge(spans: list[SecretSpan]) -> None:
    assert _merge(spans) == _merge_all_pairs(spans)
