"""gitrepo: one snapshot of a real repo, read in a fixed number of git calls."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import git
import pytest

from prune_memory.evidence.gitrepo import (
    RenameFact,
    ignored_paths,
    read_repo_facts,
    strip_credentials,
)
from prune_memory.evidence.probes.dirfate import directory_fate
from tests.evidence.probes.gitbuild import GitRepo


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


def test_rename_chain_resolves_to_the_current_path(repo: GitRepo) -> None:
    repo.write({"src/a.py": "alpha content that stays the same\n" * 5}).commit("add a")
    first = repo.mv("src/a.py", "src/b.py").commit("a to b")
    second = repo.mv("src/b.py", "lib/c.py").commit("b to c")
    facts = read_repo_facts(repo.root)
    fate = facts.renames["src/a.py"]
    assert fate.current == "lib/c.py"
    assert [h.new for h in fate.hops] == ["src/b.py", "lib/c.py"]
    assert [h.sha for h in fate.hops] == [first, second]
    assert fate.commit == first[: len(fate.commit)]
    assert facts.renames["src/b.py"].current == "lib/c.py"
    assert "src/a.py" not in facts.deletions and "src/b.py" not in facts.deletions


def test_a_move_with_an_edit_is_paired_but_a_big_file_is_not_compared(
        repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves with edits are found by content in the commits that still add and delete;
    a file over RENAME_MAX_BYTES is left out of that comparison (a committed build)."""
    monkeypatch.setattr("prune_memory.evidence.gitrepo.RENAME_MAX_BYTES", 4096)
    body = "".join(f"line {n} of a module that moves\n" for n in range(40))
    blob = "".join(f"row {n} of a large generated file\n" for n in range(400))
    repo.write({"src/a.py": body, "bin/app.dat": blob, "keep.txt": "x\n"}).commit("add")
    repo.mv("src/a.py", "lib/a.py").mv("bin/app.dat", "out/app.dat")
    moved = repo.write({"lib/a.py": body + "one edit\n",
                        "out/app.dat": blob + "one edit\n"}).commit("move both, edit both")
    facts = read_repo_facts(repo.root)
    assert facts.renames["src/a.py"].current == "lib/a.py"
    assert facts.renames["src/a.py"].sha == moved
    assert "bin/app.dat" not in facts.renames
    assert facts.deletions["bin/app.dat"].sha == moved
    assert facts.git_calls == 4 + 2  # the exact pass, then one more log and one cat-file


def test_renamed_then_deleted_is_never_called_a_plain_deletion(repo: GitRepo) -> None:
    repo.write({"a.txt": "some text that git can follow\n" * 4}).commit("add")
    repo.mv("a.txt", "b.txt").commit("rename")
    gone = repo.rm("b.txt").commit("delete b")
    facts = read_repo_facts(repo.root)
    assert "a.txt" not in facts.deletions
    fate = facts.renames["a.txt"]
    assert fate.current is None
    assert fate.deleted is not None and fate.deleted.sha == gone
    assert facts.deletions["b.txt"].sha == gone


def test_plain_deletion_records_commit_and_date(repo: GitRepo) -> None:
    repo.write({"scripts/seed.py": "print(1)\n", "keep.py": "x = 1\n"}).commit("add")
    sha = repo.rm("scripts/seed.py").commit("drop the seed script", "2026-05-05T10:00:00+00:00")
    facts = read_repo_facts(repo.root)
    fact = facts.deletions["scripts/seed.py"]
    assert (fact.sha, fact.date.date().isoformat()) == (sha, "2026-05-05")
    assert facts.deleted_under_dir["scripts"].sha == sha
    assert "scripts" not in facts.directories and "scripts" in facts.seen


def test_path_that_never_existed_is_unknown_everywhere(repo: GitRepo) -> None:
    repo.write({"a.py": "x\n"}).commit("add")
    facts = read_repo_facts(repo.root)
    for table in (facts.renames, facts.deletions):
        assert "ghost/never.py" not in table
    assert "ghost/never.py" not in facts.seen and "ghost" not in facts.seen


def test_directories_and_a_directory_rename(repo: GitRepo) -> None:
    repo.write({"api/auth/login.py": "def login():\n    return 1\n" * 3,
                "api/auth/tokens.py": "def token():\n    return 2\n" * 3}).commit("add")
    sha = repo.mv("api/auth", "api/session").commit("rename the package")
    facts = read_repo_facts(repo.root)
    assert {"api", "api/session"} <= facts.directories
    fate = directory_fate(facts, "api/auth")
    assert isinstance(fate, RenameFact) and fate.current == "api/session"
    assert fate.hops[0].sha == sha


def test_paths_with_spaces_and_unicode_survive_the_log(repo: GitRepo) -> None:
    repo.write({"docs/design notes.md": "a design note with enough text\n" * 4,
                "docs/café.md": "menu\n"}).commit("add")
    repo.mv("docs/design notes.md", "docs/design/notes v2.md").commit("move")
    facts = read_repo_facts(repo.root)
    assert "docs/café.md" in facts.tracked
    assert facts.renames["docs/design notes.md"].current == "docs/design/notes v2.md"


