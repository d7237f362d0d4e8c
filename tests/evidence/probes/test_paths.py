"""path-drift: renamed, deleted, never-existing and historical path mentions."""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.gitrepo import read_repo_facts
from prune_memory.evidence.probes.base import ProbeContext, Verdict
from prune_memory.evidence.probes.pathclaims import path_mentions
from prune_memory.evidence.probes.paths import PathProbe
from prune_memory.model import Fidelity, FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

BODY = "Sessions are signed in `src/auth.py`; see also src/app/main.py and `docs/`.\n"


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"src/auth.py": "def sign(value):\n    return value\n" * 4,
                "src/app/main.py": "print('hi')\n", "docs/index.md": "# docs\n",
                "scripts/seed.py": "seed()\n", "notes/old plan.md": "a plan kept for ages\n" * 4})
    repo.commit("start")
    return repo


def run(repo: GitRepo, *entries: object) -> StalenessReport:
    return probe_staleness(memdir(*entries), repo.root, NOW, Config(),  # type: ignore[arg-type]
                           probes=[PathProbe()])


def test_tracked_paths_confirm_the_entry(repo: GitRepo) -> None:
    report = run(repo, entry("a.md", BODY))
    assert report.findings["a.md"] == ()
    assert report.fidelity["a.md"] is Fidelity.HIGH
    assert report.checked("a.md") == "checked 3 claims: 3 confirmed"


def test_rename_gives_current_path_commit_date_and_fix(repo: GitRepo) -> None:
    sha = repo.mv("src/auth.py", "src/auth/session.py").commit("Group auth",
                                                               "2026-03-02T09:00:00+00:00")
    report = run(repo, entry("a.md", BODY))
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.PATH_DRIFT
    assert f"renamed to `src/auth/session.py` in {sha[:7]} on 2026-03-02" in finding.message
    assert finding.evidence["commit"] == sha and finding.evidence["date"] == "2026-03-02"
    assert finding.evidence["repo_says"] == "src/auth/session.py"
    assert finding.proposed_text == BODY.replace("`src/auth.py`", "`src/auth/session.py`")
    assert report.fidelity["a.md"] is Fidelity.FAILED


def test_every_spelling_of_a_renamed_path_is_fixed(repo: GitRepo) -> None:
    repo.mv("src/auth.py", "src/auth/session.py").commit("Group auth")
    body = (f"Signed in `{repo.root}/src/auth.py`.\nThe check is at `src/auth.py:12`, and "
            "./src/auth.py#L3 says why.\n")
    report = run(repo, entry("a.md", body))
    (finding,) = report.findings["a.md"]
    assert finding.proposed_text == body.replace("auth.py", "auth/session.py")
    assert len(report.claims["a.md"]) == 1  # one path, one claim, however it is written


def test_a_lone_word_sharing_a_moved_directory_name_is_left(repo: GitRepo) -> None:
    repo.mv("docs", "handbook").commit("Rename docs")
    body = "Guides live in `docs/`; the `docs` team reviews them.\n"
    (finding,) = run(repo, entry("a.md", body)).findings["a.md"]
    assert finding.proposed_text == "Guides live in `handbook/`; the `docs` team reviews them.\n"


def test_deleted_path_names_the_commit(repo: GitRepo) -> None:
    sha = repo.rm("scripts/seed.py").commit("Drop the seed script")
    report = run(repo, entry("a.md", "Seed data comes from `scripts/seed.py`.\n"))
    (finding,) = report.findings["a.md"]
    assert finding.evidence["repo_says"] == "deleted" and finding.evidence["commit"] == sha
    assert finding.evidence["subject"] == "Drop the seed script"
    assert finding.proposed_text is None and "deleted in" in finding.message


def test_renamed_then_deleted_says_both(repo: GitRepo) -> None:
    repo.mv("scripts/seed.py", "scripts/load.py").commit("rename")
    repo.rm("scripts/load.py").commit("drop")
    (finding,) = run(repo, entry("a.md", "Run `scripts/seed.py`.\n")).findings["a.md"]
    assert "renamed to `scripts/load.py`" in finding.message
    assert "was deleted" in finding.message and finding.proposed_text is None


def test_never_existing_path_is_unverifiable_not_drift(repo: GitRepo) -> None:
    report = run(repo, entry("a.md", "Config lives in `config/prod.yaml`.\n"))
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.UNVERIFIABLE
    assert report.fidelity["a.md"] is Fidelity.UNVERIFIABLE


