"""Persistent flags: a flagged entry stays flagged across passes until a person clears it,
and every proposal a pass leaves in place gets a `kept` row in the pruning log."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from prune_memory.store.pruninglog import flagged_items, read_log
from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
NOW = ("--now", "2026-06-01T12:00:00Z")
LATER = ("--now", "2026-06-08T12:00:00Z")
STAMP = "modified: 2026-05-20T00:00:00Z\n"
TOKEN = "xoxb-" + "5511223344-6677889900-" + "Qa1Ws2Ed3Rf4Tg5Yh6Uj7Ik8"


def _memory(tmp_path: Path) -> Path:
    files = {
        "deploy.md": topic("deploy", f"The release bot posts with {TOKEN} to #ship.",
                           extra=STAMP),
        "chatter.md": topic("chatter", "tick\ntock", extra=STAMP),
        "review_a.md": topic("review_a", "Staging deploys need two approvals from the "
                             "platform team before noon.", extra=STAMP),
        "review_b.md": topic("review_b", "Staging deploys need two approvals from the "
                             "platform team before noon on Fridays.", extra=STAMP),
    }
    index = "# Memory\n" + "".join(f"- [{n}]({n}) — hook\n" for n in files)
    return write_tree(tmp_path / "memory", {"MEMORY.md": index, **files})


def _plan(cli: Cli, root: Path, *when: str) -> dict[str, tuple[str, str | None]]:
    result = cli("plan", root, "--json", *(when or NOW))
    return {e["file"]: (e["action"], e["rule"]) for e in json.loads(result.out)["entries"]}


def _run(cli: Cli, root: Path, tmp_path: Path, *when: str) -> None:
    result = cli("run", root, "--yes", "--snapshot-dir", tmp_path / "snaps", *(when or NOW))
    assert result.code == 0, result.err


def test_a_pass_lists_its_flags_and_later_passes_keep_them(cli: Cli, tmp_path: Path) -> None:
    root = _memory(tmp_path)
    _run(cli, root, tmp_path)
    listed = flagged_items(read_log(root).text)
    assert set(listed) == {"deploy.md"} and listed["deploy.md"].since == "2026-06-01"
    assert TOKEN not in (root / "pruning-log.md").read_text()
    # Someone removes the token by hand; the flag stays until a person clears it.
    (root / "deploy.md").write_text(topic("deploy", "The release bot posts to #ship.",
                                          extra=STAMP))
    assert _plan(cli, root, *LATER)["deploy.md"] == ("flag", "flagged")
    cleared = cli("unflag", "deploy.md", "--memory-dir", root, "--reason", "token rotated",
                  *LATER)
    assert cleared.code == 0, cleared.err
    assert _plan(cli, root, *LATER)["deploy.md"] == ("keep", None)
    changes = [(c.change, c.entry) for c in read_log(root).changes]
    assert ("unflagged", "`deploy.md`") in changes


def test_a_person_can_flag_and_nothing_is_applied_to_it(cli: Cli, tmp_path: Path) -> None:
    root = _memory(tmp_path)
    assert _plan(cli, root)["chatter.md"] == ("review", "1-ephemeral")
    assert cli("flag", root / "chatter.md", "--reason", "ask Dana first", *NOW).code == 0
    assert _plan(cli, root)["chatter.md"] == ("flag", "flagged")
    _run(cli, root, tmp_path)
    assert (root / "chatter.md").exists()
    assert cli("flag", root / "chatter.md", "--reason", "again", *NOW).code == 2
    assert cli("unflag", root / "review_a.md", "--reason", "x", *NOW).code == 2


def test_proposals_left_in_place_are_logged_as_skipped_or_flagged(cli: Cli,
                                                                   tmp_path: Path) -> None:
    """`--yes` leaves them for a later pass: `skipped`, never `kept` (a person keeps), and a
    secret's row says it is flagged."""
    root = _memory(tmp_path)
    _run(cli, root, tmp_path)
    rows = {c.entry: (c.change, c.reason) for c in read_log(root).changes
            if c.change in ("kept", "skipped", "flagged")}
    assert set(rows) == {"`chatter.md`", "`deploy.md`", "`review_a.md`", "`review_b.md`"}
    assert rows["`deploy.md`"][0] == "flagged" and "secret" in rows["`deploy.md`"][1]
    assert rows["`review_a.md`"] == ("skipped", rows["`review_a.md`"][1])
    assert rows["`review_a.md`"][1].startswith("skipped (left for a later pass): proposed")
    # session chatter is a suggestion held for a person: left in place, with its kept row
    assert (root / "chatter.md").exists()
