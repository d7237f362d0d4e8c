"""The post-rename sweep: every mention of OLD, with the text it would become."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.analysis.renames import RenameRule, parse_rename, rewrite, sweep, variants
from prune_memory.errors import BadInputError
from prune_memory.model import MemoryDir
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree

INDEX = ("# Memory\n- [Auth](project_auth.md) — how auth-service signs cookies\n"
         "- The auth_service deploys on Fridays.\n- [Other](other.md) — unrelated\n")


@pytest.fixture
def memory(tmp_path: Path) -> MemoryDir:
    write_tree(tmp_path / "mem", {
        "MEMORY.md": INDEX,
        "project_auth.md": topic("auth", "Code is in `services/auth-service/main.py`.\n"
                                 "Env var AUTH_SERVICE (not AUTH_SERVICE_URL) points at "
                                 "auth.service.local.\n"
                                 "Not to be confused with auth-services or reauth-service.\n",
                                 description="The auth-service"),
        "other.md": topic("other", "Nothing to see; Auth-Service in capitals.\n"),
    })
    return load_memory_dir(tmp_path / "mem")


def test_every_mention_including_index_lines_and_variants(memory: MemoryDir) -> None:
    report = sweep(memory, [RenameRule("auth-service", "session-service")])
    where = [(h.file, h.where, h.found) for h in report.hits]
    assert where == [
        ("MEMORY.md#L2", "MEMORY.md line 2", "auth-service"),
        ("MEMORY.md#L3", "MEMORY.md line 3", "auth_service"),
        ("project_auth.md", "description", "auth-service"),
        ("project_auth.md", "body line 1", "auth-service"),
        ("project_auth.md", "body line 2", "auth.service"),
    ]
    assert report.hits[1].proposed_line == "- The session_service deploys on Fridays."
    assert report.proposed_text["project_auth.md"].startswith(
        "Code is in `services/session-service/main.py`.\nEnv var AUTH_SERVICE (not "
        "AUTH_SERVICE_URL) points at session.service.local.")
    assert report.proposed_description["project_auth.md"] == "The session-service"


def test_ignore_case_keeps_the_case_style(memory: MemoryDir) -> None:
    report = sweep(memory, [RenameRule("auth-service", "session-service")], ignore_case=True)
    found = {h.found: h.replacement for h in report.hits}
    assert found["AUTH_SERVICE"] == "SESSION_SERVICE"
    assert "SESSION_SERVICE (not AUTH_SERVICE_URL)" in report.proposed_text["project_auth.md"]
    assert found["Auth-Service"] == "Session-service"
    assert "other.md" in report.files


def test_several_renames_and_paths(memory: MemoryDir) -> None:
    rules = [parse_rename("services/auth-service=services/session"),
             parse_rename("Friday=Monday")]
    report = sweep(memory, rules)
    assert [h.found for h in report.hits] == ["services/auth-service"]
    assert report.to_json()["total_hits"] == 1


def test_nothing_found_is_an_empty_report(memory: MemoryDir) -> None:
    report = sweep(memory, [RenameRule("pebble", "cairn")])
    assert report.hits == () and report.to_json()["entries"] == []


@pytest.mark.parametrize("spec", ["old", "=new", "old=", "same=same"])
def test_bad_rename_specs(spec: str) -> None:
    with pytest.raises(BadInputError):
        parse_rename(spec)


def test_variants_and_rewrite() -> None:
    assert variants("a-b.c") == ["a-b.c", "a-b-c", "a_b_c", "a.b.c"]
    assert variants("src/a-b") == ["src/a-b"] and variants("pebble") == ["pebble"]
    rule = RenameRule("a-b", "c_d")
    assert rewrite("a-b", rule, False) == "c_d"  # the exact form keeps NEW as typed
    assert rewrite("a.b", rule, False) == "c.d"
