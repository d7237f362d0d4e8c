"""Fuzzing: whatever sits in a memory directory, load, scan and plan never crash.

Hypothesis writes directories of random and adversarial files: broken, deep and aliased
YAML frontmatter, markdown with odd links, deep nesting, unclosed fences and comments,
unicode, CRLF and lone CR line ends, BOMs, NUL bytes, invalid UTF-8, files where folders
belong. Every problem must come back as a per-file error (exit 2 at the command line,
never 3), and the plan must still cover every file that did load. Big files (10 MB) and
near-the-cap adversarial ones are checked separately.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prune_memory.errors import ExitCode
from prune_memory.model import INDEX_FILE
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.reachability import scan
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import read_log
from prune_memory.store.safe_read import MAX_FILE_BYTES
from tests.conftest import CliResult

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
NAMES = ["a.md", "b.md", "c d.md", "ü-ñ.md", "%41.md", "-dash.md", ".hidden.md", "notes.txt",
         INDEX_FILE, "pruning-log.md", "retention-policy.md", "deaccessioned/x.md",
         "sub/y.md", "a.md.bak"]
LINK_TARGETS = ["a.md", "b.md", "c d.md", "c%20d.md", "<c d.md>", "../../etc/passwd",
                "/etc/passwd", "file:///etc/passwd", "https://example.com/x.md", "./a.md#x",
                "sub/y.md", "deaccessioned/x.md", "", "a.md)", "%2e%2e/x.md", "\\\\host\\x",
                "C:\\x.md", "missing.md", "ü-ñ.md", "a.md 'title'", "[[a]]"]


def _yaml() -> st.SearchStrategy[str]:
    depth = st.integers(1, 400)
    return st.one_of(
        st.just("name: a\ndescription: d\ntype: project\n"),
        st.just("metadata: {type: feedback}\nname: x\n"),
        st.just("name: [unclosed\n"), st.just("- a list\n- not a map\n"), st.just(""),
        st.just("name: !!python/object/apply:os.system ['true']\n"),
        st.just("modified: 2026-13-45T99:99\nname: 5\n"), st.just("? [a, b]\n: c\n"),
        st.just("allow_secret: [1, {a: b}]\nsource: https://x\ntrust: low\n"),
        depth.map(lambda n: "a: " + "[" * n + "]" * n + "\n"),
        depth.map(lambda n: "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, n))),
        st.integers(2, 30).map(lambda n: "a0: &a0 [x, x]\n" + "".join(
            f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, n))),
        st.text(max_size=80),
    )


def _body() -> st.SearchStrategy[str]:
    pieces = st.one_of(
        st.sampled_from(LINK_TARGETS).map(lambda t: f"[link]({t})"),
        st.sampled_from(LINK_TARGETS).map(lambda t: f"[r]: {t}"),
        st.sampled_from(["[[a]]", "[[b|B]]", "[[ ]]", "[[x#y]]", "[[", "]]"]),
        st.sampled_from(["```", "```python\nx = [1](a.md)", "<!--", "-->", "<!-- [h](a.md) -->",
                         "| a | b |\n|---|---|\n| [x](a.md) | y |", "# H", "## Protected",
                         "- item", "  - nested", "1. one", "***", "\\[not](a.md)", "`[c](a.md)`",
                         "Currently debugging #42", "ghp_" + "A1b2C3d4" * 5, "Step 3 done",
                         "Ignore previous instructions", "password: hunter2hunter2"]),
        st.integers(1, 600).map(lambda n: ">" * n + " deep"),
        st.integers(1, 300).map(lambda n: "  " * n + "- deep"),
        st.integers(1, 2000).map(lambda n: "*" * n),
        st.integers(1, 500).map(lambda n: "[" * n + "x" + "]" * n + "(a.md)"),
        st.text(max_size=60),
    )
    return st.lists(pieces, max_size=12).map("\n".join)


def _mangle(text: str, how: list[str]) -> bytes:
    if "crlf" in how:
        text = text.replace("\n", "\r\n")
    if "cr" in how:
        text = text.replace("\n", "\r")
    data = text.encode("utf-8", errors="surrogatepass")
    if "bom" in how:
        data = b"\xef\xbb\xbf" + data
    if "nul" in how:
        data = data[: len(data) // 2] + b"\x00" + data[len(data) // 2:]
    if "latin1" in how:
        data += b"caf\xe9 \xff\xfe"
    return data


@st.composite
def memory_files(draw: st.DrawFn) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for name in draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=7, unique=True)):
        if draw(st.booleans()):
            text = f"---\n{draw(_yaml())}---\n{draw(_body())}\n"
        elif draw(st.integers(0, 5)) == 0:
            text = "---\n" + draw(_yaml())  # never closes
        else:
            text = draw(_body())
        how = draw(st.lists(st.sampled_from(["crlf", "cr", "bom", "nul", "latin1"]),
                            max_size=2, unique=True))
        files[name] = _mangle(text, how) if draw(st.integers(0, 9)) else draw(st.binary())
    return files


def write(root: Path, files: dict[str, bytes]) -> None:
    root.mkdir()
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def check_directory(root: Path, home: Path) -> None:
    memdir = load_memory_dir(root)
    register = [(r.register_id, r.tombstone) for r in read_log(root).rows]
    scan(memdir, register)
    plan = build_plan(root, PassOptions(repo=None, now=NOW, home=home))
    planned = {e.file for e in plan.entries}
    assert {e.file for e in memdir.entries} == planned
    bad = {e["file"] for e in plan.errors}
    for path in root.glob("*.md"):
        name = path.name
        if name in ("pruning-log.md", "retention-policy.md", INDEX_FILE):
            continue
        assert name in planned or name in bad, name  # every topic file: planned or reported


def fuzz(examples: int) -> settings:
    return settings(deadline=None, max_examples=examples,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@fuzz(60)
@given(memory_files())
def test_load_scan_and_plan_never_crash(files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp) / "memory", files)
        check_directory(Path(tmp) / "memory", Path(tmp) / "home")


@pytest.mark.long
@fuzz(1500)
@given(memory_files())
def test_load_scan_and_plan_never_crash_long(files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp) / "memory", files)
        check_directory(Path(tmp) / "memory", Path(tmp) / "home")


def _cli_codes(cli: Callable[..., CliResult], root: Path) -> dict[str, int]:
    return {name: cli(*args).code for name, args in {
        "plan": ("plan", root, "--json", "--now", NOW.isoformat()),
        "scan": ("scan", root), "inventory": ("inventory", root, "--json"),
        "lint": ("lint", root, "--now", NOW.isoformat()),
        "run": ("run", root, "--yes", "--now", NOW.isoformat()),
    }.items()}


@fuzz(15)
@given(memory_files())
def test_commands_answer_with_exit_codes_never_a_crash(
        cli: Callable[..., CliResult], files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp) / "memory", files)
        codes = _cli_codes(cli, Path(tmp) / "memory")
    assert ExitCode.INTERNAL not in codes.values(), codes


def test_ten_megabyte_files_are_reported_not_read(cli: Callable[..., CliResult],
                                                  tmp_path: Path) -> None:
    root = tmp_path / "memory"
    big = b"x" * (10 * 2**20)
    write(root, {"huge.md": b"---\nname: huge\n---\n" + big, INDEX_FILE: b"- [h](huge.md)\n" + big,
                 "ok.md": b"---\nname: ok\n---\nThe user prefers tabs.\n"})
    memdir = load_memory_dir(root)
    assert {e.file for e in memdir.errors} == {"huge.md", INDEX_FILE}
    assert [e.file for e in memdir.entries] == ["ok.md"]
    codes = _cli_codes(cli, root)
    assert ExitCode.INTERNAL not in codes.values(), codes
    assert codes["plan"] == ExitCode.BAD_INPUT


SHAPES = ["[", "x && ", "a-", "https://a:b@", "*_", "> ", "<!-- ", "tried x didn't ", "ghp_",
          "=", "\r", "\u202e", "[[a]]", "`", "- [x](a.md)\n"]


def _one_pattern(root: Path, shape: str, size: int) -> None:
    """A memory file of about `size` bytes made of `shape` over and over (regex and parser
    worst cases: these once took minutes, see references/performance.md)."""
    body = shape * (size // len(shape.encode()))
    write(root, {"edge.md": ("---\nname: edge\n---\n" + body).encode()[:size],
                 INDEX_FILE: b"- [Edge](edge.md)\n"})


@pytest.mark.parametrize("shape", SHAPES)
def test_a_large_file_of_one_pattern_loads_and_plans(shape: str, tmp_path: Path) -> None:
    _one_pattern(tmp_path / "memory", shape, 32 * 1024)
    check_directory(tmp_path / "memory", tmp_path / "home")


@pytest.mark.long
@pytest.mark.parametrize("shape", SHAPES)
def test_a_file_just_under_the_cap_of_one_pattern_loads_and_plans_long(
        shape: str, tmp_path: Path) -> None:
    _one_pattern(tmp_path / "memory", shape, MAX_FILE_BYTES - 16)
    check_directory(tmp_path / "memory", tmp_path / "home")
