"""What real folders hold, and what the plan does with each shape — with its evidence."""

from __future__ import annotations

import json

import pytest

from prune_memory.model import Action
from tests.evidence.probes.gitbuild import GitRepo
from tests.judgment.conftest import Planner, entry_of, memory_file, messages


def start(repo: GitRepo) -> None:
    repo.write({"app.py": "print('hi')\n"}).commit("start")


def test_a_standing_rule_that_mentions_sessions_is_kept(planner: Planner, repo: GitRepo) -> None:
    start(repo)
    rule = ("One goal per session. When the scope changes, suggest starting the next session "
            "fresh.\n\n**Why:** long sessions lose context.\n\n**How to apply:** say so early.")
    planned = entry_of(planner({"feedback_sessions.md": memory_file(
        "sessions", rule, type_="feedback")}), "feedback_sessions.md")
    assert planned.action is Action.KEEP, messages(planned)


def test_a_dated_session_log_is_suggested_for_withdrawal(planner: Planner,
                                                         repo: GitRepo) -> None:
    start(repo)
    log = ("## 2026-03-30 bug log\n\nMarathon session.\n- Fixed the reader thread.\n"
           "- Fixed the config key typo.\n- Fixed the frame alignment stutter.\n")
    planned = entry_of(planner({"bugs_2026_03_30.md": memory_file(
        "Bugs fixed 2026-03-30", log, description="Bugs from the wiring session")}),
        "bugs_2026_03_30.md")
    assert (planned.action, planned.suggested_action) == (Action.REVIEW, Action.WITHDRAW)
    assert planned.evidence_class == "session-log"
    assert "dated file name (2026_03_30)" in messages(planned)


def test_reverted_and_still_in_a_memory_about_current_code_is_not_inoculated(
        planner: Planner, repo: GitRepo) -> None:
    start(repo)
    body = ("The camera rig builds both cameras in code.\n\nMoving them into the scene was "
            "reverted once; the offset is still (0, 32, -24).")
    planned = entry_of(planner({"camera.md": memory_file(
        "camera", body, description="How the match camera is built")}), "camera.md")
    assert planned.action is Action.KEEP and planned.suggested_action is None


def test_two_memories_disagreeing_on_a_host_address(planner: Planner, repo: GitRepo) -> None:
    start(repo)
    plan = planner({
        "MEMORY.md": "# Memory\n\n## Endpoints (2026-04-16)\n"
                     "| name | ip |\n|---|---|\n| radio-pi | 192.168.2.121 |\n\n"
                     "## Older notes (2026-04-01)\n- radio-pi endpoint runs at 192.168.2.134\n"})
    older = entry_of(plan, "MEMORY.md#L9")
    assert (older.action, older.evidence_class) == (Action.REVIEW, "contradiction")
    (clash,) = [f for f in older.findings if f.evidence.get("kind") == "value-conflict"]
    assert [s["dated"] for s in clash.evidence["sides"]] == ["2026-04-16", "2026-04-01"]
    assert entry_of(plan, "MEMORY.md#L6").action is Action.KEEP  # the newer side stands


def test_two_hosts_that_share_a_radio_are_two_hosts(planner: Planner, repo: GitRepo) -> None:
    start(repo)
    plan = planner({
        "MEMORY.md": "# Memory\n\n## Pi hosts\n"
                     "- `radio-pi` 192.168.2.121 (FTM-150 and D75 audio)\n"
                     "- `d75-pi` 192.168.2.134, the D75 serial link\n"})
    for line in ("MEMORY.md#L4", "MEMORY.md#L5"):
        assert entry_of(plan, line).action is Action.KEEP, messages(entry_of(plan, line))


def test_two_memories_disagreeing_on_a_total(planner: Planner, repo: GitRepo) -> None:
    start(repo)
    plan = planner({
        "tools.md": memory_file("tools", "The `control_mcp.py` server offers 19 tools."),
        "map.md": memory_file("map", "- `control_mcp.py` — the MCP server (95 tools)")})
    for file in ("tools.md", "map.md"):
        assert entry_of(plan, file).evidence_class == "contradiction", file


