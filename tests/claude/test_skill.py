"""The Claude Code skill: where it goes, what it says, and that reinstalling is safe."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import yaml

from prune_memory.claude.settings import Scope
from prune_memory.claude.skill import install_skill, skill_file
from prune_memory.procedure import rules as rules_module
from prune_memory.resources import read_template

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


def test_the_skill_goes_under_the_claude_home_or_the_project(claude_home: Path,
                                                             tmp_path: Path) -> None:
    assert skill_file(Scope.USER, tmp_path) == claude_home / "skills/prune-memory/SKILL.md"
    assert skill_file(Scope.PROJECT, tmp_path) == tmp_path / ".claude/skills/prune-memory/SKILL.md"


def test_install_writes_the_template_once_and_backs_up_a_changed_copy(tmp_path: Path) -> None:
    path = tmp_path / "skills" / "prune-memory" / "SKILL.md"
    first = install_skill(path, NOW)
    assert first.changed and first.backup is None
    assert path.read_text(encoding="utf-8") == read_template("SKILL.md")
    assert not install_skill(path, NOW).changed
    path.write_text("my own notes\n", encoding="utf-8")
    third = install_skill(path, NOW)
    assert third.changed and third.backup is not None
    assert third.backup.read_text(encoding="utf-8") == "my own notes\n"


def test_the_skill_has_frontmatter_claude_code_reads() -> None:
    text = read_template("SKILL.md")
    meta = yaml.safe_load(text.split("---")[1])
    assert meta["name"] == "prune-memory"
    assert "prune" in meta["description"] and len(meta["description"]) < 1024
    assert "Bash(prune-memory plan:*)" in meta["allowed-tools"]
    assert "withdraw" not in meta["allowed-tools"]  # writes always ask the user


def test_the_skill_names_every_command_the_review_needs() -> None:
    text = read_template("SKILL.md")
    for command in ("prune-memory plan --json", "prune-memory run DIR",
                    "prune-memory withdraw FILE", "prune-memory inoculate FILE",
                    "prune-memory protect FILE", "prune-memory restore REGISTER_ID",
                    "prune-memory scan DIR", "--pattern", "--evidence", "--reason",
                    "--do-not-rederive", "--withdraw", "--expect-sha256"):
        assert command in text, command


def test_the_skill_names_every_rule_the_decision_tree_can_choose() -> None:
    """A rule the skill never names is a group of proposals Claude would not walk."""
    source = Path(rules_module.__file__).read_text(encoding="utf-8")
    chosen = set(re.findall(r'Decision\(Action\.[A-Z_]+, "([^"]+)"', source)) - {"0-protected"}
    assert len(chosen) > 10
    text = read_template("SKILL.md")
    assert [rule for rule in sorted(chosen) if f"`{rule}`" not in text] == []


def test_the_skill_walks_the_rules_in_the_procedures_order() -> None:
    text = read_template("SKILL.md")
    rules = ["1-ephemeral", "1-never-persist", "3-duplicate", "3-compression-loss",
             "4-stale-known-correction", "4-stale-claim", "4-stale-subject-gone",
             "5i-abandoned-strategy", "5i-overridden-decision", "6-completed-work",
             "6-plan-built", "7-public-reference", "7-low-importance", "secret",
             "near-duplicate", "contradiction", "poison"]
    positions = [text.index(f"`{rule}`") for rule in rules]
    assert positions == sorted(positions)
    assert "`suggested_action`" in text
    assert re.search(r"[Nn]ever edit, move or delete files in the memory directory", text)
