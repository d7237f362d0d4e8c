"""`lint` and `filters init` through the real command line: exit codes and no leaked secret."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.model import POLICY_FILE
from tests.conftest import CliResult, topic, write_tree
from tests.secrets.corpus import secrets

Cli = Callable[..., CliResult]
NOW = ("--now", "2026-11-29T00:00:00Z")
RECENT = "modified: 2026-11-01T10:00:00Z\nsource: session 2026-11-01\n"
SLACK = "xoxb-" + "1234567890-0987654321-" + "aB3dE5gH7jK9mN1pQ3sT5vW7"


def _memory(root: Path, bodies: dict[str, tuple[str, str]]) -> Path:
    files = {name: topic(name.removesuffix(".md"), body, extra=extra)
             for name, (body, extra) in bodies.items()}
    index = "# Memory\n" + "".join(f"- [{n}]({n}) — hook\n" for n in files)
    return write_tree(root, {"MEMORY.md": index, **files})


HEALTHY = {"a.md": ("Builds use make.", RECENT), "b.md": ("Tests use pytest.", RECENT)}
BROKEN: dict[str, dict[str, tuple[str, str]]] = {
    "secret": {"a.md": (f"Bot token {SLACK}", RECENT)},
    "no-provenance": {"a.md": ("Builds use make.", "modified: 2026-11-01T10:00:00Z\n")},
    "poison": {"a.md": ("Limits are 10 rps.", RECENT + "trust: untrusted\n")},
    "duplicate": {"a.md": ("Builds use make.", RECENT), "b.md": ("builds use MAKE", RECENT)},
}


def test_healthy_directory_exits_0(cli: Cli, tmp_path: Path) -> None:
    result = cli("lint", _memory(tmp_path / "m", HEALTHY), "--require-source", *NOW)
    assert result.code == 0, result.out + result.err
    assert "clean" in result.out


@pytest.mark.parametrize("check", sorted(BROKEN))
def test_each_violation_exits_1(cli: Cli, tmp_path: Path, check: str) -> None:
    result = cli("lint", _memory(tmp_path / "m", BROKEN[check]), "--require-source", "--json",
                 *NOW)
    assert result.code == 1, result.err
    data = json.loads(result.out)
    assert [v["check"] for v in data["violations"]] == [check]


def test_a_memory_directory_is_never_called_stale_by_age(cli: Cli, tmp_path: Path) -> None:
    """The plan says age never decides; the lint said every feedback rule was stale (Claude
    Code writes no date, and an old one is no evidence either)."""
    old = {"feedback_a.md": ("Always run the tests before a push.", "source: s\n"),
           "feedback_b.md": ("Squash merges only.", "modified: 2023-02-01T00:00:00Z\n"
                                                    "source: s\n")}
    result = cli("lint", _memory(tmp_path / "m", old), "--json", *NOW)
    assert result.code == 0, result.out
    assert json.loads(result.out)["counts"]["stale"] == 0


def test_over_cap_exits_1(cli: Cli, tmp_path: Path) -> None:
    root = _memory(tmp_path / "m", HEALTHY)
    assert cli("lint", root, "--max-entries", "2", *NOW).code == 0
    result = cli("lint", root, "--max-entries", "1", "--json", *NOW)
    assert result.code == 1 and json.loads(result.out)["counts"]["over-cap"] == 1


def test_missing_store_exits_2(cli: Cli, tmp_path: Path) -> None:
    assert cli("lint", tmp_path / "nowhere").code == 2
    result = cli("lint", tmp_path / "nowhere.jsonl")
    assert result.code == 2 and "not found" in result.err


def test_unreadable_store_exits_2(cli: Cli, tmp_path: Path) -> None:
    store = tmp_path / "broken.json"
    store.write_text('[{"id": "a", "text": "x", "created_at": "2026-01-01"},\n{not json\n')
    assert cli("lint", store).code == 2
    lines = tmp_path / "garbage.jsonl"
    lines.write_text("{not json\nnor this\n")  # not one record to lint
    assert cli("lint", lines).code == 2


def test_a_jsonl_line_that_is_no_json_is_one_violation(cli: Cli, tmp_path: Path) -> None:
    # Each line of a JSONL store is its own record: one broken line is a record that cannot
    # be used, and the lint carries on with the others.
    store = tmp_path / "s.jsonl"
    store.write_text('{"id": "a", "text": "x", "created_at": "2026-11-20", "source": "r"}\n'
                     '{not json\n'
                     '{"id": "b", "text": "api key sk-' + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4" + '", '
                     '"created_at": "2026-11-20", "source": "r"}\n')
    result = cli("lint", store, "--json", *NOW)
    assert result.code == 1
    found = json.loads(result.out)["violations"]
    assert any("line 2 is not JSON" in v["message"] for v in found)
    assert any(v["check"] == "secret" for v in found)  # the records after it were read


def test_store_exit_codes(cli: Cli, tmp_path: Path) -> None:
    store = tmp_path / "s.jsonl"
    store.write_text(json.dumps({"id": "a", "text": "Deploys are blue-green.",
                                 "created_at": "2026-11-20", "source": "run-7"}) + "\n")
    assert cli("lint", store, "--require-source", *NOW).code == 0
    assert cli("lint", store, "--max-age-days", "3", *NOW).code == 1


def test_suggest_in_both_outputs(cli: Cli, tmp_path: Path) -> None:
    root = _memory(tmp_path / "m", {**HEALTHY, "pip.md": (
        "Collecting rich\nSuccessfully installed rich-13.7.1", RECENT)})
    human = cli("lint", root, "--suggest", *NOW)
    assert human.code == 0 and "withdraw  pip.md" in human.out
    data = json.loads(cli("lint", root, "--suggest", "--json", *NOW).out)
    assert data["suggestions"][0]["item"] == "pip.md"
    assert "suggestions" not in json.loads(cli("lint", root, "--json", *NOW).out)


def test_no_secret_value_in_any_output(cli: Cli, tmp_path: Path) -> None:
    samples = secrets()
    files = {f"s{i:02d}.md": (s.text, RECENT) for i, s in enumerate(samples)}
    root = _memory(tmp_path / "m", files)
    store = tmp_path / "corpus.jsonl"
    rows = [{"id": f"s{i}", "text": s.text, "created_at": "2026-11-01", "source": s.text}
            for i, s in enumerate(samples)]
    store.write_text("".join(json.dumps(row) + "\n" for row in rows))
    flag_sets = ((), ("--json",), ("--suggest",), ("--suggest", "--json", "--require-source"))
    runs = [cli("lint", target, *flags, *NOW) for target in (root, store) for flags in flag_sets]
    assert all(run.code == 1 for run in runs)
    printed = "\n".join(run.out + run.err for run in runs)
    assert printed.count("secret") >= len(samples)
    assert [s.kind for s in samples if s.value in printed] == []


def test_filters_init_writes_then_refuses(cli: Cli, tmp_path: Path) -> None:
    root = _memory(tmp_path / "m", HEALTHY)
    first = cli("filters", "init", root)
    assert first.code == 0 and (root / POLICY_FILE).is_file()
    (root / POLICY_FILE).write_text("mine")
    again = cli("filters", "init", root)
    assert again.code == 4 and "--force" in again.err
    assert (root / POLICY_FILE).read_text() == "mine"
    assert cli("filters", "init", root, "--force").code == 0
    assert (root / POLICY_FILE).read_text() != "mine"


def test_filters_init_needs_the_directory(cli: Cli, tmp_path: Path) -> None:
    assert cli("filters", "init", tmp_path / "absent").code == 2


def test_policy_file_is_not_linted_as_a_memory(cli: Cli, tmp_path: Path) -> None:
    root = _memory(tmp_path / "m", HEALTHY)
    assert cli("filters", "init", root).code == 0
    assert cli("lint", root, "--require-source", *NOW).code == 0
