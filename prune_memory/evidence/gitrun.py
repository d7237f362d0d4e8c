"""How every git call runs: offline, whatever the repo or the user's settings, and what a
failure means in words a person can act on."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import git

# Git 2.44+ reads the first; before it, allowing no transport stops the lazy fetch all the same.
OFFLINE = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": "none", "GIT_TERMINAL_PROMPT": "0"}
_MISSING_OBJECTS = re.compile(r"unable to read|could not fetch|bad object|missing (?:blob|tree)"
                              r"|promisor|lazy fetching|transport '[^']*' not allowed")


# What `git rev-parse --local-env-vars` lists: set by an outer git (a hook, say), they would
# point a process started in the project at another repository, index or object store.
_REPO_VARS = frozenset({
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR"})


@contextmanager
def own_repository() -> Iterator[None]:
    """While GitPython reads the repo: none of those variables in the environment. GitPython
    starts git with the process environment and can add to it, never take away."""
    saved = {key: os.environ.pop(key) for key in list(os.environ) if key in _REPO_VARS}
    try:
        yield
    finally:
        os.environ.update(saved)


# Config a cloned repository may carry that makes git start a program of its choosing. Every
# call blanks each of them on its command line, where nothing in the repo can override it.
NEUTRAL_CONFIG = (
    "core.fsmonitor=", "core.hooksPath=/dev/null", "core.pager=cat", "pager.log=false",
    "pager.grep=false", "diff.external=", "core.sshCommand=", "core.askPass=",
    "credential.helper=", "core.editor=true", "sequence.editor=true", "gpg.program=true",
    "log.showSignature=false", "core.alternateRefsCommand=", "protocol.allow=never",
    "core.gitProxy=", "uploadpack.packObjectsHook=")
# Options every diffing read takes: textconv filters and external diff drivers never run.
NO_PROGRAMS = ("--no-textconv", "--no-ext-diff")


def git_argv(*args: str) -> list[str]:
    """The command line of a git process started directly: no pager, none of the repo's
    programs (`NEUTRAL_CONFIG`), then `args`."""
    config = [arg for pair in NEUTRAL_CONFIG for arg in ("-c", pair)]
    return ["git", "--no-pager", *config, *args]


def neutralise(repo: git.Repo) -> None:
    """Make every later call through `repo.git` run as `git_argv` does, and offline."""
    repo.git.update_environment(**OFFLINE)
    repo.git.set_persistent_git_options(no_pager=True, c=list(NEUTRAL_CONFIG))


GIT_TIMEOUT_S = 60


def run_git(root: Path, args: list[str], *, stdin: bytes | None = None,
            answers: tuple[int, ...] = (0,)) -> bytes | None:
    """The output of one git process started directly in `root` (`git_argv`, offline), or
    None when it could not run, ran out of time or ended with a status not in `answers`.

    Output goes through a temporary file, not a pipe: the thread that waits holds no lock
    meanwhile, so git's work overlaps Python's on another thread (a pipe is read in chunks,
    each waiting its turn for the interpreter)."""
    try:
        with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as out:
            if stdin is not None:
                given.write(stdin)
                given.seek(0)
            proc = subprocess.Popen(git_argv(*args), cwd=root, env=offline_env(),
                                    stdin=given if stdin is not None else subprocess.DEVNULL,
                                    stdout=out, stderr=subprocess.DEVNULL)
            timer = threading.Timer(GIT_TIMEOUT_S, proc.kill)  # a hung git is stopped
            timer.start()
            try:
                status = proc.wait()
            finally:
                timer.cancel()
            if status not in answers:  # a git the timer stopped ends with a negative status
                return None
            out.seek(0)
            return out.read()
    except OSError:
        return None


def offline_env() -> dict[str, str]:
    """The environment for a git process started directly in the project (not through
    GitPython): offline, and about the repository it runs in, whatever an outer git set."""
    return {**{k: v for k, v in os.environ.items() if k not in _REPO_VARS}, **OFFLINE}


def missing_objects(err: git.GitCommandError) -> bool:
    """The clone lacks objects (partial, or damaged)."""
    return _MISSING_OBJECTS.search(str(err.stderr or "")) is not None


def failure_reason(err: git.GitCommandError) -> str:
    """What went wrong, in words: git's own first line without GitPython's quoting, or the
    advice for a clone that lacks objects (partial, or damaged)."""
    text = str(err.stderr or "").strip().removeprefix("stderr:").strip().strip("'")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if _MISSING_OBJECTS.search(text):
        return ("objects are missing from this clone, partial or damaged; fetching them "
                "would need the network, so give --repo a full clone")
    return f"git failed: {lines[0] if lines else f'exit status {err.status}'}"