def test_one_memory_says_removed_another_still_describes_it(planner: Planner,
                                                            repo: GitRepo) -> None:
    start(repo)
    plan = planner({
        "now.md": memory_file("now", "- `UnitRegistry` DELETED — replaced by `UnitCatalog`"),
        "stats.md": memory_file("stats", "`UnitRegistry` is the static lookup for base stats.")})
    stats = entry_of(plan, "stats.md")
    assert stats.evidence_class == "contradiction" and "now.md" in stats.related
    assert entry_of(plan, "now.md").action is Action.KEEP


def test_a_memory_another_one_says_needs_correcting_goes_to_review(planner: Planner,
                                                                    repo: GitRepo) -> None:
    start(repo)
    plan = planner({
        "incident.md": memory_file("incident", "Lessons:\n- [[hosting-notes]]: the line about "
                                   "one staging box needs correcting, there are two now.\n"
                                   "- [Deploy](deploy.md) is fine as it is."),
        "hosting.md": memory_file("hosting-notes", "Staging runs on a single box."),
        "deploy.md": memory_file("deploy", "Deploys go out from the main branch.")})
    hosting = entry_of(plan, "hosting.md")
    assert (hosting.action, hosting.evidence_class) == (Action.REVIEW, "contradiction")
    assert "incident.md line 2 says this memory needs correcting" in messages(hosting)
    assert "incident.md" in hosting.related
    for calm in ("deploy.md", "incident.md"):
        assert entry_of(plan, calm).action is Action.KEEP, calm


def test_a_finished_plan_is_suggested_for_withdrawal_with_its_commit(planner: Planner,
                                                                     repo: GitRepo) -> None:
    repo.write({"start.sh": "#!/bin/sh\n", "app.py": "x\n"}).commit("start")
    sha = repo.rm("start.sh").commit("Remove start.sh: startup moved into Python")
    planned = entry_of(planner({"project_start_removal.md": memory_file(
        "start.sh removal plan", "Absorb what `start.sh` does into the Python entry point, "
        "then delete it.", description="Plan to eliminate the start script")}),
        "project_start_removal.md")
    assert (planned.suggested_action, planned.evidence_class) == (Action.WITHDRAW,
                                                                   "plan-carried-out")
    (done,) = [f for f in planned.findings if f.evidence.get("kind") == "plan-carried-out"]
    assert done.evidence["commit"] == sha


def test_a_plan_whose_mentioned_file_changed_is_overtaken_not_done(planner: Planner,
                                                                  repo: GitRepo) -> None:
    """A roadmap that names a file another change deleted is not shown carried out: what is
    left of it is for a person to read."""
    repo.write({"legacy.sh": "#!/bin/sh\n", "app.py": "x\n"}).commit("start")
    repo.rm("legacy.sh").commit("Tidy the tree")
    planned = entry_of(planner({"project_roadmap.md": memory_file(
        "Q3 roadmap", "1. Ship the importer.\n2. Replace `legacy.sh` with a Python entry.\n"
        "3. Add metrics.", description="Priorities agreed for the next release")}),
        "project_roadmap.md")
    assert (planned.suggested_action, planned.evidence_class) == (Action.WITHDRAW,
                                                                   "plan-overtaken")


def _usb_plan(type_: str = "project") -> str:
    return ("---\nname: USB link\ndescription: Planned feature to share USB devices\n"
            f"type: {type_}\nmodified: 2026-01-02T00:00:00Z\n---\n"
            "Add a `UsbLinkManager` class that attaches remote devices over TCP.\n")


