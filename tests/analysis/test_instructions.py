"""What a memory repeats of the project's own instructions, or says against them.

The shapes come from real folders (written here in our own words): a feedback rule that a
CLAUDE.md bullet now states, a rule that says itself it moved to CLAUDE.md, a tip that the
project's instructions list under "what does not work", a command line using a subcommand
CLAUDE.md lists as removed, and a memory citing an older version of CLAUDE.md.
"""

from __future__ import annotations

from pathlib import Path

from prune_memory.analysis.instruction_files import (
    InstructionIndex,
    content_words,
    read_claude_md,
    read_instructions,
    sections,
)
from prune_memory.analysis.instructions import check_instructions
from prune_memory.model import Entry, EntryKind, FindingCode
from tests.conftest import write_tree
from tests.evidence.probes.gitbuild import entry

CLAUDE_MD = """# Shop backend

## Workflow

- **Fix bugs found in review now.** Any bug the review step surfaces, in your diff or
  next to it, gets fixed in the same session before the issue closes. Filing a
  follow-up issue for a bug is not allowed; only new features become new issues.
- **Pathspec commits only.** Commit with explicit paths so parallel sessions never
  sweep up each other's staged files.

## Data access

The database caps every response at 500 rows.

**What does NOT work:**
- `.limit(5000)` — the response still stops at 500 rows
- a bigger page size in the client settings

Removed subcommands: `export` (replaced by `report --csv`), `backfill`.
"""

RULE = ("**Never defer bugs found in review.** Any bug the review step surfaces, in your "
        "diff or next to it, gets fixed in the same session before the issue closes. "
        "Filing a follow-up issue for a bug is not allowed.\n\n"
        "**Why:** the last sprint filed five follow-ups in a row and nobody took them.\n\n"
        "**How to apply:** fix it now; only new features become issues.\n")


def _repo(tmp_path: Path, files: dict[str, str | bytes] | None = None) -> Path:
    return write_tree(tmp_path / "repo", {"CLAUDE.md": CLAUDE_MD, **(files or {})})


def _check(repo: Path, home: Path, *entries: Entry) -> dict[str, tuple[object, ...]]:
    index = InstructionIndex(read_instructions(repo, home))
    return dict(check_instructions(entries, index))


