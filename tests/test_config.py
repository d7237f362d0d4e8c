"""config: the user's count rules, where the file is looked for, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import CONFIG_FILE, glob_regex, load_config, parse_config
from prune_memory.errors import BadInputError

RULE = '[[count]]\nname = "domains"\npattern = "across (\\\\d+) domains"\nglob = "skills/*/"\n'


def test_count_rules_parse() -> None:
    (rule,) = parse_config(RULE).count_rules
    assert rule.name == "domains" and rule.counts_directories
    assert rule.pattern.search("across 55 domains") is not None
    assert rule.matches("skills/ops") and not rule.matches("skills/ops/deep")


def test_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert load_config(None, tmp_path).count_rules == ()
    user = tmp_path / "xdg" / "prune-memory" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text(RULE.replace("domains\"\n", "user\"\n", 1))
    assert load_config(None, tmp_path).source == user
    (tmp_path / CONFIG_FILE).write_text(RULE)
    assert load_config(None, tmp_path).source == tmp_path / CONFIG_FILE
    explicit = tmp_path / "other.toml"
    explicit.write_text("")
    assert load_config(explicit, tmp_path).source == explicit


@pytest.mark.parametrize(("text", "says"), [
    ("[[count", "not valid TOML"), ("count = 3", "array of tables"),
    ('[[count]]\npattern = "x"\n', "needs string"),
    ('[[count]]\npattern = "(\\\\d+"\nglob = "*"\n', "not a valid regular expression"),
    ('[[count]]\npattern = "\\\\d+ x"\nglob = "*"\n', "needs a group"),
    ('[[count]]\npattern = "(\\\\d+)"\nglob = "*"\ntypo = 1\n', "unknown key(s) typo"),
])
def test_mistakes_are_bad_input(text: str, says: str) -> None:
    with pytest.raises(BadInputError, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse_config(text)


def test_missing_explicit_file(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="no such file"):
        load_config(tmp_path / "nope.toml")


def test_glob_semantics() -> None:
    assert glob_regex("**/SKILL.md").fullmatch("a/b/SKILL.md")
    assert glob_regex("**/SKILL.md").fullmatch("SKILL.md")
    assert not glob_regex("src/*.py").fullmatch("src/a/b.py")
