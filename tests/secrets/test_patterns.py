from __future__ import annotations

import pytest

from prune_memory.secrets.patterns import PATTERNS, PatternDetector
from prune_memory.secrets.scan import find_spans
from tests.secrets.corpus import lookalikes, secrets

ONLY_PATTERNS = (PatternDetector(),)


def _labels(text: str) -> list[str]:
    return [span.label for span in find_spans(text, ONLY_PATTERNS)]


def _values(text: str) -> list[str]:
    return [text[span.start:span.end] for span in find_spans(text, ONLY_PATTERNS)]


@pytest.mark.parametrize("text", [
    "password: hunter2x", "Password = Tr0ub4dor&3", "- **Staging password**: `q8v!zz9w`",
    "pwd=s3cret99",
])
def test_unquoted_passwords_are_found(text: str) -> None:
    assert "password" in _labels(text)


@pytest.mark.parametrize("text", [
    "password: <set me>", "password: ${DB_PASSWORD}", "password: ********",
    "password: stored in vault", "password: settings.DB_PASSWORD", "password: required",
    "password = getpass()", "password_min_length: 12", "password: correct",
])
def test_password_stand_ins_are_not(text: str) -> None:
    assert _labels(text) == []


def test_value_stops_before_sentence_punctuation_and_query_separators() -> None:
    assert _values("token=ab12cd34ef56gh78.") == ["ab12cd34ef56gh78"]
    assert _values("https://x.io/hook?token=ab12cd34ef56gh78&page=2") == ["ab12cd34ef56gh78"]


def test_connection_string_masks_only_the_password() -> None:
    assert _values("redis://cache:Zq9!x7Lm@redis.internal:6379/0") == ["Zq9!x7Lm"]
    assert _values("postgres://${USER}:${PASS}@db/app") == []


def test_private_key_value_is_the_body_and_needs_key_material() -> None:
    body = "MIIEow" + "A" * 60
    text = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    assert _values(text) == [body]
    assert _labels("never paste a -----BEGIN RSA PRIVATE KEY----- header") == []


def test_sk_prefix_needs_a_generated_body() -> None:
    assert _labels("sk-learn-compatible-estimator-wrapper") == []
    assert _labels("sk-" + "aB3" * 10) == ["openai-key"]
    assert _labels("sk-ant-api03-" + "Zx9" * 10) == ["anthropic-key"]


def test_jwt_needs_a_json_header() -> None:
    fake = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLWJ5dGVz"
    assert _labels(fake) == ["jwt"]
    assert _labels("eyJnotbase64json.eyJalsonotjson.abcdefghijklmnopqrst") == []


def test_env_style_needs_a_credential_name_at_the_end() -> None:
    assert _labels("SECRET_KEY=Zk3jH8s0Qw2mN5vB") == ["env-secret"]
    assert _labels("SECRET_KEY_FILE=/run/secrets/key") == []
    assert _labels("TOKEN_TTL_SECONDS=86400") == []


def test_needles_never_hide_a_match() -> None:
    texts = [s.text for s in secrets() + lookalikes()] + [
        "password: hunter2x", "SECRET_KEY=Zk3jH8s0Qw2mN5vB", "Bearer abcdefghij0123456789xyz"]
    for pattern in PATTERNS:
        for text in texts:
            if pattern.regex.search(text):
                assert any(n in text.lower() for n in pattern.needles) or not pattern.needles, (
                    pattern.label)


@pytest.mark.parametrize("text", ["db paſsword: Hunter2horse9",  # ſ is s under IGNORECASE
                                  "the staging paſsword is hunter2horse",
                                  "api_\u212aey = 'Zq8vT2mN5xR7wL3p'"])  # the Kelvin sign
def test_a_look_alike_letter_does_not_hide_a_password_from_its_pattern(text: str) -> None:
    """A pattern finds ſ, K, İ and ı as ASCII letters; the needles it is screened by are
    looked for in the lower-cased text, which does not spell them, so they must not decide."""
    assert [s.label for s in PatternDetector().spans(text)], text
    assert find_spans(text), text