def test_not_a_repo_is_unavailable_not_an_error(tmp_path: Path) -> None:
    facts = read_repo_facts(tmp_path / "plain")
    assert not facts.available and "not inside a git repository" in facts.reason
    assert not read_repo_facts(None).available


def test_repo_without_commits(repo: GitRepo) -> None:
    repo.write({"staged.py": "x\n"}).git("add", "staged.py")
    facts = read_repo_facts(repo.root)
    assert facts.available and not facts.has_commits
    assert facts.tracked == frozenset({"staged.py"}) and facts.commits == ()


def test_shallow_clone_reads_what_it_has(repo: GitRepo, tmp_path: Path) -> None:
    repo.write({"old.py": "content that will move somewhere\n" * 4}).commit("add")
    repo.mv("old.py", "new.py").commit("rename")
    repo.write({"more.py": "y\n"}).commit("more")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.root}", str(clone)],
                   check=True, capture_output=True)
    facts = read_repo_facts(clone)
    assert facts.available and facts.shallow
    assert facts.tracked == frozenset({"new.py", "more.py"})
    assert len(facts.commits) == 1
    assert "old.py" not in facts.renames  # the rename is below the shallow boundary


def test_rename_back_and_forth_ends_tracked(repo: GitRepo) -> None:
    repo.write({"a.md": "a text git can follow across renames\n" * 4}).commit("add")
    repo.mv("a.md", "b.md").commit("to b")
    repo.mv("b.md", "a.md").commit("back to a")
    facts = read_repo_facts(repo.root)
    assert "a.md" in facts.tracked and "a.md" not in facts.renames
    assert facts.renames["b.md"].current == "a.md"


def test_manifest_history_and_remote_without_credentials(repo: GitRepo) -> None:
    repo.write({"package.json": '{"name": "old-name"}\n'}).commit("add")
    repo.write({"package.json": '{"name": "new-name"}\n'}).commit("rename")
    repo.git("remote", "add", "origin", "https://bot:ghp_secretvalue@github.com/acme/new-name")
    facts = read_repo_facts(repo.root)
    texts = [v.text for v in facts.manifests["package.json"]]
    assert texts == ['{"name": "old-name"}\n', '{"name": "new-name"}\n']
    assert facts.current_manifests["package.json"] == '{"name": "new-name"}\n'
    assert facts.remote_url == "https://github.com/acme/new-name"
    assert "ghp_" not in facts.describe()


def test_strip_credentials_leaves_plain_urls_alone() -> None:
    assert strip_credentials("git@github.com:a/b.git") == "git@github.com:a/b.git"
    assert strip_credentials("https://u:p@host/x") == "https://host/x"


def test_git_calls_are_a_fixed_handful(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(5):
        repo.write({f"f{n}.py": f"{n}\n", "package.json": f'{{"name": "p{n}"}}\n'}).commit(str(n))
    calls: list[list[str]] = []
    real: Any = git.cmd.Git.execute

    def counting(self: git.cmd.Git, command: list[str], *args: object, **kwargs: object) -> object:
        calls.append(list(command))
        return real(self, command, *args, **kwargs)

    monkeypatch.setattr(git.cmd.Git, "execute", counting)
    facts = read_repo_facts(repo.root)
    subcommands = [next(a for i, a in enumerate(c[1:], 1) if not a.startswith("-")
                        and c[i - 1] != "-c") for c in calls]
    assert subcommands == ["rev-parse", "ls-files", "log", "for-each-ref", "cat-file"]
    assert all("core.fsmonitor=" in c for c in calls)  # each runs with the repo's programs off
    assert facts.git_calls == 5


def test_ignored_paths_answers_as_git_does_with_its_index(repo: GitRepo) -> None:
    """Outside the index, asking without it gives git's own answer (and is far cheaper)."""
    repo.write({".gitignore": "*.log\nbuild/\n!keep.log\nsecret/*.env\n", "src/app.py": "x\n",
                "src/sub/.gitignore": "local.cfg\n", "kept.log": "forced\n"})
    repo.git("add", "-A")
    repo.git("add", "-f", "kept.log")
    repo.commit("start")
    queries = ["a.log", "keep.log", "build", "build/", "build/x.o", "src/app.log",
               "src/sub/local.cfg", "src/local.cfg", "secret/.env", "secret/a.env", "x/y.txt",
               "docs/build/", "notes.md"]
    facts = read_repo_facts(repo.root)
    assert not set(queries) & (facts.tracked | facts.directories)
    with_index = subprocess.run(["git", "check-ignore", "--stdin", "-z"], cwd=repo.root,
                                input="\0".join(queries).encode() + b"\0", capture_output=True)
    expected = {p for p in with_index.stdout.decode().split("\0") if p}
    assert ignored_paths(repo.root, queries) == expected
    assert expected >= {"a.log", "build/", "src/app.log", "src/sub/local.cfg", "secret/a.env"}
