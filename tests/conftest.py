"""Shared test helpers: build memory directories, hash them, run the CLI in-process."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DEMO_MEMORY = FIXTURES / "demo-memory"

# CI draws the same hypothesis examples on every run, so a landing never hangs on a lucky
# draw; a local `make test` explores new ones each time (print_blob says how to replay).
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The proof runs take most of the suite's time: start them first, so that with two workers
# (pytest -n 2) the short tests fill the other core instead of waiting behind them.
SLOW_FIRST = ("tests/proof/test_kill_run.py", "tests/engine/test_crash.py",
              "tests/proof/test_write_faults.py", "tests/proof/test_fuzz_load.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return SLOW_FIRST.index(path) if path in SLOW_FIRST else len(SLOW_FIRST)
    items.sort(key=rank)  # stable: the order within each file is kept


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create `files` (name → text or bytes) under `root`."""
    root.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def tree_hash(root: Path) -> str:
    """One digest over every path, link target and byte under `root`."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_symlink():
            digest.update(os.readlink(path).encode())
        elif path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def topic(name: str, body: str, *, type_: str = "project", description: str = "",
          extra: str = "") -> str:
    """A topic file with the usual Claude Code frontmatter."""
    desc = description or f"About {name}"
    return f"---\nname: {name}\ndescription: {desc}\ntype: {type_}\n{extra}---\n{body}\n"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real ~/.claude or state directory."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")


def write_trust_config(config_home: Path) -> Path:
    """A user config (under `config_home`, the XDG_CONFIG_HOME) trusting every class."""
    from prune_memory.evidence.classes import EVIDENCE_CLASSES

    config = config_home / "prune-memory" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    names = ", ".join(f'"{name}"' for name in sorted(EVIDENCE_CLASSES))
    config.write_text(f"[automation]\ntrust = [{names}]\n")
    return config


@pytest.fixture
def trust_all() -> Path:
    """A user config that trusts every evidence class, for tests of the write engine that
    need `run --yes` to withdraw, inoculate and update (the default automates only the
    classes measured right on real memory folders)."""
    return write_trust_config(Path(os.environ["XDG_CONFIG_HOME"]))


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run the prune-memory CLI in-process and capture what it prints."""
    from prune_memory.cli import app, run_app

    def invoke(*args: str) -> CliResult:
        capsys.readouterr()
        code = run_app(app, [str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


@pytest.fixture
def demo_memory(tmp_path: Path) -> Path:
    """A private copy of the bundled demo memory directory."""
    target = tmp_path / "memory"
    shutil.copytree(DEMO_MEMORY, target)
    return target


@pytest.fixture(scope="session")
def demo_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo git repo, built once per test session."""
    target = tmp_path_factory.mktemp("demo") / "repo"
    subprocess.run([sys.executable, str(FIXTURES / "build_demo_repo.py"), str(target)],
                   check=True, capture_output=True)
    yield target
