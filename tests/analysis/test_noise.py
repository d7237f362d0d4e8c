from __future__ import annotations

import pytest

from prune_memory.analysis.noise import (
    DUMP,
    EMPTY,
    NOISY_SOURCE,
    SECRET,
    STACK_TRACE,
    STATUS,
    TERMINAL,
    TRIVIAL,
    VALUE_CAP,
    NoiseScore,
    is_ephemeral_kind,
    score_noise,
)

PIP_LOG = """Collecting httpx==0.27.0
  Using cached httpx-0.27.0-py3-none-any.whl (75 kB)
Installing collected packages: sniffio, httpx
Successfully installed httpx-0.27.0 sniffio-1.3.1"""
TRACE = """Traceback (most recent call last):
  File "app/main.py", line 12, in <module>
    run()
KeyError: 'user'"""
JS_FRAMES = ("TypeError: x is undefined\n    at render (src/view.js:10:5)\n"
             "    at main (src/app.js:3:1)")


@pytest.mark.parametrize(("text", "score", "reason"), [
    ("", EMPTY, "empty-content"),
    ("   \n\t", EMPTY, "empty-content"),
    (PIP_LOG, TERMINAL, "terminal-output"),
    ("drwxr-xr-x  5 ana staff 160 Nov 2 .\n-rw-r--r--  1 ana staff 42 Nov 2 notes.md",
     TERMINAL, "terminal-output"),
    (TRACE, STACK_TRACE, "stack-trace"),
    (JS_FRAMES, STACK_TRACE, "stack-trace"),
    ("Step 3 done", STATUS, "transient-status"),
    ("PR #12 merged", STATUS, "transient-status"),
    ("CI is green again", STATUS, "transient-status"),
    ("ok", TRIVIAL, "trivial-acknowledgement"),
    ("Thanks!", TRIVIAL, "trivial-acknowledgement"),
])
def test_each_rule_scores_at_its_own_level(text: str, score: float, reason: str) -> None:
    result = score_noise(text)
    assert result.score == score
    assert result.reasons[0] == reason


def test_a_secret_scores_point_nine() -> None:
    result = score_noise("deploy with password: Zq9!x7Lm2k")
    assert result.score == SECRET
    assert result.reasons == ("secret:password",)


def test_noisy_source() -> None:
    assert score_noise("disk at 71%", source="Heartbeat") == NoiseScore(
        NOISY_SOURCE, ("noisy-source:heartbeat",))


def test_long_unpunctuated_dump() -> None:
    rows = "\n".join(f"value {i} alpha beta gamma delta epsilon zeta eta" for i in range(40))
    assert score_noise(rows).reasons == ("unpunctuated-dump",)
    assert score_noise(rows).score == DUMP


def test_a_markdown_list_is_not_a_dump() -> None:
    rows = "\n".join(f"- `src/module_{i}.py` handles part {i} of the import"
                     for i in range(40))
    assert score_noise(rows).score == 0.0


def test_score_is_the_maximum_never_the_sum() -> None:
    text = PIP_LOG + "\n" + TRACE + "\nStep 3 done"
    result = score_noise(text, source="terminal")
    assert result.score == max(TERMINAL, STACK_TRACE, STATUS, NOISY_SOURCE)
    assert set(result.reasons) >= {"terminal-output", "stack-trace", "noisy-source:terminal"}


def test_value_words_cap_the_score() -> None:
    text = TRACE + "\nLesson: we always pin httpx because of this."
    result = score_noise(text)
    assert result.score == VALUE_CAP
    assert result.reasons[-1] == "value-words:always,lesson"
    assert "stack-trace" in result.reasons


def test_value_words_do_not_cap_a_secret() -> None:
    result = score_noise("We always deploy with password: Zq9!x7Lm2k")
    assert result.score == SECRET


def test_given_secrets_are_not_rescanned() -> None:
    assert score_noise("password: Zq9!x7Lm2k", secrets=()).score < 0.5


def test_useful_memories_score_low() -> None:
    for text in ("The auth middleware lives in src/auth/middleware.ts and wraps every route.",
                 "User prefers small commits with a why-first message.",
                 "Tests run with `make test`; integration tests need Docker running."):
        assert score_noise(text).score < 0.5, text


def test_ephemeral_kind_is_status_first() -> None:
    assert is_ephemeral_kind(score_noise("Step 2/5 finished"))
    assert not is_ephemeral_kind(score_noise(PIP_LOG))
    assert not is_ephemeral_kind(NoiseScore(0.0, ()))
