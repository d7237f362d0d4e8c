"""How likely a memory is noise rather than knowledge: a score in 0..1 with its reasons.

The score is the strongest rule that fires, never a sum, so several weak hints cannot add
up to a withdrawal. Words that carry a lasting lesson cap the score, unless a secret is in
the text: a leaked credential matters more than the lesson around it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from prune_memory.matching.regexgate import may_match
from prune_memory.model import JSON
from prune_memory.secrets.base import SecretHit

EMPTY, SECRET, TERMINAL, STACK_TRACE, STATUS = 1.0, 0.9, 0.85, 0.85, 0.8
LINE_PATTERN = 0.8  # to-do markers, log lines, heartbeats: one known shape of junk
TRIVIAL, NOISY_SOURCE, DUMP, VALUE_CAP = 0.7, 0.7, 0.65, 0.3
LOW_IMPORTANCE, LOW_IMPORTANCE_BELOW = 0.5, 0.2
NOISE_AT, STRONG_NOISE_AT = 0.5, 0.8

NOISY_SOURCES = frozenset({"heartbeat", "cron", "debug", "terminal", "log", "stdout"})
_TRIVIAL = frozenset({
    "ok", "okay", "k", "done", "ping", "pong", "heartbeat", "thanks", "thank you", "thx",
    "ty", "got it", "noted", "ack", "sure", "yes", "no", "yep", "nope", "cool", "great",
    "nice", "lgtm", "fine", "will do", "on it", "sounds good", "+1", "test", "testing",
    "hello", "hi", "👍", "✅", "alive", "still alive", "tick", "tock", "keepalive",
})
_VALUE_WORDS = re.compile(
    r"\b(?:prefers?|preferred|preference|always|never|decisions?|decided|conventions?"
    r"|architecture|architectural|rationale|policy|guidelines?|invariant|lessons?|remember)\b",
    re.IGNORECASE)
_TERMINAL = re.compile(
    r"^\s*(?:npm (?:warn|WARN|ERR!|notice)|yarn (?:install|add) v\d|added \d+ packages?"
    r"|removed \d+ packages?|up to date, audited|found \d+ vulnerabilit"
    r"|Collecting \S|Downloading \S|Installing collected packages|Using cached \S"
    r"|Successfully (?:installed|built|uninstalled|tagged)|Requirement already satisfied"
    r"|Building wheels? for|[dl-][rwxsStT-]{9}[@+.]?\s+\d+\s|total \d+$"
    r"|Compiling \S+ v\d|Finished (?:dev|release|test|`\w+`) |error\[E\d+\]"
    r"|Step \d+/\d+ :|Sending build context|---> [0-9a-f]{12}"
    r"|Enumerating objects|Counting objects|Compressing objects|Writing objects"
    r"|Resolving deltas|remote: |To (?:github\.com|gitlab\.com|git@)"
    r"|Get:\d+ |Hit:\d+ |Reading package lists|Setting up \S|Unpacking \S"
    r"|=+ .*(?:passed|failed|error).* =+$|\d+ (?:passed|failed)(?:,|$| in ))")
_TRACE_HEAD = re.compile(
    r"Traceback \(most recent call last\)|panicked at |Exception in thread \"|^Caused by: ",
    re.MULTILINE)
_TRACE_FRAME = re.compile(
    r"^\s*(?:File \".+\", line \d+|at [\w$.<>/]+ ?\(.*:\d+(?::\d+)?\)|at .+:\d+:\d+\)?"
    r"|#\d+ +0x[0-9a-f]+ in |\d+: +0x[0-9a-f]+ - )\s*$")
_STATUS = re.compile(
    r"^\W*(?:(?:step|phase|stage|task|part) \d+(?:/\d+)? (?:is )?"
    r"(?:done|completed?|finished|started|in progress|passed|failed)\b"
    r"|(?:PR|pull request|MR|merge request) #?\d+ (?:is |was |got )?"
    r"(?:merged|opened|closed|approved|up|ready|created|reverted)\b"
    r"|(?:build|ci|pipeline|tests?|deploy(?:ment)?|checks?) (?:is |are )?"
    r"(?:green|red|passing|passed|failing|failed|running|done|queued|fixed)\b"
    r"|(?:done|finished|started|resumed|working|still working) (?:with|on)\b"
    r"|(?:wip|in progress)\b"
    r"|(?:committed|pushed|deployed|merged|released|tagged) (?:to |as |v?\d|[0-9a-f]{7}))",
    re.IGNORECASE)
_TODO = re.compile(r"^\W*(?:TODO|FIXME|HACK|XXX)\b|^\W*todo:", re.MULTILINE)
_LEVEL = r"(?:DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL|TRACE)"
_STAMP = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?"
_LOG_LINE = re.compile(
    rf"^\s*(?:{_LEVEL}\s+\[?{_STAMP}"  # INFO 2026-01-02 10:00:01 ...
    rf"|\[?{_STAMP}\]?\s+\[?{_LEVEL}\]?\b"  # 2026-01-02T10:00:01Z ERROR ...
    rf"|\[{_LEVEL}\]\s"  # [WARN] ...
    rf"|{_LEVEL}:[\w.]+:)")  # INFO:app.worker:... (Python's default format)
_HEARTBEAT = re.compile(
    r"^\W*(?:heartbeat|keep-?alive|ping|pong|alive|still alive|tick|tock)\W*(?:\d[\d:.TZ-]*)?\W*$"
    r"|^\W*cron(?:\s+job)?\s+(?:started|completed|finished|skipped|tick|ran)\b", re.IGNORECASE)
_UNAME = re.compile(
    r"^\s*(?:(?:Linux|Darwin|FreeBSD|OpenBSD|NetBSD|SunOS|(?:MINGW|MSYS|CYGWIN)\w*_NT\S*)"
    r"\s+\S+\s+\d+\.\d+\S*\s.*"
    r"|(?:Linux|Darwin|Macintosh|Windows(?:_NT)?|x86_64|aarch64|arm64|i[3-6]86)\s*)$")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？]")
_STRUCTURE = re.compile(r"^\s*(?:[-*+|#>]|\d+[.)])")


@dataclass(frozen=True)
class NoiseScore:
    """A score in 0..1 (higher: more likely noise) and the rules behind it, strongest first."""

    score: float
    reasons: tuple[str, ...]

    def to_json(self) -> JSON:
        return {"score": self.score, "reasons": list(self.reasons)}


def score_noise(text: str, *, source: str | None = None,
                secrets: Sequence[SecretHit] | None = None,
                importance: float | None = None) -> NoiseScore:
    """Score `text`; `secrets` are the hits already found in it (scanned here when None);
    `importance` is the record's own 0..1 rating, if it has one."""
    if not text.strip():
        return NoiseScore(EMPTY, ("empty-content",))
    if secrets is None:
        from prune_memory.secrets.scan import find_secrets

        secrets = find_secrets(text)
    fired = _fired_rules(text, source, secrets)
    if importance is not None and importance < LOW_IMPORTANCE_BELOW:
        fired.append((LOW_IMPORTANCE, "low-importance"))
    score = max((value for value, _ in fired), default=0.0)
    reasons = [reason for _, reason in sorted(fired, key=lambda f: -f[0])]
    words = sorted({w.lower() for w in _VALUE_WORDS.findall(text)}
                   if may_match(_VALUE_WORDS, text) else ())
    if words and not secrets and score > VALUE_CAP:
        score = VALUE_CAP
        reasons.append("value-words:" + ",".join(words))
    return NoiseScore(score, tuple(reasons))


