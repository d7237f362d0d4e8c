"""The whole read-only pass on the bundled demo: the plan schema and the contract of
fixtures/demo-expected.json (codes, actions, rules, related files, proposed texts, the
index, the protected list and the scan), never the exact wording of a message."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import jsonschema
import pytest

from prune_memory.plan import Plan
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from tests.conftest import FIXTURES, ROOT

NOW = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)
EXPECTED = json.loads((FIXTURES / "demo-expected.json").read_text())
SCHEMA = json.loads((ROOT / "references" / "plan.schema.json").read_text())
FIXED_MTIME = dt.datetime(2026, 9, 1, tzinfo=dt.UTC).timestamp()


def pin_mtimes(root: Path) -> None:
    """Entries without `modified:` age from their mtime: pin it so the plan is reproducible."""
    for path in root.rglob("*"):
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))


@pytest.fixture
def demo_plan(demo_memory: Path, demo_repo: Path, tmp_path: Path) -> Plan:
    pin_mtimes(demo_memory)
    return build_plan(demo_memory, PassOptions(repo=demo_repo, now=NOW, home=tmp_path / "home"))


def test_plan_validates_against_the_published_schema(demo_plan: Plan) -> None:
    jsonschema.validate(demo_plan.to_json(), SCHEMA)


def test_every_entry_gets_the_expected_codes_action_and_rule(demo_plan: Plan) -> None:
    expected = {e["file"]: e for e in EXPECTED["entries"]}
    assert {e.file for e in demo_plan.entries} == set(expected)
    for entry in demo_plan.entries:
        want = expected[entry.file]
        codes = set(entry.codes)
        assert set(want["findings"]) <= codes, entry.file
        assert codes <= set(want["findings"]) | set(want.get("findings_optional", [])), entry.file
        assert (entry.action.value, entry.rule) == (want["action"], want["rule"]), entry.file
        suggested = entry.suggested_action.value if entry.suggested_action else None
        assert suggested == want["suggested_action"], entry.file
        assert entry.evidence_class == want["evidence_class"], entry.file


def test_clean_entries_are_kept_with_no_findings(demo_plan: Plan) -> None:
    clean = [e["file"] for e in EXPECTED["entries"] if not e["findings"] and not e["protected"]]
    assert len(clean) >= 10
    for file in clean:
        entry = demo_plan.entry(file)
        assert entry is not None and entry.action.value == "keep" and entry.findings == ()


def test_reachability_and_repairs(demo_plan: Plan) -> None:
    reach = demo_plan.reachability
    assert [d["target"] for d in reach["dangling"]] == EXPECTED["reachability"]["dangling"]
    assert [o["file"] for o in reach["orphaned"]] == EXPECTED["reachability"]["orphaned"]
    assert {r["kind"] for r in reach["repairs"]} == {"drop-dangling", "index-orphan"}


def test_no_secret_value_reaches_the_plan(demo_plan: Plan, demo_memory: Path) -> None:
    token = next(w for w in (demo_memory / "reference_ci_bot_token.md").read_text().split()
                 if w.strip("`").startswith("ghp_"))
    assert token.strip("`") not in json.dumps(demo_plan.to_json())


def test_each_entry_names_what_the_contract_says(demo_plan: Plan) -> None:
    """Name, type and protection as loaded; a pair finding names its partner; an update's
    proposed text holds what it must and none of what it must not."""
    entries = {e["file"]: e for e in demo_plan.to_json()["entries"]}
    for want in EXPECTED["entries"]:
        got, file = entries[want["file"]], want["file"]
        if "text" in want:  # a fact written in the index is named by its words
            assert want["text"].startswith(got["name"]) or got["name"] in want["text"], file
        else:
            assert got["name"] == want["name"], file
        assert got["memory_type"] == want["memory_type"], file
        assert got["protected"] is want["protected"], file
        named = set(got.get("related") or ()) | {
            other for finding in got["findings"] for other in finding.get("related") or ()}
        assert set(want.get("related", ())) <= named, file
        text = got.get("proposed_text") or ""
        assert all(part in text for part in want.get("proposed_text_contains", ())), file
        assert not any(part in text for part in want.get("proposed_text_lacks", ())), file
        if want.get("proposed_text_absent"):
            assert not got.get("proposed_text"), file


def test_the_index_the_protected_list_and_the_scan_match_the_contract(demo_plan: Plan) -> None:
    data = demo_plan.to_json()
    index, expected_index = data["index"], EXPECTED["index"]
    assert index["binding_cap"] == expected_index["binding_cap"]
    assert (index["usage"] >= 0.8) is expected_index["near_cap"]
    assert index["unloaded"] == expected_index["unloaded"]
    protected = {e["file"] for e in data["entries"] if e["protected"]}
    assert protected == set(EXPECTED["pruning_log"]["protected"])
    reach, expected_reach = data["reachability"], EXPECTED["reachability"]
    assert [d["target"] for d in reach["degraded"]] == expected_reach["degraded"]
    assert [w["name"] for w in reach["wiki_missing"]] == expected_reach["missing_wiki_links"]
    orphans = sorted(e["file"] for e in EXPECTED["entries"] if e.get("orphan"))
    assert sorted(o["file"] for o in reach["orphaned"]) == orphans


def test_the_summary_counts_the_actions(demo_plan: Plan) -> None:
    data = demo_plan.to_json()
    actions = [e["action"] for e in data["entries"]]
    assert {a: n for a, n in data["summary"].items() if n} == {a: actions.count(a)
                                                            for a in set(actions)}
    assert data["errors"] == []


def test_plan_is_deterministic(demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    pin_mtimes(demo_memory)
    options = PassOptions(repo=demo_repo, now=NOW, home=tmp_path)
    first = build_plan(demo_memory, options).to_json()
    assert build_plan(demo_memory, options).to_json() == first


def test_the_plan_is_the_same_whatever_the_hash_seed(tmp_path: Path) -> None:
    """Two processes with different string hashing write the same plan: nothing the plan
    shows may follow the order of a set (here, which of many renamed files a pattern names
    as its example, and which three it lists)."""
    import subprocess
    import sys

    from tests.evidence.probes.gitbuild import GitRepo

    repo = GitRepo(tmp_path / "repo")
    names = [f"src/algo/{n}-sort.js" for n in ("bubble", "heap", "merge", "quick", "radix",
                                                 "shell", "tim", "comb")]
    repo.write({name: f"export const {n} = 1;\n" for n, name in enumerate(names)}).commit(
        "start", "2026-01-01T12:00:00+00:00")
    for name in names:
        repo.mv(name, name.replace(".js", ".ts"))
    repo.commit("move to TypeScript", "2026-03-01T12:00:00+00:00")
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("- [Sorts](sorts.md) — where the sorts live\n")
    (memory / "sorts.md").write_text(
        "---\nname: sorts\ndescription: where the sorts live\ntype: project\n---\n"
        "Each sort is a module in `src/algo/*-sort.js`.\n")
    plans = []
    for seed in ("1", "2", "3"):
        done = subprocess.run(
            [sys.executable, "-m", "prune_memory", "plan", str(memory), "--repo",
             str(repo.root), "--json", "--now", "2026-12-01T12:00:00Z"],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed,
                 "XDG_STATE_HOME": str(tmp_path / "state")})
        plans.append(done.stdout)
    assert "src/algo/*-sort.js" in plans[0]
    assert plans[0] == plans[1] == plans[2]