def test_directory_claims_count(repo: GitRepo) -> None:
    repo.mv("src/app", "src/web").commit("rename app dir")
    report = run(repo, entry("a.md", "The app lives in `src/app/`, docs in docs/.\n"))
    (finding,) = report.findings["a.md"]
    assert finding.evidence["repo_says"] == "src/web"
    assert "`src/web/`" in (finding.proposed_text or "")
    kinds = {c.text: c.verdict for c in report.claims["a.md"]}
    assert kinds["docs/"] is Verdict.CONFIRMED


def test_path_with_spaces_in_backticks(repo: GitRepo) -> None:
    repo.mv("notes/old plan.md", "notes/plan 2026.md").commit("rename plan")
    (finding,) = run(repo, entry("a.md", "See `notes/old plan.md`.\n")).findings["a.md"]
    assert finding.evidence["repo_says"] == "notes/plan 2026.md"
    assert finding.proposed_text == "See `notes/plan 2026.md`.\n"


def test_an_entry_recording_the_rename_is_history_not_drift(repo: GitRepo) -> None:
    repo.mv("src/auth.py", "src/session.py").commit("rename")
    body = "We renamed `src/auth.py` to `src/session.py` in March.\n"
    report = run(repo, entry("a.md", body))
    assert report.findings["a.md"] == () and report.fidelity["a.md"] is Fidelity.HIGH


def test_memory_files_urls_and_globs_are_not_repo_paths(repo: GitRepo) -> None:
    facts = read_repo_facts(repo.root)
    body = ("See [[x]], project_auth.md, https://example.com/a/b.py, `src/**/*.py`, "
            "`~/.claude/settings.json`, `npm run build`, 1/2 of I/O.\n")
    memory = memdir(entry("a.md", body), entry("project_auth.md", "x"))
    ctx = ProbeContext(facts, memory, Config(), NOW)
    skip = frozenset({"project_auth.md", "a.md"})
    assert path_mentions(memory.entries[0], facts.root, facts.seen, skip) == []
    # the glob is checked as a pattern of files, not as a path
    assert [(c.text, c.verdict) for c in PathProbe().check(memory.entries[0], ctx).claims] \
        == [("src/**/*.py", Verdict.CONFIRMED)]


def test_line_suffixes_and_absolute_paths_inside_the_repo(repo: GitRepo) -> None:
    body = f"Crash at `src/app/main.py:12` and in {repo.root}/src/auth.py today.\n"
    report = run(repo, entry("a.md", body))
    assert {c.verdict for c in report.claims["a.md"]} == {Verdict.CONFIRMED}
    assert len(report.claims["a.md"]) == 2


def test_no_repo_makes_claims_unverifiable(tmp_path: Path) -> None:
    report = probe_staleness(memdir(entry("a.md", BODY)), tmp_path, NOW, Config(),
                             probes=[PathProbe()])
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.UNVERIFIABLE and "not inside a git" in finding.message
    assert report.fidelity["a.md"] is Fidelity.UNVERIFIABLE
    assert {c.verdict for c in report.claims["a.md"]} == {Verdict.UNVERIFIABLE}


def test_a_name_tracked_twice_is_not_deleted_because_a_third_copy_was(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "other")
    repo.write({"old/src/config.py": "a\n", "lib/src/config.py": "b\n",
                "app/src/config.py": "c\n"}).commit("start")
    repo.rm("old/src/config.py").commit("drop the old copy")
    report = run(repo, entry("a.md", "Settings are read in `src/config.py`.\n"))
    assert report.findings["a.md"] == ()
    (claim,) = report.claims["a.md"]
    assert claim.verdict is Verdict.CONFIRMED and "several places" in claim.note


def test_a_move_keeps_how_much_of_the_file_git_found_unchanged(tmp_path: Path) -> None:
    from prune_memory.evidence.classes import drift_class
    repo = GitRepo(tmp_path / "other")
    body = "".join(f"line {n}\n" for n in range(40))
    repo.write({"src/same.py": body, "src/edited.py": body}).commit("start")
    repo.mv("src/same.py", "lib/same.py").mv("src/edited.py", "lib/edited.py")
    repo.write({"lib/edited.py": body[:300] + "".join(f"new {n}\n" for n in range(25))})
    repo.commit("move, and rewrite one")
    report = run(repo, entry("a.md", "See `src/same.py` and `src/edited.py`.\n"))
    by_path = {f.evidence["claim"]: f for f in report.findings["a.md"]}
    assert by_path["src/same.py"].evidence["similarity"] == 100
    assert drift_class(by_path["src/same.py"]) == "path-renamed"
    assert by_path["src/edited.py"].evidence["similarity"] < 90
    assert drift_class(by_path["src/edited.py"]) == "path-moved-edited"