def _fired_rules(text: str, source: str | None,
                 secrets: Sequence[SecretHit]) -> list[tuple[float, str]]:
    lines = [line for line in text.splitlines() if line.strip()]
    fired: list[tuple[float, str]] = []
    if secrets:
        fired.append((SECRET, "secret:" + ",".join(sorted({h.label for h in secrets}))))
    if _mostly(lines, _TERMINAL, at_least=2):
        fired.append((TERMINAL, "terminal-output"))
    if _any_line(text, _TRACE_HEAD) or _count_lines(text, lines, _TRACE_FRAME) >= 2:
        fired.append((STACK_TRACE, "stack-trace"))
    if _mostly(lines, _STATUS):
        fired.append((STATUS, "transient-status"))
    if _mostly(lines, _UNAME):
        fired.append((TERMINAL, "uname-output"))
    fired.extend((LINE_PATTERN, reason) for reason, pattern in _LINE_PATTERNS
                 if _mostly(lines, pattern))
    if len(text.strip()) <= 20 and _plain(text) in _TRIVIAL:
        fired.append((TRIVIAL, "trivial-acknowledgement"))
    if source and source.strip().lower() in NOISY_SOURCES:
        fired.append((NOISY_SOURCE, f"noisy-source:{source.strip().lower()}"))
    if _is_dump(text, lines):
        fired.append((DUMP, "unpunctuated-dump"))
    return fired


_LINE_PATTERNS = (("todo-lines", _TODO), ("log-lines", _LOG_LINE), ("heartbeat", _HEARTBEAT))
# Reasons that mean session state rather than junk: reported as `ephemeral`.
_EPHEMERAL_REASONS = frozenset({"transient-status", "todo-lines"})


def importance_of(meta: JSON) -> float | None:
    """A record's `importance` (0..1) when it has a usable one."""
    value = meta.get("importance")
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if 0.0 <= number <= 1.0 else None


def _any_line(text: str, pattern: re.Pattern[str]) -> bool:
    return may_match(pattern, text) and pattern.search(text) is not None


def _count_lines(text: str, lines: list[str], pattern: re.Pattern[str]) -> int:
    """How many of `lines` (parts of `text`) start with a match of `pattern`."""
    if not may_match(pattern, text):
        return 0
    return sum(bool(pattern.match(line)) for line in lines)


def _mostly(lines: list[str], pattern: re.Pattern[str], *, at_least: int | None = None) -> bool:
    """Half the lines match, or (with `at_least`) that many lines do."""
    matching = sum(bool(pattern.match(line)) for line in lines)
    return matching > 0 and (matching * 2 >= len(lines)
                             or (at_least is not None and matching >= at_least))


def _plain(text: str) -> str:
    return re.sub(r"[\s.!,:;]+", " ", text.strip().lower()).strip()


def _is_dump(text: str, lines: list[str]) -> bool:
    """Thirty-odd lines of raw text with hardly a sentence in them, not a markdown list and
    not code kept in fences (a schema or an example is written that way on purpose)."""
    if len(lines) < 30 or len(text) < 1000:
        return False
    fenced = _fenced_lines(lines)
    structured = sum(bool(_STRUCTURE.match(line)) for line in lines) + fenced
    sentences = len(_SENTENCE_END.findall(text))
    return structured * 2 < len(lines) and sentences * 10 < len(lines)


def _fenced_lines(lines: list[str]) -> int:
    inside, count = False, 0
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            inside = not inside
            count += 1
        elif inside:
            count += 1
    return count


def is_ephemeral_kind(score: NoiseScore) -> bool:
    """The strongest reason is session state (a status line, a to-do), not junk: code
    `ephemeral`."""
    return bool(score.reasons) and score.reasons[0] in _EPHEMERAL_REASONS
