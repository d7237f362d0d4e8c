from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.secrets.base import ASSIGNMENT, VENDOR_FORMAT, SecretHit, SecretSpan
from prune_memory.secrets.scan import (
    DETECTORS,
    find_secrets,
    find_spans,
    hits_for,
    scan_spans,
    without_allowed,
)
from tests.secrets.corpus import lookalikes, secrets

TOKEN = "ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"


class _Fixed:
    """A detector that reports the spans it was given, to test the merge on its own."""

    name = "fixed"

    def __init__(self, *spans: SecretSpan) -> None:
        self._spans = spans

    def spans(self, text: str):  # type: ignore[no-untyped-def]
        return iter(self._spans)

    def screen(self) -> None:
        return None


def test_hit_describes_label_prefix_length_and_line() -> None:
    text = f"intro line\nrelease bot token {TOKEN} used by CI\n"
    assert find_secrets(text) == (SecretHit("github-token", "ghp_", 40, 2),)


def test_overlapping_finds_keep_the_surer_one() -> None:
    text = "GITHUB_TOKEN=" + TOKEN
    spans = find_spans(text)
    assert [s.label for s in spans] == ["github-token"]


def test_merge_prefers_confidence_then_length() -> None:
    weak = SecretSpan("token-assignment", 0, 30, ASSIGNMENT)
    strong = SecretSpan("github-token", 5, 20, VENDOR_FORMAT)
    apart = SecretSpan("password", 40, 50, ASSIGNMENT)
    spans = find_spans("x" * 60, detectors=(_Fixed(weak, strong, apart),))
    assert spans == (strong, apart)


def test_short_values_show_fewer_than_four_characters() -> None:
    text = "db at postgres://app:pa55@db.internal/app"
    (hit,) = find_secrets(text)
    assert hit.label == "connection-string"
    assert hit.length == 4 and hit.first4 == "p"


def test_allow_list_drops_only_named_labels() -> None:
    hits = hits_for("abcdefgh ijklmnop", [SecretSpan("jwt", 0, 8, 2),
                                          SecretSpan("password", 9, 17, 1)])
    assert [h.label for h in without_allowed(hits, ["jwt"])] == ["password"]


def test_clean_text_has_no_hits() -> None:
    assert find_secrets("User prefers pnpm; the deploy token lives in vault at ops/deploy.") == ()


_PIECES = [s.text for s in secrets()] + [s.text for s in lookalikes()] + [
    " ", "\n", "token", "KEY", "pass", "\u017f", "\u212a", "—", "x" * 30, "12345678:",
    "hooks.slack.com", "h\u212aoks.\u017flack.com", "Bearer ", "AKIA", "=", ":"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
def test_the_screen_never_hides_a_secret(text: str) -> None:
    assert find_spans(text) == scan_spans(text, DETECTORS)
