"""What a command works on: the memory directory (named, or found the way Claude Code
names it, and refused when it is no memory directory) and the repo its claims are
checked against (with what to say first when none is found)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prune_memory.errors import BadInputError


def resolve_memory_dir(memory_dir: Path | None, project: Path | None,
                       option: Path | None = None) -> Path:
    """The directory named on the command line (MEMORY_DIR or --memory-dir), by --project,
    or for the current git root. Every command names it these same ways, and each refuses
    (exit 2, nothing changed) a folder that is no memory directory."""
    from prune_memory.claude.locate import memory_dir_for_project

    given = [g for g in (memory_dir, option, project) if g is not None]
    if len(given) > 1:
        raise BadInputError("name the memory directory once: MEMORY_DIR, --memory-dir or "
                            "--project")
    named = memory_dir or option
    if named is not None:
        return require_memory_dir(named)
    place = project or Path.cwd()
    found = memory_dir_for_project(place)
    if not found.is_dir():
        raise BadInputError(f"no memory directory for {place.expanduser().resolve()} yet: "
                            f"Claude Code would keep it in {found} (`prune-memory where` "
                            "says how it is found; name another with MEMORY_DIR)")
    return require_memory_dir(found)


def require_memory_dir(root: Path) -> Path:
    """`root` if it is a memory directory; else one line saying why not (exit 2)."""
    from prune_memory.claude.locate import git_root, memory_dir_for_project
    from prune_memory.store.safe_read import require_directory
    from prune_memory.store.shape import why_not_memory

    require_directory(root)
    why = why_not_memory(root)
    if why is None:
        return root
    hint = ""
    if git_root(root) == root.expanduser().resolve():
        hint = f" — its memory is {memory_dir_for_project(root)} (`--project {root}`)"
    raise BadInputError(f"{root} is not a memory directory: {why}{hint}; nothing was changed")


@dataclass(frozen=True)
class RepoChoice:
    """The repo a pass checks claims against, and what to say about the choice first."""

    path: Path | None
    note: str | None = None


def resolve_repo(repo: Path | None, memory_dir: Path, project: Path | None) -> RepoChoice:
    """--repo; else the --project's git root; else the project the memory directory's own
    name stands for (Claude Code's naming), or the repo it lies in; else the current git
    root. With none, the note says the git checks are skipped, and why."""
    from prune_memory.claude.locate import git_root, is_bare_repository, project_of

    if repo is not None:
        if not repo.expanduser().is_dir():
            raise BadInputError(f"--repo {repo}: no such directory; without the repo's history "
                                "nothing can be checked, so nothing was changed")
        if git_root(repo) is None:
            what = "is a bare repository, with no working tree to check memories against" \
                if is_bare_repository(repo.expanduser()) else "is not inside a git repository"
            raise BadInputError(f"--repo {repo} {what}; nothing was changed")
        return RepoChoice(repo.expanduser())
    if project is not None:
        root = git_root(project)
        return RepoChoice(root, None if root else _skipped(f"--project {project} is not "
                                                           "inside a git repository"))
    found = project_of(memory_dir)
    if found.git_root is not None:
        return RepoChoice(found.git_root)
    if found.claude_named:  # its project is known to be elsewhere: never the cwd's repo
        return RepoChoice(None, _skipped(found.why))
    inside = git_root(memory_dir)
    if inside is not None:
        return RepoChoice(inside)
    here = git_root(Path.cwd())
    if here is not None:
        return RepoChoice(here, f"checking claims against the git repository at {here} (the "
                                "current directory's); give --repo to choose another")
    return RepoChoice(None, _skipped(f"{found.why}, and the current directory is in no git "
                                     "repository"))


def _skipped(why: str) -> str:
    return (f"git checks skipped: no repository found for this memory directory — {why}; "
            "give --repo PATH to check its claims against the history")
