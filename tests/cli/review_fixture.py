"""A memory folder shaped like the real ones, and the repo it describes, for driving a whole
review in a pseudo-terminal.

Written for these tests (no text from any real folder), but with the shapes real folders
have: frontmatter nested under `metadata:` with a trailing space and an `originSessionId`,
a `name` that is not the file's, a file with no frontmatter at all, CJK text, facts written
straight into MEMORY.md (one of them holding a token), `[[wiki links]]` by name, pointers
to files that are gone, a file nothing indexes, two dated session logs, two notes saying
the same, two that contradict each other, and a path git shows renamed.
"""

from __future__ import annotations

from pathlib import Path

from prune_memory.claude.locate import locate
from tests.conftest import write_tree
from tests.evidence.probes.gitbuild import GitRepo

# Made up, in GitHub's token shape; built from parts so the source holds no token literal.
TOKEN = "ghp_" + "Qe4Rt6Yu8Io0Pa2Sd4Fg6Hj8Kl0Zx2Cv4Bn6Mq"
AUTH = "def check(token):\n    \"\"\"Reject expired or unsigned session tokens.\"\"\"\n" \
       "    return verify(token) and not expired(token)\n" * 3


def nested(name: str, description: str, kind: str, body: str) -> str:
    """The newer shape: type under `metadata:` (with the trailing space many files have)."""
    return (f"---\nname: {name}\ndescription: {description}\nmetadata: \n  node_type: memory\n"
            f"  type: {kind}\n  originSessionId: 5d0c1e7a-2b44-4f0e-9a61-0c3f8e2d7b19\n---\n"
            f"{body}\n")


def classic(name: str, description: str, kind: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n{body}\n"


def build_repo(root: Path) -> GitRepo:
    repo = GitRepo(root)
    repo.write({"pyproject.toml": '[project]\nname = "tollgate"\nversion = "2.3.0"\n',
                "src/gateway/auth.py": AUTH,
                "src/gateway/router.py": "def route(request):\n    return request.path\n",
                "scripts/seed.py": "ROWS = [('alice', 1), ('bob', 2)]\n",
                "docs/ops.md": "# Operations\n\nDeploys run from CI.\n"})
    repo.commit("Gateway with auth, router and a seed script", date="2026-02-02T10:00:00Z")
    repo.mv("src/gateway/auth.py", "src/gateway/session_auth.py")
    repo.commit("Move token checks into session_auth", date="2026-04-20T09:30:00Z")
    repo.rm("scripts/seed.py")
    repo.commit("Remove the seed script: fixtures load from tests/data",
                date="2026-06-11T16:00:00Z")
    return repo


MEMORY_MD = """\
# Tollgate memory

## Project
- [Session auth](project_session_auth.md) — where session tokens are checked
- [Seed data](project_seed_script.md) — how sample rows get into a fresh database
- [Local setup](project_local_setup.md) — what a new checkout needs
- [Old deploy flow](project_old_deploy.md) — the deploy steps before CI
- [Nightly cron](project_retired_cron.md) — the job that rotated logs
- [Edge cache](project_edge_cache.md) — what happens to the cache on deploy
- [Cache flush](project_cache_flush.md) — the cache and deploys, earlier note

## Sessions
- [Session 2026-05-14](debug_session_2026-05-14.md) — where the flaky login hunt stopped
- [Session 2026-05-20](debug_session_2026-05-20.md) — the timeout chase

## Feedback
- [Small diffs](feedback_small_diffs.md) — keep pull requests small
- [Diff size](feedback_diff_size.md) — pull request size
- [Profile](user_profile.md) — who the user is

## Facts
- Staging webhook posts with {token} and retries twice on a 502.
- The gateway listens on port 8443 in every environment.
"""


def build_memory(root: Path) -> Path:
    files: dict[str, str | bytes] = {
        "MEMORY.md": MEMORY_MD.format(token=TOKEN),
        "project_session_auth.md": nested(
            "Session auth", "where session tokens are checked", "project",
            "Session tokens are checked in `src/gateway/auth.py` before any route runs.\n"
            "Expired tokens get a 401 with a retry-after header."),
        "project_seed_script.md": classic(
            "seed-script", "how sample rows get into a fresh database", "project",
            "Sample rows come from `scripts/seed.py`; run it after every database reset."),
        "project_local_setup.md": nested(
            "Local setup", "what a new checkout needs", "project",
            "A new checkout needs Python 3.12 and a local Postgres.\n"
            "Load sample rows as [[seed-script]] says, then start the router."),
        "project_edge_cache.md": classic(
            "edge-cache", "what happens to the cache on deploy", "project",
            "The edge cache is not flushed on deploy; cached pages expire after ten minutes."),
        "project_cache_flush.md": classic(
            "cache-flush", "the cache and deploys, earlier note", "project",
            "The edge cache is flushed on every deploy; cached pages expire after ten minutes."),
        "debug_session_2026-05-14.md": nested(
            "session 2026-05-14", "where the flaky login hunt stopped", "project",
            "Session 2026-05-14: tried pinning the browser version, then disabling retries; "
            "the login test still failed twice in ten runs. Next session: look at the clock "
            "skew between the runner and the database."),
        "debug_session_2026-05-20.md": nested(
            "session 2026-05-20", "the timeout chase", "project",
            "Session 2026-05-20: raised the client timeout to 30 seconds, reran the suite, "
            "two timeouts left. Next session: capture a trace of the slow request."),
        "feedback_small_diffs.md": classic(
            "small-diffs", "keep pull requests small", "feedback",
            "Keep pull requests under 300 changed lines and put renames in their own pull "
            "request.\n**Why:** reviews of big diffs miss bugs."),
        "feedback_diff_size.md": classic(
            "diff-size", "pull request size", "feedback",
            "Keep pull requests under 300 changed lines, and put renames in their own pull "
            "request.\n**Why:** reviews of big diffs miss bugs."),
        "user_profile.md": "用户是网关团队的后端工程师,偏好简短的回答。\n"
                           "Backend engineer on the gateway team; prefers short answers.\n",
        "project_rate_limits.md": nested(
            "Rate limits", "per-client request limits", "project",
            "Each client gets 600 requests a minute; bursts above that get a 429."),
    }
    return write_tree(root, files)


def realistic(tmp_path: Path) -> tuple[Path, Path]:
    """(memory directory, repo): the memory where Claude Code keeps it for that repo."""
    repo = build_repo(tmp_path / "code" / "tollgate")
    memory = build_memory(locate(repo.root).memory_dir)
    return memory, repo.root
