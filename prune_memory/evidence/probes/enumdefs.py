"""Where the repo defines an enum, and its members as the file says now.

One `git grep` finds the definitions of every enum any memory names, in the languages
memories talk about: `enum Name {…}` (C#, Java, TypeScript, C, C++, Swift, Rust, Kotlin's
`enum class`) and `class Name(Enum):` (Python). The members are read from the working
tree: the body up to its closing brace (Java's members stop at the first `;`), or the
indented `NAME = …` lines of a Python class. A name defined twice, or a body the reader
cannot follow, gives no answer rather than a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from prune_memory.evidence.gitrepo import grep_lines

MAX_BYTES = 1_000_000
MAX_MEMBERS = 200
_IDENT = re.compile(r"[A-Za-z_]\w*")
# A comment runs to its end, or to the end of the text when never closed (so no opening is
# scanned twice).
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?(?:\*/|\Z)|#[^\n]*", re.DOTALL)
BODY_MAX = 64 * 1024  # an enum's body is a few lines; the rest of a file is not read
_ATTRIBUTES = re.compile(r"\[[^\]]*\]|@\w+(?:\([^)]*\))?")
_PY_MEMBER = re.compile(r"^(?P<indent>[ \t]+)(?P<name>[A-Za-z_]\w*)\s*(?::[^=\n]*)?=")


@dataclass(frozen=True)
class EnumDef:
    """An enum as the repo has it now: where it is defined and its members in order."""

    name: str
    path: str
    line: int
    members: tuple[str, ...]


def enum_definitions(root: Path, names: Iterable[str]) -> Mapping[str, EnumDef]:
    """The one definition of each of `names` the repo holds (none when two or more)."""
    wanted = sorted({n for n in names if _IDENT.fullmatch(n)})
    if not wanted:
        return {}
    found: dict[str, list[EnumDef | None]] = {}
    for path, line, name in _grep(root, wanted):
        found.setdefault(name, []).append(_read(root, path, line, name))
    return {name: defs[0] for name, defs in found.items()
            if len(defs) == 1 and defs[0] is not None}


def _grep(root: Path, names: list[str]) -> list[tuple[str, int, str]]:
    """(path, line, name) of each line that opens one of `names`, in one `git grep`."""
    group = "|".join(names)
    end = "([^A-Za-z0-9_]|$)"
    lines = grep_lines(root, [rf"enum[[:space:]]+((class|struct)[[:space:]]+)?({group}){end}",
                              rf"class[[:space:]]+({group})[[:space:]]*\([^)]*Enum"])
    opener = re.compile(rf"\b(?:enum\s+(?:(?:class|struct)\s+)?|class\s+)({group})\b")
    return [(path, number, match.group(1)) for path, number, text in lines
            if (match := opener.search(text))]


def _read(root: Path, path: str, line: int, name: str) -> EnumDef | None:
    try:
        file = root / path
        if file.stat().st_size > MAX_BYTES:
            return None
        text = file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return None
    opening = lines[line - 1]
    members: tuple[str, ...] | None
    if re.search(r"\bclass\s", opening) and "enum" not in opening.split("(")[0]:
        members = _python_members(lines[line:])
    else:
        members = _braced_members("\n".join(lines[line - 1:]))
    if not members or len(members) > MAX_MEMBERS:
        return None
    return EnumDef(name, path, line, members)


def _braced_members(text: str) -> tuple[str, ...] | None:
    """Members between the first `{` and its matching `}`, split on top-level commas."""
    start = text.find("{")
    if start < 0:
        return None
    depth, parts = 0, []
    current: list[str] = []
    for char in _COMMENTS.sub(" ", text[start + 1:start + 1 + BODY_MAX]):
        if char in "{([":
            depth += 1
        elif char in "})]":
            if depth == 0:
                break
            depth -= 1
        if depth == 0 and char in ",;\n":
            parts.append("".join(current))
            current = []
            if char == ";":
                break  # Java: fields and methods follow the members
            continue
        current.append(char)
    else:
        return None  # never closed: not a body we can read
    parts.append("".join(current))
    names = [_member(part) for part in parts]
    return tuple(n for n in names if n)


def _member(part: str) -> str | None:
    cleaned = _ATTRIBUTES.sub(" ", part).strip()
    cleaned = re.sub(r"^case\s+", "", cleaned)  # Swift
    match = _IDENT.match(cleaned)
    return match.group(0) if match else None


def _python_members(lines: list[str]) -> tuple[str, ...]:
    members: list[str] = []
    indent: str | None = None
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if indent is not None and not line.startswith(indent):
            break
        match = _PY_MEMBER.match(line)
        if indent is None:
            if not line[:1].isspace():
                break
            indent = re.match(r"[ \t]+", line).group(0)  # type: ignore[union-attr]
        if match and match.group("indent") == indent and not match.group("name").startswith("_"):
            members.append(match.group("name"))
    return tuple(members)
