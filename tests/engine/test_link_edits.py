"""A withdrawal unlinks `[[name]]` in kept memories, and its restore links them again."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_memory.engine.links import (
    LinkEdit,
    LinkIndex,
    markdown_pattern,
    plan_link_edits,
    revert_edit,
    wiki_pattern,
)
from prune_memory.engine.restore import restore
from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.session import recover
from prune_memory.engine.withdraw import withdraw, withdraw_many
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import topic, write_tree
from tests.faults import survives

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
HUB = "See [[auth]] and [[ci|the CI notes]], then [[auth#tokens]] again.\n"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": "# M\n- [Auth](project_auth.md) — a\n- [CI](project_ci.md) — c\n"
                     "- [Hub](project_hub.md) — h\n",
        "project_auth.md": topic("auth", "JWT in cookies"),
        "project_ci.md": topic("ci", "Jenkins"),
        "project_hub.md": topic("hub", HUB),
    })


def test_each_withdrawal_unlinks_its_own_links_and_its_restore_puts_them_back(
        memory: Path) -> None:
    hub = memory / "project_hub.md"
    before = hub.read_bytes()
    done = withdraw_many(memory, [WithdrawRequest("project_auth.md", "x"),
                                        WithdrawRequest("project_ci.md", "y")],
                               snapshot=take_snapshot(memory, NOW), now=NOW)
    text = hub.read_text()
    assert "[[" not in text
    assert "See auth (withdrawn, register 2026-11-29-01) and the CI notes (withdrawn, " \
           "register 2026-11-29-02)" in text
    assert [a.linked for a in done.applied] == [("project_hub.md",), ("project_hub.md",)]
    restore(memory, "2026-11-29-01", now=NOW)  # the older one first: out of order
    text = hub.read_text()
    assert "See [[auth]] and the CI notes (withdrawn" in text and "[[auth#tokens]]" in text
    restore(memory, "2026-11-29-02", now=NOW)
    assert hub.read_bytes() == before


def test_markdown_links_to_a_withdrawn_memory_are_unlinked_and_restored(
        memory: Path) -> None:
    hub = memory / "project_hub.md"
    hub.write_text(topic("hub", "Read [the auth notes](project_auth.md) and "
                                "[tokens](./project_auth.md#tokens); [CI](project_ci.md) "
                                "stays, and so does `[code](project_auth.md)`."))
    before = hub.read_bytes()
    done = withdraw(memory, WithdrawRequest("project_auth.md", "x"),
                          snapshot=take_snapshot(memory, NOW), now=NOW)
    assert [a.linked for a in done.applied] == [("project_hub.md",)]
    text = hub.read_text()
    assert ("Read the auth notes (withdrawn, register 2026-11-29-01) and tokens (withdrawn, "
            "register 2026-11-29-01); [CI](project_ci.md) stays, and so does "
            "`[code](project_auth.md)`.") in text
    restore(memory, "2026-11-29-01", now=NOW)
    assert hub.read_bytes() == before


def test_files_leaving_in_the_same_batch_are_not_edited(memory: Path) -> None:
    before = (memory / "project_hub.md").read_bytes()
    withdraw_many(memory, [WithdrawRequest("project_auth.md", "x"),
                                 WithdrawRequest("project_hub.md", "y")],
                        snapshot=take_snapshot(memory, NOW), now=NOW)
    stone = (memory / "deaccessioned" / "project_hub.md").read_bytes()
    assert stone.endswith(before)


def test_a_file_edited_since_keeps_the_edit_and_gets_its_links_back(memory: Path) -> None:
    withdraw(memory, WithdrawRequest("project_auth.md", "x"),
                   snapshot=take_snapshot(memory, NOW), now=NOW)
    hub = memory / "project_hub.md"
    hub.write_text(hub.read_text() + "A line Claude added.\n")
    restore(memory, "2026-11-29-01", now=NOW)
    text = hub.read_text()
    assert "See [[auth]]" in text and "[[auth#tokens]]" in text
    assert text.endswith("A line Claude added.\n")


def test_the_edit_record_replays_and_reverts_exactly(memory: Path) -> None:
    (edit,) = plan_link_edits(memory, ["auth"], register_id="2026-11-29-07", spare=())
    assert isinstance(LinkEdit.from_json(edit.to_json()), LinkEdit)
    assert edit.links == ("[[auth]]", "[[auth#tokens]]")
    before = (memory / "project_hub.md").read_bytes()
    assert revert_edit(memory, edit) == "unchanged"  # nothing of ours there yet
    assert (memory / "project_hub.md").read_bytes() == before


def test_a_withdrawal_killed_anywhere_leaves_links_and_file_in_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for budget in range(30):
        memory = tmp_path / f"m{budget}"
        write_tree(memory, {"MEMORY.md": "# M\n- [Auth](project_auth.md) — a\n",
                            "project_auth.md": topic("auth", "JWT"),
                            "project_hub.md": topic("hub", HUB)})
        hub = (memory / "project_hub.md").read_bytes()
        snap = take_snapshot(memory, NOW)
        finished = survives(lambda: withdraw(
            memory, WithdrawRequest("project_auth.md", "x"), snapshot=snap, now=NOW),  # noqa: B023
            budget, monkeypatch)
        recover(memory)
        withdrawn = not (memory / "project_auth.md").exists()
        assert (b"[[auth]]" not in (memory / "project_hub.md").read_bytes()) == withdrawn
        if withdrawn:
            restore(memory, "2026-11-29-01", now=NOW)
        assert (memory / "project_hub.md").read_bytes() == hub
        if finished:
            return
    pytest.fail("the withdrawal never finished within 30 file operations")


def test_a_line_appended_while_the_links_are_edited_is_kept(
        memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claude Code takes no lock: a line another session appends to a kept memory while a
    withdrawal unlinks it (or its restore links it again) survives both edits."""
    from prune_memory.store import atomic

    hub = memory / "project_hub.md"
    real = atomic._write_temp
    added = b"- a note written meanwhile\n"

    def append_meanwhile(path: Path, data: bytes) -> Path:
        temp = real(path, data)
        if path == hub:
            with hub.open("ab") as handle:
                handle.write(added)
        return temp

    monkeypatch.setattr(atomic, "_write_temp", append_meanwhile)
    withdraw(memory, WithdrawRequest("project_auth.md", "x"),
                   snapshot=take_snapshot(memory, NOW), now=NOW)
    assert hub.read_bytes().endswith(added) and b"auth (withdrawn" in hub.read_bytes()
    restore(memory, "2026-11-29-01", now=NOW)
    text = hub.read_bytes()
    assert text.count(added) == 2 and b"[[auth]]" in text and b"[[auth#tokens]]" in text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]|#ab \n", max_size=30), st.sampled_from(["a", "b", "a b", "ab"]))
