"""No git call reaches the network: a partial clone's missing objects are not downloaded.

Rename detection reads old file contents. In a partial clone (`--filter=blob:none`) those
are missing, and git would fetch them from the remote on demand. The pass must stay offline
and deterministic, so it reads such a repo as unavailable and says why in plain words.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from prune_memory.evidence.gitrepo import grep_lines, ignored_paths, read_repo_facts
from tests.evidence.probes.gitbuild import GitRepo


def _objects(repo: Path) -> str:
    return subprocess.run(["git", "count-objects", "-v"], cwd=repo, check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture
def partial_clone(tmp_path: Path) -> Path:
    source = GitRepo(tmp_path / "source")
    source.write({"old.txt": "".join(f"line {n}\n" for n in range(200))}).commit("add")
    source.mv("old.txt", "new.txt").write({"new.txt": "".join(
        f"line {n}\n" for n in range(201))}).commit("rename and edit")
    source.git("config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--filter=blob:none", f"file://{source.root}",
                    str(clone)], check=True, capture_output=True)
    return clone


def test_a_partial_clone_is_read_without_fetching(partial_clone: Path) -> None:
    before = _objects(partial_clone)
    facts = read_repo_facts(partial_clone)
    assert _objects(partial_clone) == before  # nothing was downloaded
    assert facts.available and facts.partial  # the tree-level history is still there
    assert "partial clone: old file contents missing" in facts.describe()
    # old.txt was moved and edited in one commit: without the old contents that cannot be
    # told from a deletion, so it is not called deleted
    assert "old.txt" not in facts.deletions and "old.txt" not in facts.renames


def test_a_partial_clone_still_proves_deletions_and_exact_renames(tmp_path: Path) -> None:
    source = GitRepo(tmp_path / "source")
    source.write({"keep.txt": "same\n", "gone.txt": "bye\n", "old.txt": "x\n" * 50})
    source.commit("add")
    source.mv("keep.txt", "moved.txt").commit("move unchanged")
    source.rm("gone.txt").commit("remove")
    source.git("config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--filter=blob:none", f"file://{source.root}",
                    str(clone)], check=True, capture_output=True)
    facts = read_repo_facts(clone)
    assert facts.partial
    assert facts.renames["keep.txt"].current == "moved.txt"
    assert facts.deletions["gone.txt"].path == "gone.txt"


def test_a_damaged_clone_is_read_as_far_as_its_objects_go(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"old.txt": "".join(f"line {n}\n" for n in range(200))}).commit("add")
    blob = repo.git("rev-parse", "HEAD:old.txt")
    repo.mv("old.txt", "new.txt").write({"new.txt": "".join(
        f"line {n}\n" for n in range(201))}).commit("rename and edit")
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    facts = read_repo_facts(repo.root)
    assert facts.available and facts.partial
    assert "new.txt" in facts.tracked


def test_a_clone_missing_trees_is_unavailable_with_the_reason(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"dir/a.txt": "a\n"}).commit("add")
    tree = repo.git("rev-parse", "HEAD:dir")
    repo.write({"dir/a.txt": "b\n"}).commit("change")
    (repo.root / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    facts = read_repo_facts(repo.root)
    assert not facts.available
    assert facts.reason.startswith("objects are missing from this clone")


def test_other_git_failures_give_git_own_first_line(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"a.txt": "a\n"}).commit("add")
    (repo.root / ".git" / "index").write_bytes(b"not an index")
    facts = read_repo_facts(repo.root)
    assert not facts.available
    assert facts.reason.startswith("git failed: ")
    assert "stderr" not in facts.reason and "'" not in facts.reason


def test_a_git_dir_set_by_an_outer_git_does_not_redirect_the_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = GitRepo(tmp_path / "project")
    project.write({"src/a.py": "class Thing:\n    pass\n", ".gitignore": "build/\n"})
    project.commit("add")
    other = GitRepo(tmp_path / "other")
    other.write({"b.txt": "b\n"}).commit("other")
    monkeypatch.setenv("GIT_DIR", str(other.root / ".git"))  # as inside another repo's hook
    monkeypatch.setenv("GIT_INDEX_FILE", str(other.root / ".git" / "index"))
    assert grep_lines(project.root, ["class Thing"]) == [("src/a.py", 1, "class Thing:")]
    assert ignored_paths(project.root, ["build/x.o"]) == frozenset({"build/x.o"})
    assert "src/a.py" in read_repo_facts(project.root).tracked


def test_in_a_partial_clone_each_claim_says_whether_it_was_checked(partial_clone: Path) -> None:
    from prune_memory.config import Config
    from prune_memory.procedure.staleness import probe_staleness
    from tests.evidence.probes.gitbuild import NOW, entry, memdir
    body = "See `new.txt`; the loader calls `parse_rows()` at start.\n"
    report = probe_staleness(memdir(entry("a.md", body)), partial_clone, NOW, Config())
    notes = {c.text: (c.verdict.value, c.note) for c in report.claims["a.md"]}
    assert notes["new.txt"][0] == "confirmed"
    assert notes["parse_rows"] == ("unverifiable", "not in the code now; the clone lacks the "
                                   "old contents that would say when")
    (unchecked,) = [f for f in report.findings["a.md"] if f.code.value == "unverifiable"]
    assert "parse_rows" in unchecked.message


def test_a_git_that_never_ends_is_stopped_and_gives_no_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A git process past its time limit is killed: no answer, never a hung pass."""
    from prune_memory.evidence import gitrun

    monkeypatch.setattr(gitrun, "GIT_TIMEOUT_S", 0.2)
    monkeypatch.setattr(gitrun, "git_argv", lambda *args: ["sleep", "300"])
    assert gitrun.run_git(tmp_path, ["log"]) is None
    # the rest must end on their own, however loaded the machine: no limit that could bite
    monkeypatch.setattr(gitrun, "GIT_TIMEOUT_S", 3600)
    monkeypatch.setattr(gitrun, "git_argv", lambda *args: ["cat"])
    assert gitrun.run_git(tmp_path, ["log"], stdin=b"given\n") == b"given\n"
    monkeypatch.setattr(gitrun, "git_argv", lambda *args: ["false"])
    assert gitrun.run_git(tmp_path, ["log"]) is None
    assert gitrun.run_git(tmp_path, ["log"], answers=(0, 1)) == b""