TREE = ("**`docs/`** (what users read)\n"
        "- `guide.md` — the user guide\n"
        "- `deploy.md` — how to deploy\n"
        "- `notes/`\n"
        "  - `week1.md` — first week\n"
        "\n"
        "**Why:** so nobody files a doc twice.\n"
        "- `deploy.md` is also what ops reads\n")


def test_file_names_listed_under_a_directory_heading_are_paths_in_it(tmp_path: Path) -> None:
    """A memory that maps a folder writes its files bare under the folder's name: each is
    checked where the list puts it, and a rename is corrected the way it was written."""
    repo = GitRepo(tmp_path / "tree")
    repo.write({"docs/guide.md": "# Guide\n" * 20, "docs/deploy.md": "# Deploy\n" * 20,
                "docs/notes/week1.md": "# Week 1\n" * 20, "deploy.md": "# root\n"}).commit("start")
    repo.mv("docs/deploy.md", "docs/ops/deploy.md").commit("File the ops docs")
    repo.mv("docs/notes/week1.md", "docs/notes/2026/week1.md").commit("File the notes by year")
    report = run(repo, entry("docs.md", TREE))
    gone = {f.evidence["claim"]: f for f in report.findings["docs.md"]}
    assert sorted(gone) == ["docs/deploy.md", "docs/notes/week1.md"]
    assert gone["docs/deploy.md"].evidence["current_path"] == "docs/ops/deploy.md"
    fixed = report.proposed_text["docs.md"]
    assert "- `ops/deploy.md` — how to deploy" in fixed
    assert "  - `2026/week1.md` — first week" in fixed
    assert "- `guide.md` — the user guide" in fixed  # still where the list puts it
    assert "- `deploy.md` is also what ops reads" in fixed  # after the tree: the root file


def test_a_bare_name_under_a_heading_the_repo_never_had_it_in_stays_bare(
        tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "flat")
    repo.write({"guide.md": "# Guide\n"}).commit("start")
    report = run(repo, entry("docs.md", "## `docs/`\n- `guide.md` — the user guide\n"))
    assert report.findings["docs.md"] == ()
    assert report.checked("docs.md") == "checked 1 claim: 1 confirmed"


def test_facts_under_a_heading_naming_a_deleted_file_share_its_fate(repo: GitRepo,
                                                                    tmp_path: Path) -> None:
    """"## seed.py commands" then one command per line: the lines are about seed.py."""
    from prune_memory.store.loader import load_memory_dir
    repo.rm("scripts/seed.py").commit("seeding moved into the app")
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "# Memory\n\n## seed.py commands\n- `reset` — empties the tables\n"
        "- Never run it against production\n\n## auth.py\n- `sign` — signs a value\n",
        encoding="utf-8")
    report = probe_staleness(load_memory_dir(root), repo.root, NOW, Config(),
                             probes=[PathProbe()])
    (found,) = report.findings["MEMORY.md#L4"]
    assert found.code is FindingCode.PATH_DRIFT
    assert found.evidence["section"] == "seed.py commands"
    assert found.evidence["central"] is True
    assert "its section ('seed.py commands') is about `seed.py`, which was deleted" in \
        found.message
    assert report.findings["MEMORY.md#L5"] == ()  # a rule of its own may outlive the file
    assert report.findings["MEMORY.md#L8"] == ()  # auth.py is still there


def test_a_path_git_moved_under_a_package_is_a_rename_not_a_short_name(repo: GitRepo) -> None:
    """`web/server.py` is now the tail of `src/shop/web/server.py` because git moved that very
    path there; a short name that never was a path of its own still confirms."""
    repo.write({"web/server.py": "run()\n" * 20}).commit("the app")
    repo.mv("web/server.py", "src/shop/web/server.py").commit("src layout")
    body = "The entry point is `web/server.py`; see `shop/web/server.py`.\n"
    report = run(repo, entry("a.md", body, written="2026-01-02T00:00:00+00:00"))
    (moved,) = report.findings["a.md"]
    assert moved.evidence["current_path"] == "src/shop/web/server.py"
    assert report.proposed_text["a.md"] == ("The entry point is `src/shop/web/server.py`; see "
                                             "`shop/web/server.py`.\n")