def test_a_plan_whose_addition_a_later_session_made_is_built(planner: Planner,
                                                             repo: GitRepo) -> None:
    """The plan names a type; the file named after it arrived days after the memory was
    last written: the memory still says "planned" of what exists. A person updates it."""
    repo.write({"app.py": "x\n"}).commit("start", date="2026-01-01T12:00:00Z")
    sha = repo.write({"usb_link_manager.py": "class UsbLinkManager: ...\n"}).commit(
        "Add USB link sharing", date="2026-01-05T12:00:00Z")
    planned = entry_of(planner({"project_usb.md": _usb_plan()}), "project_usb.md")
    assert (planned.action, planned.suggested_action, planned.rule) == (
        Action.REVIEW, Action.UPDATE, "6-plan-built")
    (built,) = [f for f in planned.findings if f.evidence.get("kind") == "plan-built"]
    assert built.evidence["commit"] == sha
    assert "`UsbLinkManager` is `usb_link_manager.py`, added in" in built.message


@pytest.mark.parametrize(("added_on", "type_", "files"), [
    ("2026-01-02T10:00:00Z", "project", {"usb_link_manager.py": "x\n"}),  # same session
    ("2026-01-05T12:00:00Z", "feedback", {"usb_link_manager.py": "x\n"}),  # a rule
    ("2026-01-05T12:00:00Z", "project", {"a/usb_link_manager.py": "x\n",  # which one?
                                         "b/UsbLinkManager.cs": "x\n"}),
])
def test_what_does_not_show_a_plan_built(planner: Planner, repo: GitRepo, added_on: str,
                                         type_: str, files: dict[str, str]) -> None:
    repo.write({"app.py": "x\n"}).commit("start", date="2026-01-01T12:00:00Z")
    repo.write(files).commit("Add it", date=added_on)
    planned = entry_of(planner({"project_usb.md": _usb_plan(type_)}), "project_usb.md")
    assert planned.rule != "6-plan-built", messages(planned)


def test_a_file_that_was_there_before_the_plan_proves_nothing(planner: Planner,
                                                               repo: GitRepo) -> None:
    repo.write({"usb_link_manager.py": "x\n"}).commit("start", date="2026-01-01T12:00:00Z")
    repo.write({"usb_link_manager.py": "y\n"}).commit("Change it", date="2026-01-05T12:00:00Z")
    planned = entry_of(planner({"project_usb.md": _usb_plan()}), "project_usb.md")
    assert planned.rule != "6-plan-built", messages(planned)


def test_an_enum_that_gained_a_member_since_the_memory_listed_it(planner: Planner,
                                                                   repo: GitRepo) -> None:
    """The code defines three members; the memory lists two. The fix is known, but the
    class is not measured enough to act alone: a person accepts it."""
    repo.write({"Config.cs": "enum ServerEnv\n{\n    Local,\n    Tailnet,\n    Dev\n}\n"}
               ).commit("Add the tailnet server")
    plan = planner({"structure.md": memory_file("structure", "- `ServerEnv` enum: Local, Dev"),
                    "env.md": memory_file("env", "The `ServerEnv` enum has three values.")})
    planned = entry_of(plan, "structure.md")
    assert (planned.action, planned.suggested_action, planned.evidence_class) == (
        Action.REVIEW, Action.UPDATE, "enum-drift")
    assert "not listed: Tailnet" in messages(planned)
    assert entry_of(plan, "env.md").action is Action.KEEP


def test_a_stale_current_release_line(planner: Planner, repo: GitRepo) -> None:
    repo.write({"CHANGELOG.md": "# Changes\n\n## [3.1.0] - 2026-04-09\n\n## [2.0.0]\n"}).commit(
        "release 3.1.0")
    repo.git("tag", "v3.1.0")
    planned = entry_of(planner({"release.md": memory_file(
        "release", "v2.0 is the current stable release.")}), "release.md")
    assert (planned.suggested_action, planned.evidence_class) == (Action.UPDATE, "release-drift")
    assert "tag v3.1.0" in messages(planned) and "lists 3.1.0" in messages(planned)


