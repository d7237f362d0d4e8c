"""A secret in a memory never reaches an output, a log, a crash report or the journal.

The directory holds fake secrets of several kinds (built at run time by the corpus, never
stored in the repository). Every command a user runs on it is captured; then a withdrawal
and a restore of the secret-bearing entry are interrupted by a full disk so their journal
records stay behind, and a crash is provoked. The raw value is searched for in every
output and in every file under the state directory, also inside anything that decodes as
base64. Snapshots and the private vault are left out on purpose: they are byte copies of
the memory directory and of withdrawn secret-bearing memories, the backups a withdrawal
relies on (both 0700, outside the memory directory).
"""

from __future__ import annotations

import base64
import binascii
import errno
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from prune_memory.errors import ExitCode
from prune_memory.store import atomic
from tests.conftest import CliResult, topic, write_tree
from tests.secrets.corpus import secrets

NOW = "2026-11-29T12:00:00+00:00"
B64_RUN = re.compile(rb"[A-Za-z0-9+/=_-]{12,}")


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, list[str]]:
    samples = [s for s in secrets() if len(s.value) >= 16][::5][:8]
    files: dict[str, str | bytes] = {
        f"project_leak_{n}.md": topic(f"leak-{n}", f"Deploy notes.\n{s.text}\nKeep it short.")
        for n, s in enumerate(samples)}
    files["project_fm.md"] = topic("fm", "Body without the value.",
                                   extra=f"api_token: {samples[0].value}\n")
    files["feedback_chatter.md"] = topic("chatter", "Currently debugging the upload test.")
    files["MEMORY.md"] = "# Memory\n" + "".join(
        f"- [{name}]({name}) — note\n" for name in files if name.endswith(".md"))
    root = write_tree(tmp_path / "memory", files)
    return root, [s.value for s in samples]


def leaks(data: bytes, values: list[str]) -> list[str]:
    """Values found raw, or inside a run of base64 (standard or URL-safe, any alignment)."""
    found = [v for v in values if v.encode() in data]
    for run in B64_RUN.findall(data):
        for start in range(4):
            chunk = run[start:]
            chunk = chunk[: len(chunk) - len(chunk) % 4]
            for decode in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    plain = decode(chunk)
                except (binascii.Error, ValueError):
                    continue
                found += [v for v in values if v.encode() in plain]
    return sorted(set(found))


def state_files(state: Path) -> Iterator[Path]:
    for path in state.rglob("*"):
        parts = path.relative_to(state).parts
        if path.is_file() and "snapshots" not in parts and "vault" not in parts:
            yield path


def assert_no_leak(results: list[CliResult], state: Path, values: list[str]) -> int:
    for result in results:
        assert not leaks((result.out + result.err).encode(), values), result
    checked = 0
    for path in state_files(state):
        assert not leaks(path.read_bytes(), values), path
        checked += 1
    return checked


def test_no_command_output_shows_a_secret(cli: Callable[..., CliResult],
                                          planted: tuple[Path, list[str]],
                                          tmp_path: Path) -> None:
    root, values = planted
    results = [cli(*args) for args in (
        ("plan", root, "--json", "--now", NOW), ("plan", root, "--format", "markdown"),
        ("plan", root), ("inventory", root, "--json"), ("inventory", root),
        ("scan", root, "--json"), ("lint", root, "--json", "--now", NOW), ("lint", root),
        ("lint", root, "--suggest"), ("due", root), ("sweep", root, "--rename", "Deploy=Ship"),
        ("run", root, "--yes", "--now", NOW), ("scan", root))]
    assert any("github" in r.out or "token" in r.out for r in results)  # they were found
    assert results[0].code in (ExitCode.OK, ExitCode.FINDINGS)
    log = (root / "pruning-log.md").read_bytes()
    assert not leaks(log, values)
    assert_no_leak(results, Path(os.environ["XDG_STATE_HOME"]), values)


def _failing_at(monkeypatch: pytest.MonkeyPatch, match: str) -> None:
    """ENOSPC for the first atomic write whose path contains `match`."""
    real = atomic.atomic_write
    state = {"fired": False}

    def write(path: Path, data: bytes) -> None:
        if match in str(path) and not state["fired"]:
            state["fired"] = True
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, data)

    monkeypatch.setattr(atomic, "atomic_write", write)


