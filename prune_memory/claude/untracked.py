"""Keep a file out of git without committing anything: `settings.local.json` is the user's
own, and `--local` promises it stays out of the repository.

Claude Code adds that file to git's ignores when it creates it; a file prune-memory creates
gets the same. When git does not ignore it already, its path goes into the repository's
own `info/exclude`, which is never committed, so nothing in the work tree changes.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from prune_memory.evidence.gitrun import git_argv, offline_env


def keep_out_of_git(path: Path) -> str:
    """Make git ignore `path`; says how it is kept out (or that no repository holds it)."""
    folder = path.parent
    ignored = _git(folder, "check-ignore", "-q", "--no-index", str(path))
    if ignored.returncode == 0:
        return "git already ignores it"
    top = _git(folder, "rev-parse", "--show-toplevel")
    exclude = _git(folder, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude")
    if ignored.returncode not in (0, 1) or top.returncode or exclude.returncode:
        return "it is in no git repository, so nothing can commit it"
    rel = path.resolve().relative_to(Path(top.stdout.strip()).resolve()).as_posix()
    target = Path(exclude.stdout.strip())
    line = f"/{rel}"
    existing = target.read_text(encoding="utf-8") if target.is_file() else ""
    if line not in existing.splitlines():
        target.parent.mkdir(parents=True, exist_ok=True)
        sep = "" if not existing or existing.endswith("\n") else "\n"
        target.write_text(f"{existing}{sep}{line}\n", encoding="utf-8")
    return f"kept out of git by {target} (the repository's own ignore list, never committed)"


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(git_argv("-C", str(folder), *args), capture_output=True, text=True,
                          env=offline_env(), check=False, timeout=30)
