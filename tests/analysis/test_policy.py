from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.analysis.policy import (
    default_policy,
    load_policy,
    match_filters,
    parse_policy,
    template_text,
)
from prune_memory.engine.passrecord import records
from prune_memory.engine.undo import undo_passes
from prune_memory.errors import BadInputError, RefusedError
from prune_memory.model import POLICY_FILE, FindingCode
from prune_memory.procedure.filters import init_policy

USER_RULE = """
[[never_persist]]
id = "ticket-chatter"
code = "ephemeral"
reason = "Ticket status changes daily."
pattern = '''\\bJIRA-\\d+ (?:moved|assigned)\\b'''
"""


def _policy_doc(block: str) -> str:
    return f"# Our policy\n\nProse for people.\n\n```prune-memory-policy\n{block}\n```\n"


@pytest.mark.parametrize(("text", "rule"), [
    ("Currently investigating the flaky login test", "session-state"),
    ("Pick this up next session: the cache rewrite", "session-state"),
    ("Today I moved the fixtures into tests/data", "session-state"),
    ("Tried bumping the pool size but it didn't help at all", "intermediate-reasoning"),
    ("The retry wrapper did not work", "intermediate-reasoning"),
    ('  File "src/app.py", line 88, in handler', "debug-output"),
    ("ValueError raised at line 40 of the parser", "debug-output"),
    ("pip install rich==13.7.1 && pip install typer==0.12.3 && make", "brittle-command"),
    ("The user seemed really annoyed by the slow build", "emotional-note"),
    ("I believe the quota resets hourly", "unverified-observation"),
])
def test_default_rules_catch_step_six_patterns(text: str, rule: str) -> None:
    assert rule in [hit.rule for hit in match_filters(text, default_policy())]


@pytest.mark.parametrize("text", [
    "User prefers kebab-case for new file names.",
    "The API currently returns v2 payloads; v1 was removed in March.",
    "Install dependencies with pnpm; versions are pinned in the lockfile.",
    "Decision: keep SQLite for the CLI because it ships with Python.",
])
def test_default_rules_leave_lasting_knowledge_alone(text: str) -> None:
    assert match_filters(text, default_policy()) == ()


def test_hit_carries_line_code_and_a_masked_excerpt() -> None:
    text = "about the db\nCurrently debugging login, password: Zq9!x7Lm2k"
    (hit,) = match_filters(text, default_policy())
    assert (hit.rule, hit.code, hit.line) == ("session-state", FindingCode.EPHEMERAL, 2)
    assert "Zq9!x7Lm2k" not in hit.excerpt and "[password" in hit.excerpt


def test_template_block_parses_and_covers_the_documented_rules() -> None:
    policy = parse_policy(template_text(), origin="template")
    assert policy is not None
    assert [r.id for r in policy.rules] == [
        "session-state", "intermediate-reasoning", "debug-output", "brittle-command",
        "emotional-note", "unverified-observation"]


def test_user_additions_in_the_block_are_honoured() -> None:
    base = template_text()
    extended = base.replace("```prune-memory-policy\nversion = 1\n",
                            "```prune-memory-policy\nversion = 1\n" + USER_RULE, 1)
    policy = parse_policy(extended, origin=POLICY_FILE)
    assert policy is not None and policy.rules[0].id == "ticket-chatter"
    assert [h.rule for h in match_filters("JIRA-77 moved to review", policy)] == ["ticket-chatter"]


def test_a_policy_can_drop_built_in_rules() -> None:
    policy = parse_policy(_policy_doc("version = 1\n" + USER_RULE), origin=POLICY_FILE)
    assert policy is not None
    assert match_filters("Currently debugging the parser", policy) == ()


def test_text_without_a_block_gives_none() -> None:
    assert parse_policy("# Policy\nJust prose.", origin=POLICY_FILE) is None


@pytest.mark.parametrize(("block", "message"), [
    ("version = [", "not valid TOML"),
    ("version = 2", "version 2"),
    ('[[never_persist]]\nid = "x"\ncode = "ephemeral"\nreason = "r"\npattern = "("',
     "bad regular expression"),
    ('[[never_persist]]\nid = "x"\ncode = "withdraw"\nreason = "r"\npattern = "a"',
     "is not one of"),
    ('[[never_persist]]\nid = "x"\ncode = "noise"\npattern = "a"', "missing keys"),
    ('[[never_persist]]\nid = "x"\ncode = "noise"\nreason = "r"\npattern = "a"\nflags = "i"',
     "unknown keys"),
    ('[[never_persist]]\nid = "x"\ncode = "noise"\nreason = "r"\npattern = "a"\n'
     '[[never_persist]]\nid = "x"\ncode = "noise"\nreason = "r"\npattern = "b"', "twice"),
])
def test_bad_blocks_are_bad_input(block: str, message: str) -> None:
    with pytest.raises(BadInputError, match=message):
        parse_policy(_policy_doc(block), origin=POLICY_FILE)


def test_two_blocks_are_refused() -> None:
    with pytest.raises(BadInputError, match="more than one"):
        parse_policy(_policy_doc("version = 1") + _policy_doc("version = 1"), origin="p")


def test_load_policy_prefers_the_file_and_falls_back_to_defaults(tmp_path: Path) -> None:
    assert load_policy(tmp_path).origin == "built-in defaults"
    (tmp_path / POLICY_FILE).write_text(_policy_doc("version = 1\n" + USER_RULE))
    assert [r.id for r in load_policy(tmp_path).rules] == ["ticket-chatter"]
    (tmp_path / POLICY_FILE).write_text("# prose only\n")
    fallback = load_policy(tmp_path)
    assert "no prune-memory-policy block" in fallback.origin
    assert len(fallback.rules) == len(default_policy().rules)


def test_init_writes_the_template_and_refuses_to_overwrite(tmp_path: Path) -> None:
    written = init_policy(tmp_path).path
    assert written == tmp_path / POLICY_FILE
    assert written.read_text() == template_text()
    written.write_text(_policy_doc("version = 1\n" + USER_RULE))
    with pytest.raises(RefusedError, match="--force"):
        init_policy(tmp_path)
    assert "ticket-chatter" in written.read_text()
    init_policy(tmp_path, force=True)
    assert written.read_text() == template_text()


def test_a_forced_init_keeps_the_users_policy_and_can_be_undone(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / POLICY_FILE).write_text(_policy_doc("version = 1\n" + USER_RULE))
    mine = (memory / POLICY_FILE).read_bytes()
    replaced = init_policy(memory, force=True, now=datetime(2026, 11, 29, 12, tzinfo=UTC))
    assert replaced.snapshot is not None and replaced.undo == "20261129T120000Z"  # its id
    assert (replaced.snapshot.parent / POLICY_FILE).read_bytes() == mine
    assert [r.command for r in records(memory)] == ["filters init --force"]
    undo_passes(memory, "last", now=datetime(2026, 11, 29, 13, tzinfo=UTC))
    assert (memory / POLICY_FILE).read_bytes() == mine


def test_init_needs_an_existing_directory(tmp_path: Path) -> None:
    with pytest.raises(BadInputError):
        init_policy(tmp_path / "missing")