def test_an_interrupted_withdrawal_and_restore_keep_no_secret_in_the_journal(
        cli: Callable[..., CliResult], planted: tuple[Path, list[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, values = planted
    state = Path(os.environ["XDG_STATE_HOME"])
    with monkeypatch.context() as patch:
        _failing_at(patch, "deaccessioned")
        stopped = cli("withdraw", root / "project_leak_1.md", "--reason", "rotated")
    assert stopped.code == ExitCode.REFUSED, stopped.err
    journal = [p for p in state_files(state) if p.name.startswith("step-")]
    assert journal, "the interrupted step should have left its record"
    assert_no_leak([stopped], state, values)
    assert cli("recover", root).code == ExitCode.OK
    assert (root / "deaccessioned" / "project_leak_1.md").exists()
    register_id = re.search(r"\d{4}-\d{2}-\d{2}-\d{2}",
                            (root / "pruning-log.md").read_text()).group(0)  # type: ignore[union-attr]
    with monkeypatch.context() as patch:
        _failing_at(patch, "project_leak_1.md")
        stopped = cli("restore", register_id, root)
    assert stopped.code == ExitCode.REFUSED, stopped.err
    assert [p for p in state_files(state) if p.name.startswith("step-")]
    assert_no_leak([stopped], state, values)
    assert cli("recover", root).code == ExitCode.OK
    assert values[1] in (root / "project_leak_1.md").read_text()  # restored byte for byte


def test_a_crash_report_masks_the_secret(cli: Callable[..., CliResult],
                                         planted: tuple[Path, list[str]],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from prune_memory.procedure import inventory

    root, values = planted

    def explode(*_: object, **__: object) -> None:
        raise RuntimeError(f"could not parse {values[0]} near {values[2]}")

    monkeypatch.setattr(inventory, "take_inventory", explode)  # the command imports it
    crashed = cli("inventory", root)
    assert crashed.code == ExitCode.INTERNAL
    report = Path(crashed.err.rsplit("crash report: ", 1)[1].strip())
    assert "could not parse" in report.read_text()
    assert_no_leak([crashed], Path(os.environ["XDG_STATE_HOME"]), values)


def test_no_text_the_tool_writes_copies_a_secret(cli: Callable[..., CliResult],
                                                  tmp_path: Path, demo_repo: Path,
                                                  trust_all: Path) -> None:
    """The tool's own writes: an orphan re-indexed with a secret in its description, a file
    whose name holds a token, a register row of an entry whose description holds one, a
    counter-memory drafted from a body that holds one. None of MEMORY.md, the pruning log,
    the counter-memories, a tombstone's shown name, the snapshot's manifest and listing or
    any output may carry the value."""
    import shutil

    from tests.conftest import DEMO_MEMORY

    token = next(s.value for s in secrets() if s.kind.startswith("github"))
    other = [s.value for s in secrets() if len(s.value) >= 20][7]
    root = Path(shutil.copytree(DEMO_MEMORY, tmp_path / "memory"))
    (root / "project_deploy_notes.md").write_text(topic(
        "deploy-notes", "Deploy steps for staging.", description=f"Deploy with {token} now"))
    (root / f"note_{token}.md").write_text(topic("n", "Currently debugging the upload."))
    for name, old, new in (
            ("project_token_cache_abandoned.md", "In April 2026", f"In April 2026 ({other})"),
            ("project_login_flake_session.md", "description: Where",
             f"description: {token} Where")):
        (root / name).write_text((root / name).read_text().replace(old, new, 1))
    state = Path(os.environ["XDG_STATE_HOME"])
    results = [cli(*args) for args in (
        ("plan", root, "--json", "--repo", demo_repo, "--now", NOW), ("inventory", root, "--json"),
        ("scan", root, "--json"), ("inventory", root), ("plan", root, "--repo", demo_repo),
        ("run", root, "--repo", demo_repo, "--yes", "--now", NOW), ("scan", root))]
    assert results[5].code == ExitCode.OK, results[5].err
    values = [token, other]
    for result in results:
        assert not leaks((result.out + result.err).encode(), values), result
    assert "Re-indexed by prune-memory" in (root / "MEMORY.md").read_text()  # it was re-indexed
    written = [root / "MEMORY.md", root / "pruning-log.md", *root.glob("superseded_*.md")]
    for path in written:
        assert not leaks(path.read_bytes(), values), path
    for stone in (root / "deaccessioned").iterdir():
        assert token not in stone.name
        header = stone.read_bytes().split(b"\n---\n", 1)[0]
        shown = b"\n".join(ln for ln in header.splitlines()
                           if not ln.startswith(b"original_file:"))  # the exact name, kept
        assert not leaks(shown, values), stone
    for path in (state / "prune-memory" / "snapshots").rglob("*"):
        assert token not in path.name
        if path.name == "MANIFEST.sha256":
            assert not leaks(path.read_bytes(), values)
    assert_no_leak([], state, values)


def test_the_gate_never_names_a_secret_in_a_file_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from prune_memory.claude.hooks.gate import Mode, answer, decide
    from tests.claude.conftest import TOKEN, write

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    memory = tmp_path / "claude" / "projects" / "-work-app" / "memory"
    memory.mkdir(parents=True)
    target = memory / f"project_{TOKEN}.md"
    out = answer(decide(write(target, f"Deploys push with {TOKEN}.\n"), Mode.STRICT))
    assert out is not None and TOKEN not in out and "github-token" in out


def test_a_secret_cut_by_a_short_summary_leaves_no_part_behind(
        cli: Callable[..., CliResult], tmp_path: Path) -> None:
    """The register's summary is cut to 90 characters: a token that straddles the cut was
    once cut first and masked after, so the half before the cut stayed in the log."""
    token = next(s.value for s in secrets() if s.kind.startswith("github"))
    description = "x" * 80 + f" {token} and more words after it"
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "- [Ci](project_ci.md) — ci\n",
        "project_ci.md": topic("ci", "Jenkins", description=description)})
    done = cli("withdraw", root / "project_ci.md", "--reason", f"moved; was {token} " * 40)
    assert done.code == ExitCode.OK, done.err
    log = (root / "pruning-log.md").read_text()
    assert token[4:12] not in log and "github-token" in log
    (row,) = [line for line in log.splitlines() if line.startswith("| 2026") or "moved" in line]
    assert len(row) < 600  # the reason is cut too; the tombstone keeps it whole
