"""A whole review in a real pseudo-terminal, on a folder shaped like real ones
(`review_fixture.py`), with the keys of `git add -p` and their words — then the bytes
written are checked against the diff the confirmation showed, and the command the summary
prints undoes the pass byte for byte.

The memory lies where Claude Code keeps it and the review runs from another directory,
with no --repo: the repo is found from the folder's name.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

from tests.cli.review_fixture import TOKEN, realistic
from tests.conftest import ROOT, tree_hash

NOW = "2026-11-29T12:00:00Z"
WIDTH = 200
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def spawn(memory: Path, cwd: Path, tmp_path: Path) -> pexpect.spawn:
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nprintf 'The timeout chase ended: 30 seconds is the "
                      "limit.\\n' > \"$1\"\n")
    editor.chmod(0o755)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": str(WIDTH), "EDITOR": str(editor),
           "PAGER": "cat", "PYTHONPATH": str(ROOT)}
    env.pop("VISUAL", None)
    child = pexpect.spawn(sys.executable, ["-m", "prune_memory", "run", str(memory), "--now",
                                           NOW], env=env, cwd=str(cwd), encoding="utf-8",
                          timeout=60, dimensions=(60, WIDTH))
    child.logfile_read = io.StringIO()
    return child


def prompt(child: pexpect.spawn, question: str) -> str:
    """Wait for the question (any position), return what was shown since the last one."""
    child.expect(r"\[(\d+)/(\d+), (\d+) left\] " + re.escape(question) + r" \[([^\]]*)\] ")
    return str(child.before)


def send(child: pexpect.spawn, question: str, *answers: str) -> str:
    shown = prompt(child, question)
    for n, answer in enumerate(answers):
        if n:
            child.expect(r"[\])?]:? $")
        child.sendline(answer)
    return shown


def between(child: pexpect.spawn, pattern: str) -> str:
    child.expect(pattern)
    return ANSI.sub("", str(child.before)).replace("\r", "")


def apply_diff(root: Path, diff: str) -> dict[str, bytes | None]:
    """What the diff shown says each file will hold: hunks applied to the files as they
    are, context taken from the files themselves; a `# withdraw` line removes one."""
    out: dict[str, bytes | None] = {}
    for file in re.findall(r"^# withdraw (\S+?)(?: \([^)]*\))?[: ]", diff, re.MULTILINE):
        out[file] = None
    for chunk in re.split(r"^(?=--- )", diff, flags=re.MULTILINE)[1:]:
        head, _, body = chunk.partition("\n")
        target, _, body = body.partition("\n")
        name = target.removeprefix("+++ b/")
        old = [] if head.startswith("--- /dev/null") else \
            (root / name).read_text(encoding="utf-8").splitlines(keepends=True)
        new: list[str] = []
        at = 0
        for hunk in re.split(r"^(?=@@ )", body, flags=re.MULTILINE):
            found = HUNK.match(hunk)
            if not found:
                continue
            start = int(found.group(1)) - (0 if found.group(2) == "0" else 1)
            new += old[at:start]
            at = start
            for line in hunk.splitlines(keepends=True)[1:]:
                sign, text = line[:1], line[1:]
                if sign == " ":
                    new.append(old[at])
                    at += 1
                elif sign == "-":
                    at += 1
                elif sign == "+":
                    new.append(text)
        new += old[at:]
        out[name] = "".join(new).encode("utf-8")
    return out


def test_a_whole_review_writes_exactly_the_diff_it_showed_and_undoes(tmp_path: Path) -> None:
    memory, _repo = realistic(tmp_path)
    start = tree_hash(memory)
    os.utime(memory / "debug_session_2026-05-20.md", (1_700_000_000, 1_700_000_000))
    child = spawn(memory, tmp_path, tmp_path)

    shown = send(child, "MEMORY.md#L22 holds a secret: redact the secret in it?", "?")
    assert TOKEN not in shown
    child.expect_exact("Keys here")
    send(child, "MEMORY.md#L22 holds a secret: redact the secret in it?", "redact")

    pair = send(child, "Which stays? (n keeps both)", "diff")
    assert "project_cache_flush.md" in pair and "project_edge_cache.md" in pair
    assert re.search(r"written \d{4}-\d{2}-\d{2}", pair)  # both sides, with dates
    send(child, "Which stays? (n keeps both)", "1")
    send(child, "Withdraw feedback_small_diffs.md?", "keep")

    seed = send(child, "Withdraw project_seed_script.md?", "y")
    assert "project_local_setup.md" in seed  # the [[link]] it unlinks there, in the diff

    auth = send(child, "Update project_session_auth.md?", "d")
    assert "src/gateway/session_auth.py` before any route runs. [corrected 2026-11-29]" in \
        " ".join(auth.split())  # the marker is in the diff, as it will be in the file
    send(child, "Update project_session_auth.md?", "yes")
    send(child, "Drop index line 7 (it links project_old_deploy.md)?", "a")
    child.expect_exact("Accepted 2 of this class")
    send(child, "Index project_rate_limits.md?", "y")

    send(child, "Withdraw debug_session_2026-05-14.md?", "v")
    child.expect_exact("--- debug_session_2026-05-14.md ---")  # through the pager
    send(child, "Withdraw debug_session_2026-05-14.md?", "s", "pinning the browser fixes "
         "the flaky login", "it still failed twice in ten runs", "the cause was clock skew",
         "a flaky login test", "", "y")
    send(child, "Withdraw debug_session_2026-05-20.md?", "e")

    confirm = between(child, re.escape("[y,n,d,?] "))
    flat = " ".join(confirm.split())
    assert "Files it writes:" in flat and "project_local_setup.md" in flat
    assert "(and unlinks it in project_local_setup.md)" in flat
    child.sendline("d")
    diff = between(child, re.escape("[y,n,d,?] "))
    assert TOKEN not in diff
    child.sendline("y")
    child.expect_exact("Undo this pass: ")
    undo = between(child, pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.logfile_read.getvalue()

    diff = diff[diff.index("# withdraw") if "# withdraw" in diff else 0:]
    expected = apply_diff(snapshot_of(), diff)
    assert {"MEMORY.md", "project_local_setup.md", "project_session_auth.md",
            "superseded_debug-session-2026-05-14.md", "project_seed_script.md"} <= set(expected)
    for name, data in expected.items():
        assert (memory / name).read_bytes() == data if data is not None \
            else not (memory / name).exists(), name
    assert TOKEN.encode() not in b"".join(p.read_bytes() for p in memory.rglob("*")
                                          if p.is_file())
    command = " ".join(undo.split()).split()
    assert command[:3] == ["prune-memory", "restore", "--pass"]
    undone = subprocess.run([sys.executable, "-m", "prune_memory", *command[1:]],
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                            text=True, check=False)
    assert undone.returncode == 0, undone.stderr
    assert tree_hash(memory) == start
    assert (memory / "debug_session_2026-05-20.md").stat().st_mtime == 1_700_000_000


def snapshot_of() -> Path:
    """The pass's snapshot: the files as they were before it wrote anything."""
    state = Path(os.environ["XDG_STATE_HOME"]) / "prune-memory" / "snapshots"
    (snapshot,) = [p.parent for p in state.glob("*/*/MANIFEST.sha256")]
    return snapshot
