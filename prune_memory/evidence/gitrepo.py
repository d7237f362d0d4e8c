"""Everything the tool learns from git, gathered in a fixed handful of git calls.

The calls are: one `rev-parse`, one `ls-files -z`, one `log -z -M --name-status`, one
`for-each-ref` for the tags, one `cat-file --batch` process for the old versions of
manifests (`evidence/manifests.py`), and one `check-ignore` (asked by the path probes).
None of them is repeated per memory or per claim. A path that is not a repo gives facts marked
unavailable instead of an error, so the probes can answer `unverifiable`.

None of them reaches the network either: in a partial clone, rename detection would otherwise
download the old file contents it reads. Such a repo is read as unavailable, with the reason.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import git

from prune_memory.evidence.githistory import (
    COMMIT_MARK,
    FIELD_MARK,
    LOG_FORMAT,
    RENAME_LIMIT,
    Change,
    CommitInfo,
    DeletionFact,
    LoggedCommit,
    RenameFact,
    RenameHop,
    build_history,
    parents,
    parse_log,
)
from prune_memory.evidence.gitrun import (
    NO_PROGRAMS,
    failure_reason,
    missing_objects,
    neutralise,
    own_repository,
    run_git,
)
from prune_memory.evidence.manifests import (
    ManifestVersion,
    current_manifests,
    is_manifest,
    manifest_history,
)

__all__ = ["COMMIT_MARK", "FIELD_MARK", "Change", "CommitInfo", "DeletionFact", "LoggedCommit",
           "ManifestVersion", "RenameFact", "RenameHop", "RepoFacts", "TagInfo", "is_manifest",
           "read_repo_facts"]

# Files above this size are not compared for moves with edits (see _with_edited_moves).
RENAME_MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class TagInfo:
    """A tag: its name, the short sha it points at, and its date."""

    name: str
    commit: str
    date: datetime | None


@dataclass(frozen=True)
class RepoFacts:
    """A frozen snapshot of the project repo, read once per pass."""

    root: Path | None
    available: bool
    reason: str = ""
    shallow: bool = False
    # A partial clone: old file contents are missing, so only exact renames are known and
    # what needs old contents (inexact renames, old manifests, old code) is not checked.
    partial: bool = False
    has_commits: bool = False
    tracked: frozenset[str] = frozenset()
    directories: frozenset[str] = frozenset()
    renames: Mapping[str, RenameFact] = field(default_factory=dict)
    deletions: Mapping[str, DeletionFact] = field(default_factory=dict)
    seen: frozenset[str] = frozenset()
    moves_out_of_dir: Mapping[str, tuple[RenameHop, ...]] = field(default_factory=dict)
    deleted_under_dir: Mapping[str, DeletionFact] = field(default_factory=dict)
    commits: tuple[CommitInfo, ...] = ()
    history: tuple[LoggedCommit, ...] = ()
    manifests: Mapping[str, tuple[ManifestVersion, ...]] = field(default_factory=dict)
    current_manifests: Mapping[str, str] = field(default_factory=dict)
    remote_url: str | None = None
    tags: tuple[TagInfo, ...] = ()
    git_calls: int = 0

    def describe(self) -> str:
        """A short phrase saying which repo was read, for evidence and reports."""
        if not self.available:
            return f"no usable git repo ({self.reason})"
        shallow = ", shallow clone" if self.shallow else ""
        partial = ", partial clone: old file contents missing" if self.partial else ""
        counts = f"{len(self.tracked)} tracked files, {len(self.commits)} commits"
        return f"{self.root} ({counts}{shallow}{partial})"


def unavailable(root: Path | None, reason: str) -> RepoFacts:
    return RepoFacts(root=root, available=False, reason=reason)


def read_repo_facts(path: Path | None) -> RepoFacts:
    """Read the repo at `path` (or an enclosing one). Not a repo → facts marked unavailable."""
    if path is None:
        return unavailable(None, "no repository given")
    with own_repository():  # not the repo a surrounding git (a hook, say) points at
        return _open_and_read(path)


def _open_and_read(path: Path) -> RepoFacts:
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return unavailable(path, f"{path} is not inside a git repository")
    neutralise(repo)
    try:
        if repo.bare or repo.working_tree_dir is None:
            return unavailable(path, f"{path} is a bare repository")
        return _read(repo, Path(repo.working_tree_dir))
    except git.GitCommandError as err:
        return unavailable(path, failure_reason(err))
    finally:
        repo.git.clear_cache()
        repo.close()


def _read(repo: git.Repo, root: Path) -> RepoFacts:
    shallow = repo.git.rev_parse("--is-shallow-repository").strip() == "true"
    tracked = frozenset(p for p in repo.git.ls_files("-z").split("\0") if p)
    directories = frozenset(d for p in tracked for d in parents(p))
    partial = _promised(repo)
    raw_log = _log(repo)
    commits = parse_log(raw_log) if raw_log is not None else []
    calls = 4
    if not partial:
        try:
            commits, extra = _with_edited_moves(repo, commits)
            calls += extra
        except git.GitCommandError as err:
            if not missing_objects(err):
                raise
            # Old contents are missing: exact renames need only the tree, so keep those.
            partial, calls = True, calls + 2  # the size lookups and the log that failed
    tags = _tags(repo)
    oldest_first = list(reversed(commits))
    history = build_history(oldest_first, tracked, exact_only=partial)
    manifests, manifest_calls = manifest_history(repo, oldest_first)
    return RepoFacts(
        root=root, available=True, shallow=shallow, partial=partial,
        has_commits=bool(commits),
        tracked=tracked, directories=directories,
        renames=history.renames, deletions=history.deletions,
        seen=history.seen_paths | tracked | directories
        | frozenset(d for p in history.seen_paths for d in parents(p)),
        moves_out_of_dir=history.moves_out_of_dir,
        deleted_under_dir=history.deleted_under_dir,
        commits=tuple(c.info for c in commits),
        history=tuple(oldest_first),
        manifests=manifests,
        current_manifests=current_manifests(root, tracked),
        remote_url=_remote_url(repo),
        tags=tags,
        git_calls=calls + manifest_calls,
    )


def _log(repo: git.Repo) -> str | None:
    """The whole history in one pass, pairing only renames of unchanged files, which needs
    no file contents; None for a repository with no commits yet."""
    try:
        # --root and --no-show-signature pin what a user's log.* settings could change.
        return str(repo.git.log("-z", "-M100%", f"-l{RENAME_LIMIT}",
                                "--name-status", *NO_PROGRAMS,
                                "--topo-order", "--no-color", "--root", "--no-show-signature",
                                f"--format={LOG_FORMAT}"))
    except git.GitCommandError as err:
        if "does not have any commits" in str(err.stderr) or "bad default revision" in str(
                err.stderr):
            return None
        raise


def _with_edited_moves(repo: git.Repo, commits: list[LoggedCommit],
                       ) -> tuple[list[LoggedCommit], int]:
    """Pair moves with edits, which git finds only by comparing contents, and only in the
    commits that still both add and delete a file after the exact pass. Files over
    RENAME_MAX_BYTES (committed builds, media) are left out of the comparison: reading them
    cost seconds per commit, and a memory cites source, not a 40 MB .dll. Returns the
    commits and the git processes spent (a fixed two, or none)."""
    wanted = [c for c in commits if _adds_and_deletes(c)]
    if not wanted:
        return commits, 0
    big = _big_files(repo, [(f"{commit.info.sha}{'^' if change.status == 'D' else ''}:"
                             f"{change.path}", change.path)
                            for commit in wanted for change in commit.changes
                            if change.status in "AD" and "\n" not in change.path])
    # Commits and paths go on stdin: thousands of them would not fit on a command line.
    asked = [c.info.sha for c in wanted] + ["--", ":(top)"] + [
        f":(top,literal,exclude){path}" for path in sorted(big) if "\n" not in path]
    with tempfile.TemporaryFile() as stdin:
        stdin.write(("\n".join(asked) + "\n").encode("utf-8", "surrogateescape"))
        stdin.seek(0)
        raw = str(repo.git.log(
            "-z", "--stdin", "--no-walk=unsorted", "-M", f"-l{RENAME_LIMIT}", "--name-status",
            *NO_PROGRAMS, "--no-color", "--no-show-signature", f"--format={LOG_FORMAT}",
            istream=stdin))
    paired = {c.info.sha: c for c in parse_log(raw)}
    out: list[LoggedCommit] = []
    for commit in commits:
        again = paired.get(commit.info.sha)
        if again is None:
            out.append(commit)
            continue
        left_out = tuple(c for c in commit.changes if c.path in big or (
            c.old_path is not None and c.old_path in big))
        out.append(LoggedCommit(commit.info, again.changes + left_out))
    return out, 2


def _big_files(repo: git.Repo, refs: list[tuple[str, str]]) -> set[str]:
    """The paths whose blob (`rev:path`) is over RENAME_MAX_BYTES, asked in one `cat-file`:
    one round trip per blob cost more than the whole log on a repo with many moves."""
    if not refs:
        return set()
    with tempfile.TemporaryFile() as stdin:
        stdin.write("".join(f"{ref}\n" for ref, _ in refs).encode("utf-8", "surrogateescape"))
        stdin.seek(0)
        raw = str(repo.git.cat_file("--batch-check", istream=stdin, strip_newline_in_stdout=False))
    big: set[str] = set()
    for (_ref, path), line in zip(refs, raw.split("\n"), strict=False):
        fields = line.split(" ")  # "<sha> <type> <size>", or "<ref> missing" for a lost blob
        if len(fields) == 3 and fields[2].isdigit() and int(fields[2]) > RENAME_MAX_BYTES:
            big.add(path)
    return big


def _adds_and_deletes(commit: LoggedCommit) -> bool:
    statuses = {change.status for change in commit.changes}
    return "A" in statuses and "D" in statuses


def _promised(repo: git.Repo) -> bool:
    """A partial clone, by its config (no process): objects it lacks are promised by a
    remote, which the pass never asks."""
    try:
        reader = repo.config_reader("repository")
        if reader.has_option("extensions", "partialclone"):
            return True
        return any(reader.get_value(section, "promisor", False) is True
                   for section in reader.sections() if section.startswith("remote "))
    except (OSError, ValueError, KeyError):
        return False


def _tags(repo: git.Repo) -> tuple[TagInfo, ...]:
    """Every tag with its commit and date, in one `for-each-ref` call."""
    raw = str(repo.git.for_each_ref(
        "--format=%(refname:short)%00%(objectname:short)%00%(creatordate:iso-strict)",
        "refs/tags"))
    out: list[TagInfo] = []
    for line in raw.splitlines():
        name, commit, stamp = [*line.split("\0"), "", ""][:3]
        try:
            date = datetime.fromisoformat(stamp) if stamp else None
        except ValueError:
            date = None
        out.append(TagInfo(name, commit, date))
    return tuple(out)


def _remote_url(repo: git.Repo) -> str | None:
    """The fetch URL of `origin`, else of the first remote; read from config, no process."""
    try:
        remotes = list(repo.remotes)
        chosen = next((r for r in remotes if r.name == "origin"), remotes[0] if remotes else None)
        return strip_credentials(str(chosen.url)) if chosen is not None else None
    except (ValueError, git.GitCommandError, KeyError):
        return None


def ignored_paths(root: Path | None, paths: list[str]) -> frozenset[str]:
    """Which of `paths` the repo's ignore rules cover, in one `git check-ignore` call.

    An ignored path proves nothing by its absence from history: it lives on a disk, not in
    git. Ask only about paths outside the index (neither tracked files nor directories
    holding them): the index would exempt nothing else, so git is told not to read it, which
    costs it a quarter of a millisecond per path on a 20,000-file repo.
    """
    if root is None or not paths:
        return frozenset()
    data = "\0".join(paths) + "\0"
    # status 1: none is ignored; anything else: no answer
    out = run_git(root, ["check-ignore", "--stdin", "-z", "--no-index"],
                  stdin=data.encode("utf-8"), answers=(0, 1))
    return frozenset(p for p in (out or b"").decode("utf-8", "replace").split("\0") if p)


def grep_lines(root: Path | None, patterns: list[str]) -> list[tuple[str, int, str]]:
    """(path, line number, line) of every tracked text line matching one of the extended
    regexes `patterns`, in one `git grep`; nothing when git gives no answer."""
    if root is None or not patterns:
        return []
    args = ["grep", "-n", "-I", "-E", "--no-color", "--no-column", "--no-textconv"]
    for pattern in patterns:
        args += ["-e", pattern]
    found = run_git(root, args, answers=(0, 1))  # 1: no line matched
    out: list[tuple[str, int, str]] = []
    for raw in (found or b"").decode("utf-8", "replace").splitlines():
        path, _, rest = raw.partition(":")
        number, _, text = rest.partition(":")
        if number.isdigit():
            out.append((path, int(number), text))
    return out


def strip_credentials(url: str) -> str:
    """A remote URL without any `user:token@` part, so no secret reaches a finding."""
    return re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@", r"\1", url)


# Documentation says what code was, is or will be: a name it mentions is no proof that the
# code holds it, so the word searches below read everything else.
DOC_FILES = ("*.md", "*.markdown", "*.rst", "*.txt", "*.adoc", "*.org")


def _word_search(root: Path, words: list[str], rev: str | None, paths: list[str],
                 exclude: list[str], *, listing: bool) -> list[str]:
    args = ["grep", "-I", "-F", "-w", "-l" if listing else "-o", "--no-color", "--no-column"]
    for word in words:
        args += ["-e", word]
    if rev is not None:
        args.append(rev)
    args.append("--")
    args += paths or ["."]
    args += [f":(exclude,glob)**/{pattern}" for pattern in DOC_FILES]
    args += [f":(exclude){path}" for path in exclude]
    found = run_git(root, args, answers=(0, 1))
    return (found or b"").decode("utf-8", "replace").splitlines()


def files_with_words(root: Path | None, words: list[str], *,
                     exclude: list[str]) -> frozenset[str]:
    """The tracked files, documentation aside, that hold any of `words` as a whole word, in
    one `git grep -l` (it stops reading a file at its first match, so it stays quick)."""
    if root is None or not words:
        return frozenset()
    return frozenset(_word_search(root, words, None, [], exclude, listing=True))


def words_at(root: Path | None, words: list[str], rev: str, paths: list[str], *,
             exclude: list[str]) -> dict[str, frozenset[str]]:
    """Word → the files among `paths` that held it at `rev`, in one `git grep`."""
    if root is None or not words or not paths:
        return {}
    found: dict[str, set[str]] = {}
    for line in _word_search(root, words, rev, paths, exclude, listing=False):
        _rev, _, rest = line.partition(":")
        path, _, word = rest.rpartition(":")
        found.setdefault(word, set()).add(path)
    return {word: frozenset(paths) for word, paths in found.items()}


HUNK_FORMAT = "%x1e%h%x1f%cI"  # COMMIT_MARK, short sha, FIELD_MARK, date


def word_changes(root: Path | None, words: list[str], since: str, paths: list[str]) -> str:
    """The log since `since` of the lines that added or removed one of `words` in `paths`,
    as `git log -G -p -U0` prints it (commits marked by `HUNK_FORMAT`), in one process."""
    if root is None or not words or not paths:
        return ""
    pattern = "(^|[^A-Za-z0-9_])(" + "|".join(re.escape(w) for w in words) + ")([^A-Za-z0-9_]|$)"
    found = run_git(root, ["log", "--no-color", "-p", "-U0", "--no-renames", *NO_PROGRAMS,
                           f"--format={HUNK_FORMAT}", "-G", pattern, f"{since}..HEAD", "--",
                           *paths])
    return (found or b"").decode("utf-8", "replace")
