"""The never-persist policy: what must never become a memory, read from the policy file.

`retention-policy.md` holds prose for people and one fenced `prune-memory-policy` block (TOML)
for the tool. Parsing is a pure function over text; the two file touches (read the policy,
find the template) sit at the bottom of this module; writing the template is a pass of
its own (`procedure/filters.py`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from prune_memory.errors import BadInputError, PruneMemoryError
from prune_memory.matching.regexgate import LazyPattern, lines_at, may_match, needle_lines
from prune_memory.matching.timedregex import TimedPattern
from prune_memory.secrets.mask import mask_text
from prune_memory.vocab import JSON, POLICY_FILE, FindingCode

BLOCK_TAG = "prune-memory-policy"
RULE_CODES = frozenset({FindingCode.EPHEMERAL, FindingCode.NOISE, FindingCode.LOW_UTILITY,
                        FindingCode.UNVERIFIABLE, FindingCode.POISON})
_RULE_KEYS = frozenset({"id", "pattern", "reason", "code"})
_BLOCK = re.compile(rf"^(?P<fence>`{{3,}}|~{{3,}})[ \t]*{BLOCK_TAG}[ \t]*\n(?P<body>.*?)"
                    r"^(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
_EXCERPT = 160


class PolicyRule(NamedTuple):
    """One never-persist rule: text matching `pattern` should not be a memory."""

    id: str
    pattern: LazyPattern  # compiled when a text holds one of its literals
    reason: str
    code: FindingCode

    def to_json(self) -> JSON:
        return {"id": self.id, "pattern": self.pattern.pattern, "reason": self.reason,
                "code": self.code.value}


class Policy(NamedTuple):
    """The rules in force and where they came from (the file, or the built-in template)."""

    rules: tuple[PolicyRule, ...]
    origin: str


class FilterHit(NamedTuple):
    """A rule that matched: the line (1-based) and that line with any secret masked."""

    rule: str
    code: FindingCode
    reason: str
    line: int
    excerpt: str

    def to_json(self) -> JSON:
        return {"kind": "never-persist", "rule": self.rule, "code": self.code.value,
                "reason": self.reason, "line": self.line, "excerpt": self.excerpt}


def match_filters(text: str, policy: Policy, *,
                  within_lines: bool = False) -> tuple[FilterHit, ...]:
    """The first match of each rule in `text`, in rule order.

    `within_lines` searches only lines that hold a literal the rule needs, so a phrase
    broken across two lines is missed: the write-time gate trades that for speed on long
    writes, and the audit, which searches whole texts, still finds it.
    """
    hits: list[FilterHit] = []
    for rule in policy.rules:
        match = _first(rule.pattern, text, within_lines) if may_match(rule.pattern, text) \
            else None
        if match:
            line = text.count("\n", 0, match.start()) + 1
            hits.append(FilterHit(rule.id, rule.code, rule.reason, line, _excerpt(text, line)))
    return tuple(hits)


def _first(pattern: LazyPattern, text: str, within_lines: bool) -> re.Match[str] | None:
    # Exact for a rule that keeps to one line; with `within_lines`, for every rule.
    spans = needle_lines(pattern, text, per_line=within_lines)
    if spans is None and not within_lines:
        return pattern.search(text)
    if spans is None:
        spans = lines_at(text, [m.start() for m in _LINE_STARTS.finditer(text)])
    return next((m for start, end in spans if (m := pattern.search(text, start, end))), None)


_LINE_STARTS = re.compile(r"^", re.MULTILINE)


def parse_policy(text: str, *, origin: str, timed: bool = True) -> Policy | None:
    """The rules in the one `prune-memory-policy` block of `text`; None when there is none.
    A user's rules (`timed`) run with a time limit (`timedregex`); the bundled ones are ours."""
    blocks = list(_BLOCK.finditer(text))
    if not blocks:
        return None
    if len(blocks) > 1:
        raise BadInputError(f"{origin}: more than one {BLOCK_TAG} block; keep exactly one")
    data = _toml(blocks[0].group("body"), origin)
    version = data.get("version", 1)
    if version != 1:
        raise BadInputError(f"{origin}: policy version {version!r} is not supported (use 1)")
    raw_rules = data.get("never_persist", [])
    if not isinstance(raw_rules, list):
        raise BadInputError(f"{origin}: `never_persist` must be a list of [[never_persist]] tables")
    rules = tuple(_rule(raw, origin, position, timed)
                  for position, raw in enumerate(raw_rules, 1))
    seen: set[str] = set()
    for rule in rules:
        if rule.id in seen:
            raise BadInputError(f"{origin}: rule id {rule.id!r} appears twice")
        seen.add(rule.id)
    return Policy(rules=rules, origin=origin)