def test_the_link_index_finds_every_file_the_link_pattern_matches(text: str, name: str) -> None:
    pattern = wiki_pattern([name])
    assert pattern is not None
    index = LinkIndex({"kept.md": text.encode()})
    if pattern.search(text):
        assert "kept.md" in index.by_name.get(name, set())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]()#./<>!\"` abmd\n", max_size=40), st.sampled_from(["a.md", "b.md"]))
def test_the_link_index_finds_every_file_a_markdown_link_names(text: str, file: str) -> None:
    pattern = markdown_pattern([file])
    assert pattern is not None
    index = LinkIndex({"kept.md": text.encode()})
    if pattern.search(text):
        assert "kept.md" in index.by_name.get(file, set())


def test_a_link_whose_words_hold_a_secret_is_left_as_it_is(memory: Path) -> None:
    hub = memory / "project_hub.md"
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    hub.write_text(topic("hub", f"[{token}](project_auth.md) and [[auth]]."))
    withdraw(memory, WithdrawRequest("project_auth.md", "x"),
                   snapshot=take_snapshot(memory, NOW), now=NOW)
    assert f"[{token}](project_auth.md) and auth (withdrawn" in hub.read_text()
    stone = (memory / "deaccessioned" / "project_auth.md").read_text()
    assert token not in stone


def test_wiki_links_written_loosely_are_unlinked_when_only_this_memory_answers(
        tmp_path: Path) -> None:
    memory = write_tree(tmp_path / "memory", {
        "MEMORY.md": "# M\n- [G](feedback_gates_pattern.md) — g\n- [A](feedback_auth.md) — a\n"
                     "- [P](project_auth.md) — p\n- [H](project_hub.md) — h\n",
        "feedback_gates_pattern.md": topic("feedback-gates-pattern", "Run the gates."),
        "feedback_auth.md": topic("feedback-auth", "Ask before touching auth."),
        "project_auth.md": topic("project-auth", "JWT in cookies."),
        "project_hub.md": topic("hub", "See [[gates-pattern]], [[Feedback_Gates_Pattern]] "
                                       "and [[auth]]."),
    })
    hub = memory / "project_hub.md"
    before = hub.read_bytes()
    withdraw_many(memory, [WithdrawRequest("feedback_gates_pattern.md", "x"),
                                 WithdrawRequest("feedback_auth.md", "y")],
                        snapshot=take_snapshot(memory, NOW), now=NOW)
    text = hub.read_text()
    assert "See gates-pattern (withdrawn, register 2026-11-29-01), Feedback_Gates_Pattern " \
           "(withdrawn, register 2026-11-29-01) and [[auth]]." in text  # auth: two answer
    restore(memory, "2026-11-29-01", now=NOW)
    assert hub.read_bytes() == before
