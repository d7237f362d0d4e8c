"""The whole read-only pass on the bundled demo: schema, planted problems, golden plan."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from prune_memory.plan import Plan
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from tests.conftest import FIXTURES, ROOT

NOW = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)
EXPECTED = json.loads((FIXTURES / "demo-expected.json").read_text())
GOLDEN = ROOT / "tests" / "golden" / "demo-plan.json"
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


def normalised(plan: Plan) -> dict[str, Any]:
    data = plan.to_json()
    data["memory_dir"], data["repo"] = "<memory>", "<repo>"
    return data


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


def test_golden_plan(demo_plan: Plan) -> None:
    """The whole plan, pinned. Regenerate with UPDATE_GOLDEN=1 after a deliberate change."""
    data = normalised(demo_plan)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    assert data == json.loads(GOLDEN.read_text())


def test_plan_is_deterministic(demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    pin_mtimes(demo_memory)
    options = PassOptions(repo=demo_repo, now=NOW, home=tmp_path)
    first = build_plan(demo_memory, options).to_json()
    assert build_plan(demo_memory, options).to_json() == first