@pytest.mark.parametrize("body", [
    # what a call returned in a smoke test, not the release the project is on
    "Smoke test: `get_version_info()` gives `{'version': '0.0.1', 'source': 'git'}` before "
    "the first tag.",
    # a price and a share
    "| plan | cost |\n|---|---|\n| **Current** | $0.13 per run |\n\nThe latest build is 2.5% "
    "faster.",
])
def test_a_number_that_is_no_release_is_not_compared_with_the_tags(
        planner: Planner, repo: GitRepo, body: str) -> None:
    repo.write({"CHANGELOG.md": "# Changes\n\n## [3.1.0] - 2026-04-09\n"}).commit("release")
    repo.git("tag", "v3.1.0")
    planned = entry_of(planner({"notes.md": memory_file("notes", body)}), "notes.md")
    assert planned.action is Action.KEEP and "release" not in messages(planned)


def test_a_credential_in_prose_is_flagged_never_copied(planner: Planner, repo: GitRepo) -> None:
    start(repo)
    plan = planner({"MEMORY.md": "# Machine\n- 16 GB RAM, sudo password: `hunter7`, user: me\n",
                    "backend.md": memory_file("backend", "NOTIFY_SECRET=team-notify-secret")})
    for file in ("MEMORY.md#L2", "backend.md"):
        assert entry_of(plan, file).action is Action.FLAG, file
    text = json.dumps(plan.to_json())
    assert "hunter7" not in text and "team-notify-secret" not in text


def test_a_memory_wholly_inside_a_longer_one(planner: Planner, repo: GitRepo) -> None:
    start(repo)
    short = "Workers claim jobs in order with skip locked so two workers never share a job."
    plan = planner({"a.md": memory_file("a", short),
                    "b.md": memory_file("b", short + " The lock is released on commit.")})
    inner = entry_of(plan, "a.md")
    assert (inner.suggested_action, inner.evidence_class) == (Action.WITHDRAW,
                                                              "contained-duplicate")
    assert entry_of(plan, "b.md").action is Action.KEEP


def test_copies_differing_only_in_articles_and_punctuation(planner: Planner,
                                                           repo: GitRepo) -> None:
    start(repo)
    plan = planner({
        "a.md": memory_file("a", "Run the linter before every commit; fix the warnings it "
                                 "prints first."),
        "b.md": memory_file("b", "Run linter before every commit, fix warnings it prints "
                                 "first!")})
    flagged = [entry_of(plan, f) for f in ("a.md", "b.md")]
    assert sorted(e.action.value for e in flagged) == ["keep", "review"]
    loser = next(e for e in flagged if e.action is Action.REVIEW)
    # not identical once case, punctuation and spacing are set aside: a person merges them
    assert loser.evidence_class == "near-duplicate"


def test_a_short_copy_but_for_an_article_is_offered_for_review(planner: Planner,
                                                               repo: GitRepo) -> None:
    start(repo)
    plan = planner({
        "a.md": memory_file("a", "User prefers kebab-case for file names.", type_="user"),
        "b.md": memory_file("b", "The user prefers kebab-case for file names!", type_="user")})
    later = entry_of(plan, "b.md")
    assert (later.action, later.evidence_class) == (Action.REVIEW, "near-duplicate")
    assert entry_of(plan, "a.md").action is Action.KEEP


def test_a_drifted_line_count_is_corrected_without_review(planner: Planner,
                                                          repo: GitRepo) -> None:
    repo.write({"util.py": "".join(f"x{n} = {n}\n" for n in range(40))}).commit("grow util")
    plan = planner({"MEMORY.md": "# Code map\n- `util.py` (20 lines) — helpers\n"})
    line = entry_of(plan, "MEMORY.md#L2")
    assert (line.action, line.evidence_class) == (Action.UPDATE, "line-count-drift")
    assert line.proposed_text == "- `util.py` (40 lines) — helpers"
    assert "wc -l" in messages(line)


