"""The user's configuration file: project-specific count rules, read with tomllib.

Where it is looked for, first found wins: `--config PATH`, then `.prune-memory.toml`
at the project's git root, then `$XDG_CONFIG_HOME/prune-memory/config.toml`.
See references/config.md for the format.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from prune_memory.errors import BadInputError
from prune_memory.matching.timedregex import TimedPattern
from prune_memory.store.safe_read import read_regular

CONFIG_FILE = ".prune-memory.toml"
COUNT_KEYS = frozenset({"pattern", "glob", "name", "description"})


@dataclass(frozen=True)
class CountRule:
    """A claim pattern with one number group, and the tracked paths that number counts."""

    name: str
    pattern: TimedPattern  # run with a time limit: a user's regex may backtrack without end
    glob: str
    description: str = ""

    @property
    def counts_directories(self) -> bool:
        return self.glob.endswith("/")

    def matches(self, path: str) -> bool:
        """Whether a tracked path is one this rule counts: the glob runs with a time limit
        like the pattern (`*a*a*a*…b` backtracks without end on a long name)."""
        return glob_pattern(self.glob.rstrip("/"), self.name).fullmatch(path) is not None

    def how(self) -> str:
        kind = "tracked directories" if self.counts_directories else "tracked files"
        return f"counted {kind} matching `{self.glob}` (rule `{self.name}`)"


@dataclass(frozen=True)
class Config:
    """Everything the user configured; an empty Config is the built-in behaviour."""

    count_rules: tuple[CountRule, ...] = ()
    trusted: frozenset[str] = frozenset()  # evidence classes applied without review
    source: Path | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)


def default_config_paths(repo_root: Path | None) -> list[Path]:
    """The places looked at when no `--config` is given, in order."""
    paths: list[Path] = []
    if repo_root is not None:
        paths.append(repo_root / CONFIG_FILE)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    paths.append(Path(base) / "prune-memory" / "config.toml")
    return paths


def load_config(explicit: Path | None = None, repo_root: Path | None = None) -> Config:
    """Read the config file; none found gives the defaults. A bad file is BadInputError."""
    if explicit is not None:
        if not explicit.is_file():
            raise BadInputError(f"--config: no such file: {explicit}")
        return _read(explicit)
    for candidate in default_config_paths(repo_root):
        if candidate.is_file():
            return _read(candidate)
    return Config()


def _read(path: Path) -> Config:
    try:
        text = read_regular(path).decode("utf-8")  # a FIFO here would block the pass
    except (OSError, UnicodeDecodeError) as err:
        raise BadInputError(f"{path}: cannot read the config file ({err})") from err
    return parse_config(text, path)


def parse_config(text: str, source: Path | None = None) -> Config:
    """Parse config text. Mistakes name the file and the rule so the user can fix them."""
    where = str(source) if source is not None else "config"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise BadInputError(f"{where}: not valid TOML ({err})") from err
    rules = data.get("count", [])
    if not isinstance(rules, list):
        raise BadInputError(f"{where}: `count` must be an array of tables: [[count]]")
    parsed = tuple(_count_rule(item, number, where) for number, item in enumerate(rules, 1))
    return Config(count_rules=parsed, trusted=_trusted(data.get("automation", {}), where),
                  source=source, raw=data)


def _trusted(table: object, where: str) -> frozenset[str]:
    """`[automation] trust = [...]`: evidence classes the user accepts without review."""
    from prune_memory.evidence.classes import EVIDENCE_CLASSES

    if not isinstance(table, dict):
        raise BadInputError(f"{where}: `automation` must be a table: [automation]")
    names = table.get("trust", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise BadInputError(f"{where}: [automation] trust must be a list of class names")
    unknown = sorted(set(names) - EVIDENCE_CLASSES)
    if unknown:
        raise BadInputError(f"{where}: [automation] trust: unknown evidence class(es) "
                            f"{', '.join(unknown)}; known: {', '.join(sorted(EVIDENCE_CLASSES))}")
    return frozenset(names)


def _count_rule(item: object, number: int, where: str) -> CountRule:
    label = f"{where}: [[count]] #{number}"
    if not isinstance(item, dict):
        raise BadInputError(f"{label}: must be a table")
    unknown = sorted(set(item) - COUNT_KEYS)
    if unknown:
        raise BadInputError(f"{label}: unknown key(s) {', '.join(unknown)}")
    pattern, glob = item.get("pattern"), item.get("glob")
    if not isinstance(pattern, str) or not isinstance(glob, str) or not pattern or not glob:
        raise BadInputError(f"{label}: needs string `pattern` and `glob`")
    try:
        compiled = re.compile(pattern)
    except re.error as err:
        raise BadInputError(f"{label}: pattern is not a valid regular expression ({err})") from err
    if compiled.groups < 1:
        raise BadInputError(f"{label}: pattern needs a group around the number, e.g. (\\d+)")
    name = str(item.get("name") or f"count-{number}")
    timed = TimedPattern(pattern, label=f"{where}: count rule {name!r}")
    return CountRule(name=name, pattern=timed, glob=glob,
                     description=str(item.get("description", "")))


@lru_cache(maxsize=256)
def glob_pattern(glob: str, rule: str) -> TimedPattern:
    """`glob_regex` of a user's glob, as a pattern that runs with a time limit."""
    return TimedPattern(glob_regex(glob).pattern, label=f"count rule {rule!r} (its glob "
                                                        f"`{glob}`)")


@lru_cache(maxsize=256)
def glob_regex(glob: str) -> re.Pattern[str]:
    """A path glob as a regex: `**` crosses directories, `*` and `?` stay inside one."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))