def test_a_rule_a_claude_md_bullet_states_is_a_repeat_citing_its_lines(tmp_path: Path) -> None:
    found = check_instructions([entry("feedback_bugs.md", RULE, memory_type="feedback")],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    (repeat,) = found["feedback_bugs.md"]
    assert repeat.code is FindingCode.CLAUDE_MD_DUPLICATE
    assert repeat.evidence["claude_md"] == "CLAUDE.md"
    assert repeat.evidence["claude_md_lines"] == [5, 7]  # the bullet, not the whole file
    assert repeat.evidence["part"] == "the rule it states"
    assert "its rule repeats CLAUDE.md:5-7 (Workflow)" in repeat.message
    assert repeat.evidence["loaded"] is True


def test_a_memory_that_says_it_moved_to_claude_md_needs_less_of_itself_there(
        tmp_path: Path) -> None:
    body = ("Commit with explicit paths, never a bare commit, so that parallel sessions do "
            "not take each other's staged files. This is codified in CLAUDE.md now.\n\n"
            "**Why:** on the 3rd a session committed another session's half-done migration "
            "and the deploy broke for an hour.\n")
    found = check_instructions([entry("feedback_commits.md", body, memory_type="feedback")],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    (repeat,) = found["feedback_commits.md"]
    assert repeat.evidence["says_so"].startswith("codified in CLAUDE.md")
    assert repeat.evidence["part"] == "the rule it says is there now"


def test_a_short_memory_holding_a_whole_instruction_restates_it(tmp_path: Path) -> None:
    """The instruction in its own words, plus a detail: most of the section is in the memory,
    which is not many times its size."""
    body = ("Pathspec commits: always commit with explicit paths, so that parallel sessions "
            "never sweep up each other's staged files. Type the pathspec after `--`; the "
            "hook in the user's shell warns on a bare commit.\n")
    found = check_instructions([entry("feedback_paths.md", body, memory_type="feedback")],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    (repeat,) = found["feedback_paths.md"]
    assert repeat.evidence["part"] == "the instruction it restates"
    assert repeat.evidence["claude_md_lines"] == [8, 9]
    assert "restates CLAUDE.md:8-9 (Workflow), whole" in repeat.message
    assert "of the instruction's words" in repeat.message


def test_a_rule_that_restates_an_instruction_above_its_long_reasons_restates_it(
        tmp_path: Path) -> None:
    """The rule at the head is the instruction; the why and the how that follow are many
    times its length, so only the rule is measured against the section."""
    body = ("Pathspec commits: commit with explicit paths, typed after the double dash and "
            "checked by the hook in the shared shell profile, so parallel sessions never "
            "sweep up each other's staged files.\n\n**Why:** " + " ".join(
                f"in week {n} the {w} release shipped a {w}-{n} change from elsewhere"
                for n, w in enumerate(("cart", "order", "user", "stock", "price", "mail",
                                       "search", "image", "tax", "ship", "auth", "cron",
                                       "queue", "report", "audit", "billing", "geo"))) +
            ".\n\n**How to apply:** type the paths after `--` and read `git status` first.\n")
    found = check_instructions([entry("feedback_paths.md", body, memory_type="feedback")],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    (repeat,) = found["feedback_paths.md"]
    assert repeat.evidence["part"] == "the instruction it restates"
    assert repeat.evidence["claude_md_lines"] == [8, 9]


AGENTS_MD = """# Agents

## Working rules

- Ship thin slices end to end before building around them.
- **Never add a co-author trailer or any bot attribution** to commits, tickets, pull
  requests or release notes.
- Keep every change small, reviewable and reversible.
"""

TRAILER_RULE = ("The owner asked: no co-author trailer and no bot attribution on anything "
                "filed in his name.\n\nRule: never add a co-author trailer or bot attribution "
                "to commits, tickets, pull requests or release notes; plain messages only.\n\n"
                "**Why:** the work is his; the assistant is a tool.\n")


def test_a_memory_holding_a_whole_agents_md_item_restates_it(tmp_path: Path) -> None:
    """AGENTS.md is the project's own rule book: a memory that holds one of its items whole
    repeats it, though Claude Code does not load the file every session."""
    repo = write_tree(tmp_path / "repo", {"AGENTS.md": AGENTS_MD})
    found = _check(repo, tmp_path, entry("feedback_trailer.md", TRAILER_RULE,
                                         memory_type="feedback"))
    (repeat,) = found["feedback_trailer.md"]
    assert repeat.evidence["part"] == "the instruction it restates"
    assert "restates AGENTS.md:6-7 (Working rules), whole" in repeat.message


def test_a_rule_kept_for_every_project_is_not_repeated_by_this_ones_files(
        tmp_path: Path) -> None:
    """The same rule, told for every project the user works on: this repo's files hold it
    for this repo only, so the memory is no repeat of them."""
    repo = write_tree(tmp_path / "repo", {"AGENTS.md": AGENTS_MD})
    body = TRAILER_RULE + "\n**How to apply:** on every project, in every commit.\n"
    assert _check(repo, tmp_path, entry("feedback_trailer.md", body,
                                        memory_type="feedback")) == {}


def test_a_banner_comment_shared_with_claude_md_is_no_instruction(tmp_path: Path) -> None:
    banner = ("<!--\n  Shop backend, made by the platform team of the north office\n"
              "  banner kept in every build, do not remove the maintainer names\n-->\n")
    repo = _repo(tmp_path, {"CLAUDE.md": banner + CLAUDE_MD})
    body = banner + "The nightly import retries three times, then pages the on-call.\n"
    assert _check(repo, tmp_path, entry("project_import.md", body)) == {}


def test_a_long_memory_holds_a_short_instruction_by_chance(tmp_path: Path) -> None:
    body = ("Commit with explicit paths only, so parallel sessions never sweep up each "
            "other's staged files.\n\n" + "".join(
                f"- step {n}: the {w} service reloads its {w} cache after deploys\n"
                for n, w in enumerate(("cart", "order", "user", "stock", "price", "mail",
                                       "search", "image", "tax", "ship", "auth", "cron",
                                       "queue", "report", "audit", "billing", "geo", "feed"))))
    found = check_instructions([entry("project_ops.md", body)],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    assert "project_ops.md" not in found


def test_different_advice_in_the_same_words_is_no_repeat(tmp_path: Path) -> None:
    body = ("Bugs the review step surfaces go into a follow-up issue; never fix them in "
            "the same session, the diff must stay small and the deploy window is short.\n")
    found = check_instructions([entry("feedback_other.md", body)],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    assert "feedback_other.md" not in found


def test_an_index_fact_is_not_matched_against_the_readme(tmp_path: Path) -> None:
    readme = "# Shop\n\n" + " ".join(f"word{n}" for n in range(300)) + \
        " the cart service listens on port 8081 behind nginx\n"
    repo = _repo(tmp_path, {"README.md": readme})
    fact = Entry(file="MEMORY.md#L3", kind=EntryKind.INDEX_LINE, name="cart",
                 description="", memory_type=None, frontmatter={},
                 body="- Cart service listens on port 8081 behind nginx",
                 sha256="0" * 64, size=10, mtime=entry("x.md", "").mtime, index_lines=(3,))
    assert _check(repo, tmp_path, fact) == {}


def test_a_tip_the_instructions_list_as_not_working_is_a_contradiction(tmp_path: Path) -> None:
    body = "Always add `.limit(5000)` to the query so the report gets every row.\n"
    found = check_instructions([entry("feedback_rows.md", body)],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    (clash,) = found["feedback_rows.md"]
    assert clash.code is FindingCode.CONTRADICTION
    assert clash.evidence["kind"] == "instruction-denies"
    assert clash.evidence["claude_md_line"] == 16
    assert "CLAUDE.md:16" in clash.message


def test_a_removed_subcommand_in_a_command_line_is_a_contradiction(tmp_path: Path) -> None:
    uses = entry("project_nightly.md", "The nightly job runs `shop backfill --all` at 2am.\n")
    knows = entry("project_old.md", "`shop backfill` was removed; nothing replaces it.\n")
    aside = entry("project_report.md", "Use `report --csv` for the monthly numbers.\n")
    found = check_instructions([uses, knows, aside],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    assert found["project_nightly.md"][0].evidence["claim"] == "shop backfill --all"
    assert "project_old.md" not in found  # it says so itself
    assert "project_report.md" not in found  # named in a remark as the replacement


def test_a_subcommand_the_memory_calls_on_its_way_out_is_gone_by_now(tmp_path: Path) -> None:
    """"Being retired" was true when written; the instructions now list it as removed."""
    retiring = entry("feedback_ops.md", "- `shop backfill --all` only appends (backfill is "
                                        "being retired)\n")
    found = check_instructions([retiring],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    assert found["feedback_ops.md"][0].evidence["kind"] == "instruction-denies"


def test_a_memory_citing_an_older_version_of_claude_md(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"CLAUDE.md": "# Writers' room v4.2\n\nRules.\n"})
    body = "The format rules here override the v3.1 CLAUDE.md examples.\n"
    found = check_instructions([entry("reference_format.md", body)],
                               InstructionIndex(read_instructions(repo, tmp_path)))
    (drift,) = found["reference_format.md"]
    assert drift.code is FindingCode.VERSION_DRIFT
    assert drift.evidence["memory_says"] == "v3.1" and drift.evidence["repo_says"] == "v4.2"


def test_every_instruction_file_is_read_but_the_memory_inside_the_repo(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {
        "AGENTS.md": "Agents run `make check` first.\n",
        ".claude/rules/style.md": "Use tabs.\n",
        ".claude/commands/ship.md": "Ship it.\n",
        ".cursor/rules/base.mdc": "Be brief.\n",
        ".claude/memory/MEMORY.md": "- a memory, not an instruction\n",
        "README.md": "# Shop\n",
    })
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    (tmp_path / "home" / ".claude" / "CLAUDE.md").write_text("Answer briefly.\n")
    files = read_instructions(repo, tmp_path / "home", skip=repo / ".claude" / "memory")
    labels = [f.label for f in files]
    assert labels == ["CLAUDE.md", ".claude/rules/style.md", "AGENTS.md", "README.md",
                      ".claude/commands/ship.md", ".cursor/rules/base.mdc",
                      "~/.claude/CLAUDE.md"]
    assert {f.label for f in files if f.authoritative} == {
        "CLAUDE.md", ".claude/rules/style.md", "AGENTS.md", "~/.claude/CLAUDE.md"}
    assert [label for label, _ in read_claude_md(repo, tmp_path / "home")] == [
        "CLAUDE.md", ".claude/rules/style.md", "~/.claude/CLAUDE.md"]


def test_sections_are_headings_items_and_paragraphs_with_their_lines(tmp_path: Path) -> None:
    (file,) = [f for f in read_instructions(_repo(tmp_path), tmp_path) if f.label == "CLAUDE.md"]
    spans = {(s.first, s.last) for s in sections(file)}
    assert (3, 9) in spans  # "## Workflow" to the next heading
    assert (5, 7) in spans and (8, 9) in spans  # each bullet with its continuation
    assert (13, 13) in spans  # a paragraph


def test_words_of_text_without_spaces_are_pairs_of_characters() -> None:
    assert content_words("列表改纯查询 uses the DB") == ["列表", "表改", "改纯", "纯查", "查询",
                                                    "uses", "db"]


def test_a_rule_told_again_in_other_words_follows_the_instruction_closely(
        tmp_path: Path) -> None:
    """Half of the rule's words in one loaded bullet, in its order, with words of its own
    between them: a paraphrase, offered for review citing the bullet."""
    body = ("A commit names its paths explicitly. Parallel sessions would otherwise "
            "sweep in the staged files of each other.\n\n"
            "**Why:** a session once took another's half-done migration.\n")
    found = check_instructions([entry("feedback_commit.md", body, memory_type="feedback")],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    (repeat,) = found["feedback_commit.md"]
    assert repeat.evidence["part"] == "the rule it paraphrases"
    assert repeat.evidence["claude_md_lines"] == [8, 9]
    assert "its rule follows CLAUDE.md:8-9 (Workflow) closely" in repeat.message


def test_a_memory_on_the_same_topic_in_scattered_words_is_no_paraphrase(
        tmp_path: Path) -> None:
    body = ("Staged files pile up when sessions run in parallel; the explicit list of "
            "paths in the release notes is what the commits of the week are checked "
            "against.\n")
    found = check_instructions([entry("project_release.md", body)],
                               InstructionIndex(read_instructions(_repo(tmp_path), tmp_path)))
    assert "project_release.md" not in found
