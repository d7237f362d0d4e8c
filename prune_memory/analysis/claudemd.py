"""The project's CLAUDE.md files, cut into the lines and paragraphs a memory might repeat.

Claude Code loads these files into every session already, so a memory that only restates
one of their lines costs index space and says nothing new.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from prune_memory.analysis.similarity import tokens

# Repo-relative places Claude Code reads project instructions from.
PROJECT_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
USER_FILE = ".claude/CLAUDE.md"  # under the home directory
# Headings and short labels ("## Tests", "```bash") would match too much to mean anything.
MIN_UNIT_TOKENS = 3


@dataclass(frozen=True)
class ClaudeMdUnit:
    """One line, or one paragraph of several lines, of a CLAUDE.md file (`line` is 1-based)."""

    source: str
    line: int
    text: str


def read_claude_md(repo: Path | None, home: Path) -> list[tuple[str, str]]:
    """(label, text) of every CLAUDE.md file that exists and reads as UTF-8; others are skipped."""
    places: list[tuple[str, Path]] = []
    if repo is not None:
        places.extend((name, repo / name) for name in PROJECT_FILES)
    places.append((f"~/{USER_FILE}", home / USER_FILE))
    found: list[tuple[str, str]] = []
    for label, path in places:
        try:
            found.append((label, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue  # absent or unreadable: nothing to compare against
    return found


def claude_md_units(sources: Sequence[tuple[str, str]]) -> list[ClaudeMdUnit]:
    """Every substantive line, and every paragraph of two or more lines, of each source."""
    units: list[ClaudeMdUnit] = []
    for label, text in sources:
        paragraph: list[tuple[int, str]] = []
        for number, line in enumerate([*text.splitlines(), ""], start=1):
            if line.strip():
                paragraph.append((number, line))
                if _substantive(line):
                    units.append(ClaudeMdUnit(label, number, line.strip()))
                continue
            if len(paragraph) > 1:
                joined = "\n".join(part for _n, part in paragraph).strip()
                units.append(ClaudeMdUnit(label, paragraph[0][0], joined))
            paragraph = []
    return units


def _substantive(line: str) -> bool:
    stripped = line.strip()
    if stripped.startswith(("#", "<!--", "```", "~~~", "@")):
        return False
    return len(tokens(stripped)) >= MIN_UNIT_TOKENS
