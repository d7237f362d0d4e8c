"""version-drift of the tools a project runs on: a tool a memory is about whose files the
repo no longer has.

A tool leaves files behind while the project uses it: Docker its Dockerfile, Travis its
`.travis.yml`, Git LFS its `filter=lfs` lines in `.gitattributes`. When history shows such a
file and the repo has none of them now, the tool was dropped, and the commit that took the
last one out is the evidence. A memory about that tool (named in its title or description)
is about something gone: withdrawn, not updated. A tool the repo never had files for proves
nothing by its absence.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from prune_memory.evidence.gitrepo import CommitInfo
from prune_memory.evidence.probes.base import (
    EMPTY,
    Claim,
    ProbeContext,
    ProbeResult,
    Verdict,
    flag,
)
from prune_memory.evidence.probes.evidence import commit_fields, said
from prune_memory.model import Entry, FindingCode

KIND = "tool"

# A tool, the words prose names it by, and the files (globs, repo-relative) it leaves.
FOOTPRINTS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "Git LFS": (r"git[ -]?lfs|\blfs\b", (".lfsconfig",)),
    "Docker": (r"\bdocker\b|dockerfile", ("Dockerfile", "**/Dockerfile", "*.Dockerfile")),
    "Docker Compose": (r"docker[ -]compose", ("docker-compose.yml", "docker-compose.yaml",
                                              "compose.yml", "compose.yaml")),
    "Travis CI": (r"\btravis\b", (".travis.yml",)),
    "CircleCI": (r"\bcircle ?ci\b", (".circleci/config.yml",)),
    "GitLab CI": (r"gitlab[ -]ci", (".gitlab-ci.yml",)),
    "Jenkins": (r"\bjenkins(?:file)?\b", ("Jenkinsfile",)),
    "Husky": (r"\bhusky\b", (".husky/*",)),
    "pre-commit": (r"\bpre-commit\b", (".pre-commit-config.yaml",)),
    "Poetry": (r"\bpoetry\b", ("poetry.lock",)),
    "Pipenv": (r"\bpipenv\b", ("Pipfile", "Pipfile.lock")),
    "Yarn": (r"\byarn\b", ("yarn.lock",)),
    "pnpm": (r"\bpnpm\b", ("pnpm-lock.yaml",)),
    "Bun": (r"\bbun\b", ("bun.lockb", "bun.lock")),
    "Terraform": (r"\bterraform\b", ("*.tf", "**/*.tf")),
    "Vagrant": (r"\bvagrant\b", ("Vagrantfile",)),
    "Netlify": (r"\bnetlify\b", ("netlify.toml",)),
    "Vercel": (r"\bvercel\b", ("vercel.json",)),
    "Heroku": (r"\bheroku\b", ("Procfile", "app.json")),
    "tox": (r"\btox\b", ("tox.ini",)),
    "Gradle": (r"\bgradle\b", ("build.gradle", "build.gradle.kts", "**/build.gradle",
                               "**/build.gradle.kts")),
    "Maven": (r"\bmaven\b", ("pom.xml", "**/pom.xml")),
    "Bazel": (r"\bbazel\b", ("WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel")),
    "Storybook": (r"\bstorybook\b", (".storybook/*",)),
    "Capacitor": (r"\bcapacitor\b", ("capacitor.config.ts", "capacitor.config.json")),
    "Firebase": (r"\bfirebase\b", ("firebase.json", ".firebaserc")),
    "Supabase CLI": (r"\bsupabase\b", ("supabase/config.toml",)),
}
_LFS_LINE = re.compile(r"filter=lfs\b")
_LFS_COMMIT = re.compile(r"\blfs\b", re.IGNORECASE)


@dataclass(frozen=True)
class Dropped:
    """A tool whose files the repo had and has no more, and the commit that took them."""

    tool: str
    path: str
    commit: str
    date: str


class FootprintProbe:
    """Checks each tool a memory names against the files that tool leaves in a repo."""

    code = FindingCode.VERSION_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        if not ctx.facts.available or ctx.facts.root is None:
            return EMPTY
        named = _named_tools(entry)
        if not named:
            return EMPTY
        result = EMPTY
        head = " ".join((entry.name, entry.file, entry.description))
        states = ctx.memo("footprint.states", dict)
        for tool in named:
            if tool not in states:
                states[tool] = _state(tool, ctx)
            state: Dropped | str | None = states[tool]
            if state is None:
                continue
            if isinstance(state, str):
                result = result + ProbeResult((Claim(KIND, tool, Verdict.CONFIRMED, state),))
                continue
            if state.date <= entry.written_at[0].date().isoformat():
                continue  # dropped before the memory was written: it may tell the history
            central = re.search(FOOTPRINTS[tool][0], head, re.IGNORECASE) is not None
            message = (f"{tool} is no longer used here: {state.path}, the last of its files, "
                       f"went in {state.commit} on {state.date}")
            evidence = said(tool, "dropped", kind="tool-dropped", tool=tool, path=state.path,
                            central=central, **commit_fields(ctx, state.commit))
            claim = Claim(KIND, tool, Verdict.CONTRADICTED, f"dropped in {state.commit}")
            result = result + ProbeResult((claim,), (flag(FindingCode.VERSION_DRIFT, message,
                                                          evidence),))
        return result


def _named_tools(entry: Entry) -> list[str]:
    text = f"{entry.name}\n{entry.description}\n{entry.body}"
    return [tool for tool, (words, _globs) in FOOTPRINTS.items()
            if re.search(words, text, re.IGNORECASE)]


def _state(tool: str, ctx: ProbeContext) -> Dropped | str | None:
    """Where the repo uses the tool now (a phrase), when it dropped it, or None when it
    never left a file of the tool's."""
    globs = FOOTPRINTS[tool][1]
    now = [p for p in ctx.facts.tracked if _matches(p, globs)]
    if tool == "Git LFS" and not now:
        return _lfs(ctx)
    if now:
        return f"`{sorted(now)[0]}` is tracked"
    gone = [d for p, d in ctx.facts.deletions.items() if _matches(p, globs)]
    if not gone:
        return None
    last = max(gone, key=lambda d: d.date)
    return Dropped(tool, f"`{last.path}`", last.commit, last.date.date().isoformat())


def _lfs(ctx: ProbeContext) -> Dropped | str | None:
    """Git LFS lives in `.gitattributes` lines: used while one says `filter=lfs`; dropped
    when none does now and a commit that changed the file names LFS."""
    root = ctx.facts.root
    if root is None or ".gitattributes" not in ctx.facts.tracked:
        return None
    if _LFS_LINE.search(_read(root / ".gitattributes")):
        return "`.gitattributes` routes files through it"
    commits: dict[str, CommitInfo] = {}
    for logged in ctx.facts.history:
        if any(c.path == ".gitattributes" for c in logged.changes) and \
                _LFS_COMMIT.search(logged.info.message):
            commits[logged.info.sha] = logged.info
    if not commits:
        return None
    last = max(commits.values(), key=lambda c: c.date)
    return Dropped("Git LFS", "the `filter=lfs` lines of `.gitattributes`", last.short,
                   last.day)


def _matches(path: str, globs: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(path, g) for g in globs)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[:200_000]
    except OSError:
        return ""


__all__ = ["FOOTPRINTS", "Dropped", "FootprintProbe"]
