from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import jsonschema
import pytest

from prune_memory.model import Action, Finding, FindingCode, MemoryClass
from prune_memory.plan import SCHEMA, Inoculation, Plan, PlanEntry

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "references" / "plan.schema.json"


def sample() -> Plan:
    entry = PlanEntry(
        file="project_auth.md", name="auth", memory_type="project", cls=MemoryClass.PROJECT,
        signal="type: project", protected=False, fidelity="failed",
        access={"reads": None, "measured": False, "label": "estimate"},
        findings=(Finding(FindingCode.PATH_DRIFT, "renamed", {"commit": "b0d46e1"}),),
        action=Action.WITHDRAW_INOCULATE, rule="5i-abandoned-strategy", sha256="a" * 64,
        inoculation=Inoculation("p", "e", "r", "d", period="q", slug="s"))
    return Plan(memory_dir="/m", repo=None, now=dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC),
                index={"path": "MEMORY.md", "lines": 1, "chars": 10, "line_cap": 200,
                       "char_cap": 25000, "usage": 0.005, "binding_cap": "lines",
                       "unloaded": []},
                entries=(entry,), reachability={"dangling": [], "orphaned": [], "degraded": []})


def test_round_trip_and_schema() -> None:
    data = sample().to_json()
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text()))
    assert data["schema"] == SCHEMA and data["now"] == "2026-11-29T12:00:00Z"
    again = Plan.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data


def test_schema_rejects_an_unknown_action() -> None:
    data = sample().to_json()
    data["entries"][0]["action"] = "delete"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text()))


def test_schema_enums_cover_every_model_member() -> None:
    schema = json.loads(SCHEMA_FILE.read_text())
    props = schema["$defs"]["entry"]["properties"]
    assert set(props["action"]["enum"]) == {a.value for a in Action}
    assert set(props["class"]["enum"]) == {c.value for c in MemoryClass}
    codes = schema["$defs"]["finding"]["properties"]["code"]["enum"]
    assert set(codes) == {c.value for c in FindingCode}


def test_other_schemas_are_refused() -> None:
    with pytest.raises(ValueError, match="plan@1"):
        Plan.from_json({"schema": "something/else"})
