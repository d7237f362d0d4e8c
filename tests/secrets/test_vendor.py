"""The vendor plugins sit behind triggers; a trigger must never hide a plugin's match."""

from __future__ import annotations

import subprocess
import sys

import pytest

from prune_memory.secrets.vendor import VENDOR_PLUGINS, VendorDetector, plugin_patterns, triggered
from tests.secrets.corpus import lookalikes, secrets


@pytest.mark.parametrize("row", VENDOR_PLUGINS, ids=lambda row: row.label + ":" + row.cls)
def test_trigger_covers_every_plugin_match_in_the_corpus(row) -> None:  # type: ignore[no-untyped-def]
    patterns = plugin_patterns(row)
    assert patterns, f"{row.cls} has no denylist patterns"
    for sample in secrets() + lookalikes():
        if any(p.search(sample.text) for p in patterns):
            assert triggered(sample.text, [row]), (row.cls, sample.kind)


def test_vendor_only_formats_are_found() -> None:
    kinds = {s.kind: s for s in secrets()}
    for kind in ("stripe-key", "sendgrid-key", "twilio-key", "npm-token", "telegram-token"):
        sample = kinds[kind]
        spans = list(VendorDetector().spans(sample.text))
        assert [s.label for s in spans] == [kind]
        assert sample.text[spans[0].start:spans[0].end] == sample.value


def test_clean_text_never_imports_detect_secrets() -> None:
    code = ("import sys; from prune_memory.secrets.scan import find_secrets;"
            "find_secrets('User prefers pnpm. See docs/setup.md, commit 3f9a2c1.');"
            "print('detect_secrets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_long_token_is_one_span_not_one_per_match_inside_it() -> None:
    """A fixed-length pattern matches a long token's head many times over; the token is
    given once, whole (each match used to walk to the token's end on its own: n²)."""
    token = "ghp_" + "a" * 36
    text = f"token: {token * 50} end"
    spans = [s for s in VendorDetector().spans(text) if s.label == "github-token"]
    assert [(s.start, s.end) for s in spans] == [(7, 7 + len(token) * 50)]
