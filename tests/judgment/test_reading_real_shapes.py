"""Real folders load as Claude Code reads them: no real file rejected, no command stopped."""

from __future__ import annotations

from pathlib import Path

from prune_memory.model import Action
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from tests.conftest import write_tree
from tests.evidence.probes.gitbuild import GitRepo
from tests.judgment.conftest import NOW, Planner, entry_of
from tests.procedure.test_pipeline import pin_mtimes


def test_an_unquoted_colon_in_a_description_is_read_not_rejected(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "- [Deploy](deploy.md) — how\n",
        "deploy.md": "---\nname: Deploy — steps\ndescription: Rule: never deploy on Friday\n"
                     "type: feedback\n---\nAsk first.\n"})
    memdir = load_memory_dir(root)
    assert memdir.errors == ()
    (deploy,) = memdir.topics
    assert deploy.description == "Rule: never deploy on Friday"
    assert deploy.memory_type == "feedback"


def test_nested_metadata_with_a_trailing_space_and_session_ids(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "- [Queue](queue.md)\n",
        "queue.md": "---\nname: queue-notes\ndescription: \"how jobs are claimed\"\n"
                    "metadata: \n  node_type: memory\n  type: reference\n"
                    "  originSessionId: 0000-1111\n---\nJobs are claimed in order.\n"})
    (queue,) = load_memory_dir(root).topics
    assert queue.memory_type == "reference" and queue.name == "queue-notes"


def test_a_file_without_frontmatter_and_a_name_unlike_its_file(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "- [Plain](plain-notes.md)\n- [Named](named.md)\n",
        "plain-notes.md": "Just a line of notes, no header at all.\n",
        "named.md": "---\nname: Release Checklist Notes\ndescription: x\ntype: project\n---\n"
                    "See [[plain-notes]] and [[Release Checklist Notes]].\n"})
    memdir = load_memory_dir(root)
    assert memdir.errors == ()
    assert {e.file for e in memdir.topics} == {"plain-notes.md", "named.md"}
    assert scan(memdir).wiki_missing == ()  # by file name and by `name`, both resolve


def test_an_inline_knowledge_base_index_with_sub_bullets(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {"MEMORY.md": (
        "# Notes\n\n"
        "Service overview in one paragraph line.\n\n"
        "- **Build**: run the release script from the repo root\n"
        "  - it needs the signing key loaded first\n"
        "  - and a clean tree\n"
        "- [Topic](topic.md) — a pointer\n"
        "  - a detail that travels with the pointer\n\n"
        "| host | role |\n|---|---|\n| alpha | cache |\n"),
        "topic.md": "---\nname: topic\ndescription: t\ntype: project\n---\nBody.\n"})
    facts = {e.file: e for e in load_memory_dir(root).entries if e.file.startswith("MEMORY")}
    # each sub-bullet is a fact of its own, as Claude Code reads each line; the pointer's
    # detail travels with the pointer
    assert set(facts) == {"MEMORY.md#L3", "MEMORY.md#L5", "MEMORY.md#L6", "MEMORY.md#L7",
                          "MEMORY.md#L13"}
    assert facts["MEMORY.md#L5"].index_lines == (5,)
    assert facts["MEMORY.md#L6"].body == "it needs the signing key loaded first"
    assert facts["MEMORY.md#L13"].body == "alpha | cache"


def test_a_pointer_leaving_the_folder_is_a_finding_on_its_line(planner: Planner,
                                                               repo: GitRepo) -> None:
    repo.write({"README.md": "x\n"}).commit("start")
    plan = planner({"MEMORY.md": "- [Red lines](../project/RULES.md) — the four rules\n"})
    assert plan.errors == ()
    assert [(o["line"], o["target"]) for o in plan.reachability["outside"]] == [
        (1, "../project/RULES.md")]


def test_example_link_syntax_in_code_is_not_a_link(planner: Planner, repo: GitRepo) -> None:
    repo.write({"README.md": "x\n"}).commit("start")
    body = ("Index lines look like `- [Title](file.md) — hook`, and links like `[[name]]`.\n\n"
            "```\n- [Example](example.md)\n```\n")
    plan = planner({"format.md": "---\nname: format\ndescription: index format\n"
                                 f"type: reference\n---\n{body}"})
    assert plan.reachability["dangling"] == [] and plan.reachability["wiki_missing"] == []
    assert entry_of(plan, "format.md").action is Action.KEEP


def test_a_cr_only_index_is_read_line_by_line(tmp_path: Path) -> None:
    """Old editors end lines with CR alone; each line is still its own fact or pointer."""
    root = tmp_path / "m"
    root.mkdir()
    (root / "MEMORY.md").write_bytes(b"# Notes\r- [Topic](topic.md) - t\r- a fact line\r")
    (root / "topic.md").write_text("---\nname: topic\ndescription: t\ntype: project\n---\nx\n")
    memdir = load_memory_dir(root)
    assert [e.file for e in memdir.entries] == ["topic.md", "MEMORY.md#L3"]
    assert memdir.topics[0].index_lines == (2,)


def _decisions(root: Path, repo: Path, home: Path) -> dict[str, tuple[object, ...]]:
    pin_mtimes(root)
    plan = build_plan(root, PassOptions(repo=repo, now=NOW, home=home))
    return {e.file: (e.action, e.suggested_action, sorted(f.code for f in e.findings))
            for e in plan.entries}


def test_windows_line_endings_and_a_bom_change_no_decision(
        demo_memory: Path, demo_repo: Path, tmp_path: Path) -> None:
    """A folder synced through Windows (CRLF, a BOM on the index) is judged as it was."""
    before = _decisions(demo_memory, demo_repo, tmp_path / "home")
    for path in demo_memory.glob("*.md"):
        raw = path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        path.write_bytes((b"\xef\xbb\xbf" if path.name == "MEMORY.md" else b"") + raw)
    assert any(action is not Action.KEEP for action, _, _ in before.values())
    assert _decisions(demo_memory, demo_repo, tmp_path / "home") == before
