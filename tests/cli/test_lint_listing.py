"""The suggestion listing of `lint --suggest`: ranked by noise, with a score floor and a
window, and flags (secrets, personal data) always listed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult

Cli = Callable[..., CliResult]
NOW = ("--now", "2026-05-01T00:00:00Z")
GITHUB = "ghp_" + "Zx81Qw72Er63Ty54Ui45Op36As27Df18Gh09"


def _store(tmp_path: Path) -> Path:
    rows = [
        ("calm", "Release notes are drafted on Fridays.", {}),
        ("pip", "Collecting httpx\nSuccessfully installed httpx-0.27.0", {}),
        ("beat", "tick\ntock", {}),
        ("meh", "The team mascot is a heron.", {"importance": 0.05}),
        ("leak", f"CI pushes with {GITHUB}", {}),
        ("ok", "ok", {}),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps({"id": rid, "text": text, "created": "2026-04-20",
                                        "source": "t", **extra}) + "\n"
                            for rid, text, extra in rows), encoding="utf-8")
    return path


def _listed(cli: Cli, store: Path, *extra: str) -> list[tuple[str, str]]:
    result = cli("lint", store, "--suggest", "--json", *NOW, *extra)
    return [(s["item"], s["suggest"]) for s in json.loads(result.out)["suggestions"]]


def test_ranked_flags_first_then_by_score(cli: Cli, tmp_path: Path) -> None:
    assert _listed(cli, _store(tmp_path)) == [
        ("leak", "flag"), ("pip", "withdraw"), ("beat", "withdraw"), ("ok", "archive"),
        ("meh", "archive")]


def test_min_score_never_hides_a_flag(cli: Cli, tmp_path: Path) -> None:
    assert _listed(cli, _store(tmp_path), "--min-score", "0.9") == [("leak", "flag")]
    assert _listed(cli, _store(tmp_path), "--min-score", "0.6") == [
        ("leak", "flag"), ("pip", "withdraw"), ("beat", "withdraw"), ("ok", "archive")]


def test_limit_and_offset_window_the_listing(cli: Cli, tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert _listed(cli, store, "--limit", "2") == [("leak", "flag"), ("pip", "withdraw")]
    assert _listed(cli, store, "--limit", "2", "--offset", "2") == [
        ("beat", "withdraw"), ("ok", "archive")]
    text = cli("lint", store, "--suggest", "--limit", "1", *NOW).out
    assert "4 more not listed" in text and GITHUB not in text
