"""The read counter: which reads count, where they go, and what inventory makes of them."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from prune_memory.claude.hooks.readhook import record_read, topic_name
from prune_memory.claude.hooks.recall import measured_reads, recall_log
from tests.claude.conftest import post_read, pre_tool_use, run_hook
from tests.conftest import topic, write_tree

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def topics(memory_dir: Path) -> Path:
    write_tree(memory_dir, {
        "MEMORY.md": "# Memory\n- [Auth](project_auth.md) — where auth lives\n"
                     "- [PRs](feedback_prs.md) — PR size\n",
        "project_auth.md": topic("auth", "Auth lives in `api/auth.py`."),
        "feedback_prs.md": topic("prs", "Keep PRs small.", type_="feedback"),
        "pruning-log.md": "# Pruning log\n",
        "deaccessioned/project_old.md": topic("old", "Old."),
        "notes.txt": "not a topic\n",
    })
    return memory_dir


def test_a_topic_read_is_counted_with_the_files_hash(topics: Path) -> None:
    outcome = record_read(post_read(topics / "project_auth.md", session="s-9"), NOW)
    assert outcome == ("project_auth.md", ())
    line = json.loads(recall_log(topics).read_text(encoding="utf-8"))
    digest = hashlib.sha256((topics / "project_auth.md").read_bytes()).hexdigest()
    assert line == {"file": "project_auth.md", "sha256": digest, "session_id": "s-9",
                    "at": "2026-11-29T12:00:00Z"}
    assert not any(p.name == "reads.jsonl" for p in topics.rglob("*"))


def test_a_name_holding_a_secret_is_logged_as_its_digest_and_counted_as_itself(
        topics: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    name = f"reference_{token}.md"
    (topics / name).write_text(topic("ci", "The CI bot."), encoding="utf-8")
    outcome = record_read(post_read(topics / name), NOW)
    logged = recall_log(topics).read_text(encoding="utf-8")
    assert token not in logged and outcome.recorded is not None
    assert outcome.recorded.startswith("masked-name-") and token not in outcome.recorded
    assert measured_reads(topics, NOW)[name].reads == 1


@pytest.mark.parametrize("name", ["MEMORY.md", "pruning-log.md", "deaccessioned/project_old.md",
                                  "notes.txt"])
def test_the_index_own_files_tombstones_and_other_files_are_not_counted(topics: Path,
                                                                         name: str) -> None:
    assert record_read(post_read(topics / name), NOW) == (None, ())
    assert measured_reads(topics, NOW) == {}


def test_reads_outside_memory_and_other_tools_are_ignored(tmp_path: Path, topics: Path) -> None:
    elsewhere = write_tree(tmp_path / "repo", {"a.md": "x"})
    assert record_read(post_read(elsewhere / "a.md"), NOW) == (None, ())
    grep = pre_tool_use("Grep", {"pattern": "auth", "path": str(topics)})
    assert record_read(grep, NOW) == (None, ())


def test_bad_input_counts_nothing_and_says_why(topics: Path) -> None:
    outcome = record_read(b"{oops", NOW)
    assert outcome.recorded is None and "bad payload" in outcome.problems[0]


def test_a_symlinked_topic_is_not_followed(tmp_path: Path, topics: Path) -> None:
    (tmp_path / "elsewhere.md").write_text("x")
    (topics / "project_link.md").symlink_to(tmp_path / "elsewhere.md")
    outcome = record_read(post_read(topics / "project_link.md"), NOW)
    assert outcome.recorded is None
    assert outcome.problems == ()  # it resolves outside memory, so it is not a memory read


def test_topic_name_is_top_level_markdown_only(memory_dir: Path) -> None:
    root = str(memory_dir)
    assert topic_name(str(memory_dir / "a.md"), root) == "a.md"
    assert topic_name(str(memory_dir / "sub" / "a.md"), root) is None
    assert topic_name(str(memory_dir / "retention-policy.md"), root) is None


def test_three_hook_reads_show_as_measured_in_inventory(topics: Path) -> None:
    """Acceptance: simulated PostToolUse reads, then `inventory --json` reports them."""
    for session in ("s-1", "s-2", "s-2"):
        done = run_hook("record-read", stdin=post_read(topics / "project_auth.md",
                                                       session=session))
        assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
    inventory = subprocess.run(
        [sys.executable, "-m", "prune_memory", "inventory", str(topics), "--json"],
        capture_output=True, text=True, check=True)
    access = {row["file"]: row["access"] for row in json.loads(inventory.stdout)["entries"]}
    assert access["project_auth.md"]["reads"] == 3
    assert access["project_auth.md"]["measured"] is True
    assert access["project_auth.md"]["label"].startswith("measured: read 3 times in 2 sessions")
    assert access["feedback_prs.md"]["reads"] is None
    assert access["feedback_prs.md"]["measured"] is False
    assert access["feedback_prs.md"]["label"].startswith("estimate")
