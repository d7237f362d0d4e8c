"""The confirmation names every file a change writes and MEMORY.md's growth near its load
cap; the summary fits one screen (estimates behind --verbose); the log records every flag
the summary names, index lines included."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.cli.proposal_text import confirm_lines
from prune_memory.engine.preview import preview
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.review import Choice, Verdict
from prune_memory.procedure.run_pass import as_changes
from prune_memory.store.pruninglog import read_log
from tests.cli.review_fixture import TOKEN
from tests.conftest import CliResult, topic, write_tree

Cli = Callable[..., CliResult]
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
STAMP = "2026-11-29T12:00:00Z"


def test_the_confirm_names_linked_files_and_index_growth_near_the_cap(tmp_path: Path) -> None:
    facts = "".join(f"- Fact {n}: the {n}th rule of the gateway holds.\n" for n in range(193))
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": f"# Memory\n- [Gone](gone.md) — a note\n{facts}- [Hub](hub.md) — hub\n",
        "gone.md": topic("gone", "A note the hub links."),
        "hub.md": topic("hub", "See [[gone]] for the note."),
        "orphan.md": topic("orphan", "Nobody indexes this one.")})
    plan = build_plan(memory, PassOptions(repo=None, now=NOW))
    repairs = [r for r in plan.reachability["repairs"] if r["kind"] == "index-orphan"]
    assert repairs, plan.reachability
    verdicts = [Verdict("gone.md", Choice.WITHDRAW)]
    shown = preview(memory, NOW, as_changes(plan, verdicts), repairs)
    flat = " ".join(" ".join(confirm_lines(verdicts, repairs, shown, 100)).split())
    assert "withdraw gone.md (and unlinks it in hub.md)" in flat
    assert "Files it writes: gone.md, hub.md, MEMORY.md, pruning-log.md, deaccessioned/ " \
           "(1 tombstone)" in flat
    assert "MEMORY.md grows: 196 → 198 of 200 lines," in flat
    assert "of 25,000 characters, 99% of its load cap — near the load cap" in flat


def _cold_folder(root: Path, count: int) -> Path:
    files: dict[str, str | bytes] = {"MEMORY.md": "# Memory\n" + "".join(
        f"- [Note {n}](note_{n}.md) — note {n}\n" for n in range(count))}
    files.update({f"note_{n}.md": topic(f"note-{n}", f"Word{n} alpha{n} beta{n} gamma{n}.")
                  for n in range(count)})
    write_tree(root, files)
    old = datetime(2024, 1, 1, tzinfo=UTC).timestamp()
    for n in range(count):
        os.utime(root / f"note_{n}.md", (old, old))
    return root


def test_the_summary_fits_one_screen_and_verbose_lists_the_estimates(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = _cold_folder(tmp_path / "memory", 40)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    ran = cli("run", memory, "--yes", "--now", STAMP)
    assert ran.code == 0, ran.err
    summary = ran.out[ran.out.index("Pass summary"):].splitlines()
    assert len(summary) <= 20, "\n".join(summary)
    flat = " ".join(ran.out.split())
    assert "Cold from disuse" not in flat and "--verbose lists them" in flat
    again = cli("run", memory, "--yes", "--verbose", "--now", STAMP)
    assert again.out.count("Cold from ") == 40  # disuse or irrelevance, each named


def test_the_log_records_a_flag_on_a_fact_in_the_index(cli: Cli, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": f"# Memory\n- [A](a.md) — a\n- The webhook posts with {TOKEN} today.\n",
        "a.md": topic("a", "A fact.")})
    ran = cli("run", memory, "--yes", "--now", STAMP)
    assert ran.code == 0 and "flagged" in ran.out and "MEMORY.md#L3" in ran.out
    rows = {c.entry: c for c in read_log(memory).changes}
    assert rows["`MEMORY.md#L3`"].change == "flagged"
    assert TOKEN not in (memory / "pruning-log.md").read_text()