def test_a_file_pattern_that_matches_nothing_git_still_tracks_is_stale(repo: GitRepo) -> None:
    """`lib/*-algorithm.js` matched the modules until one commit renamed them all to .ts:
    the pattern names no file now, and the finding says which commit, and where they went."""
    repo.write({"lib/sort-algorithm.js": "module.exports = 1\n",
                "lib/heap-algorithm.js": "module.exports = 2\n"}).commit("modules")
    repo.mv("lib/sort-algorithm.js", "lib/sort-algorithm.ts")
    repo.mv("lib/heap-algorithm.js", "lib/heap-algorithm.ts")
    sha = repo.commit("modules to TypeScript")[:7]
    report = run(repo, entry("a.md", "Modules (`lib/*-algorithm.js`) stay CommonJS.\n"))
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.PATH_DRIFT
    assert "matched 2 that git tracked (renamed, e.g. to `lib/" in finding.message
    assert f"the last gone in {sha}" in finding.message
    assert report.fidelity["a.md"] is Fidelity.FAILED


def test_a_pattern_that_still_matches_or_never_did_claims_nothing_stale(repo: GitRepo) -> None:
    """`src/*.py` still has files; `*.lock` files live on a disk, never in git; a pattern
    told as what was removed is history."""
    repo.write({"old/a.cfg": "x\n"}).commit("cfg")
    repo.rm("old/a.cfg").commit("drop cfg")
    report = run(repo, entry("a.md", "Code is in `src/*.py`. Locks are `~/.cache/*.lock` "
                                     "and `run/*.lock`. We removed `old/*.cfg` last week.\n"))
    assert report.findings["a.md"] == ()
    assert [(c.text, c.verdict) for c in report.claims["a.md"] if "*" in c.text] == [
        ("src/*.py", Verdict.CONFIRMED)]


def test_a_file_said_not_to_exist_that_git_added_since_is_stale(repo: GitRepo) -> None:
    """"No npm lockfile here" was true when written; a commit after it added the file."""
    body = "We use pnpm only: `package-lock.json` does not exist, so never run npm install.\n"
    sha = repo.write({"package-lock.json": "{}\n"}).commit("Add the npm lockfile",
                                                          "2026-07-01T09:00:00+00:00")
    report = run(repo, entry("a.md", body, written="2026-06-01T00:00:00+00:00"))
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.PATH_DRIFT
    assert (f"says `package-lock.json` does not exist, but git added it in {sha[:7]} on "
            "2026-07-01, after this memory was written") in finding.message
    assert finding.evidence["commit"] == sha and finding.evidence["kind"] == "added-since"
    (claim,) = report.claims["a.md"]
    assert claim.verdict is Verdict.CONTRADICTED


def test_a_file_said_missing_that_was_there_when_written_proves_nothing(repo: GitRepo) -> None:
    """A step for when the file is missing ("if there is no `docs/` ...") names a file that
    was already there: no history shows the memory turned wrong."""
    body = "Setup: if there is no `docs/` yet, create it; `scripts/seed.py` does not exist on CI.\n"
    report = run(repo, entry("a.md", body, written="2026-06-01T00:00:00+00:00"))
    assert report.findings["a.md"] == ()


def test_a_directory_name_deleted_wherever_it_was_is_drift(tmp_path: Path) -> None:
    """`billing/` written for either of two folders of that name, both deleted in one
    commit: whichever the memory meant is gone."""
    repo = GitRepo(tmp_path / "other")
    repo.write({"api/billing/charge.py": "charge()\n", "web/billing/page.tsx": "page\n",
                "api/users.py": "users()\n"}).commit("start")
    sha = repo.rm("api/billing/charge.py").rm("web/billing/page.tsx").commit(
        "Drop billing", "2026-04-11T09:00:00+00:00")
    report = run(repo, entry("a.md", "Layout: `api/users.py`; `billing/` holds the charge code.\n"))
    (finding,) = report.findings["a.md"]
    assert finding.code is FindingCode.PATH_DRIFT
    assert f"was deleted in {sha[:7]} on 2026-04-11" in finding.message
    assert finding.evidence["tracked_as"] in ("api/billing", "web/billing")


def test_a_directory_name_moved_from_one_of_its_places_proves_nothing(tmp_path: Path) -> None:
    """One `billing/` was moved, not deleted: the memory may mean the one that lives on."""
    repo = GitRepo(tmp_path / "other")
    repo.write({"api/billing/charge.py": "charge()\n", "web/billing/page.tsx": "page\n",
                "api/users.py": "users()\n"}).commit("start")
    repo.rm("api/billing/charge.py").mv("web/billing/page.tsx", "web/pay/page.tsx")
    repo.commit("Rework billing")
    report = run(repo, entry("a.md", "Layout: `api/users.py`; `billing/` holds the charge code.\n"))
    assert report.findings["a.md"] == ()