def default_policy() -> Policy:
    """The rules of the bundled template, used when the memory directory has no policy."""
    policy = parse_policy(template_text(), origin="built-in defaults", timed=False)
    if policy is None:
        raise PruneMemoryError(f"the bundled {POLICY_FILE} template has no {BLOCK_TAG} block")
    return policy


def _toml(body: str, origin: str) -> dict[str, Any]:
    import tomllib  # here: only a policy file needs it

    try:
        return tomllib.loads(body)
    except tomllib.TOMLDecodeError as err:
        raise BadInputError(f"{origin}: the {BLOCK_TAG} block is not valid TOML: {err}") from err


def _rule(raw: Any, origin: str, position: int, timed: bool) -> PolicyRule:
    where = f"{origin}: never_persist rule {position}"
    if not isinstance(raw, dict):
        raise BadInputError(f"{where}: must be a table")
    unknown = sorted(set(raw) - _RULE_KEYS)
    missing = sorted(_RULE_KEYS - set(raw))
    if unknown or missing:
        problem = f"unknown keys {unknown}" if unknown else f"missing keys {missing}"
        raise BadInputError(f"{where}: {problem} (each rule has id, pattern, reason, code)")
    if not all(isinstance(raw[key], str) and raw[key].strip() for key in _RULE_KEYS):
        raise BadInputError(f"{where}: id, pattern, reason and code must be non-empty strings")
    try:
        code = FindingCode(raw["code"])
    except ValueError:
        code = None
    if code not in RULE_CODES:
        allowed = ", ".join(sorted(c.value for c in RULE_CODES))
        raise BadInputError(f"{where} ({raw['id']}): code {raw['code']!r} is not one of {allowed}")
    flags = re.IGNORECASE | re.MULTILINE
    pattern = TimedPattern(raw["pattern"], flags, label=f"{origin} rule {raw['id']!r}") \
        if timed else LazyPattern(raw["pattern"], flags)
    try:
        pattern.compiled  # noqa: B018  compiling is the check
    except re.error as err:
        raise BadInputError(f"{where} ({raw['id']}): bad regular expression: {err}") from err
    return PolicyRule(id=raw["id"], pattern=pattern, reason=raw["reason"].strip(), code=code)


def _excerpt(text: str, line: int) -> str:
    """The matching line, secrets masked first so a cut can never expose part of one."""
    content = text.splitlines()[line - 1] if text else ""
    masked = " ".join(mask_text(content).split())
    return masked if len(masked) <= _EXCERPT else masked[: _EXCERPT - 1] + "…"


# --- the file touches -----------------------------------------------------------------------


def load_policy(root: Path) -> Policy:
    """The policy of memory directory `root`: its retention-policy.md, else the defaults."""
    text = read_policy_text(root)
    if text is None:
        return default_policy()
    policy = parse_policy(text, origin=POLICY_FILE)
    if policy is None:
        fallback = default_policy()
        return Policy(fallback.rules, f"built-in defaults ({POLICY_FILE} has no {BLOCK_TAG} block)")
    return policy


def read_policy_text(root: Path) -> str | None:
    """Text of `root/retention-policy.md`, or None when there is none."""
    from prune_memory.store.safe_read import decode_text, present, read_member

    if not present(root / POLICY_FILE):
        return None
    return decode_text(POLICY_FILE, read_member(root, POLICY_FILE))


def template_text() -> str:
    """The bundled retention-policy template."""
    from prune_memory.resources import read_template

    return read_template(POLICY_FILE)