def test_the_lines_a_change_touched_are_no_file_size(planner: Planner, repo: GitRepo) -> None:
    repo.write({"util.py": "".join(f"x{n} = {n}\n" for n in range(40))}).commit("grow util")
    plan = planner({"changelog.md": memory_file("changelog", "## 2026-05-20\n\n- **Files:** "
                                                "`util.py` (1 line), `app.py` (+30 lines)\n")})
    assert "line-count" not in messages(entry_of(plan, "changelog.md"))


def test_a_path_said_to_be_gitignored_that_git_tracks(planner: Planner, repo: GitRepo) -> None:
    repo.write({".claude/settings.local.json": "{}\n"}).commit("start")
    planned = entry_of(planner({"token.md": memory_file(
        "token", "The API token goes in `.claude/settings.local.json` (gitignored).")}),
        "token.md")
    assert planned.evidence_class == "tracked-not-ignored"
    assert "published with the repo" in messages(planned)


def test_a_fact_wrapped_over_several_lines_is_never_changed_for_you(planner: Planner,
                                                                    repo: GitRepo) -> None:
    """The engine moves one index line at a time: a fact spanning several lines waits for a
    person even when its evidence class would act alone. A sub-bullet is a fact of its own,
    so the line above it is corrected alone."""
    repo.write({"util.py": "".join(f"x{n} = {n}\n" for n in range(40))}).commit("grow util")
    plan = planner({"MEMORY.md": "# Code map\n- `util.py` (20 lines) — helpers\n"
                                 "  for formatting and parsing\n"})
    fact = entry_of(plan, "MEMORY.md#L2")
    assert (fact.action, fact.suggested_action) == (Action.REVIEW, Action.UPDATE)
    assert fact.evidence_class == "line-count-drift"
    plan = planner({"MEMORY.md": "# Code map\n- `util.py` (20 lines) — helpers\n"
                                 "  - formatting and parsing\n"})
    assert entry_of(plan, "MEMORY.md#L2").action is Action.UPDATE
    assert entry_of(plan, "MEMORY.md#L3").action is Action.KEEP  # an update takes nothing along


def test_frontmatter_that_is_no_yaml_is_read_and_says_so(planner: Planner, repo: GitRepo) -> None:
    start(repo)
    plan = planner({"c.md": "---\nname: [unclosed\ndescription: deploy notes\ntype: project\n"
                            "---\nThe deploy runs nightly.\n"})
    entry = entry_of(plan, "c.md")
    assert entry.name == "[unclosed" and entry.memory_type == "project"
    (found,) = [f for f in entry.findings if f.code.value == "malformed"]
    assert "not valid YAML" in found.message and found.evidence["kind"] == "lenient-frontmatter"


def test_a_sub_bullet_leaves_with_the_fact_it_hangs_under(planner: Planner,
                                                          repo: GitRepo) -> None:
    """Each line is a fact, as Claude Code reads it; one that only details a withdrawn
    parent goes with it, on the parent's evidence. A sibling item stays."""
    repo.write({"app.py": "x\n", "tracker/cli.py": "def main():\n    pass\n"}).commit("start")
    repo.rm("tracker/cli.py").commit("drop the tracker", date="2026-03-01T12:00:00+00:00")
    plan = planner({"MEMORY.md": "# Memory\n\n## Tracker\n- `tracker/` — the Python tracker\n"
                                 "  - runs nightly from cron\n- Tags are signed\n"})
    parent, child = entry_of(plan, "MEMORY.md#L4"), entry_of(plan, "MEMORY.md#L5")
    assert parent.suggested_action is Action.WITHDRAW
    assert (child.action, child.suggested_action) == (parent.action, Action.WITHDRAW)
    assert child.related == ("MEMORY.md#L4",) and "hangs under MEMORY.md#L4" in child.reason
    assert entry_of(plan, "MEMORY.md#L6").action is Action.KEEP
