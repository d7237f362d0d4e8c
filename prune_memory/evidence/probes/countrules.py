"""Which sentences state a count, and how to recount each from the tracked tree.

Built-in rules are narrow on purpose: a count is only a claim when the sentence
says what is counted in a way the tree can answer ("12 SKILL.md files",
"skills/ has 15 skills", "tests/ contains 40 Python files"). Anything else needs
a user rule (`[[count]]` in the config); an unmatched number is never a finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from prune_memory.analysis.text import NUMBER, parse_number
from prune_memory.config import CountRule

FILE_NAME = r"[\w.-]*\w\.[A-Za-z]\w{0,9}"
DIR = r"(?:\./)?[\w.-]+(?:/[\w.-]+)*"
TOTAL_CUE = (r"(?:has|have|contains?|holds?|there\s+are|across|totals?|totalling)\s+"
             r"(?:about\s+|around\s+|roughly\s+|~\s*)?")

# "21 SKILL.md packages": nouns that each file stands for one of; such a count needs a folder
STANDS_FOR = ("packages", "skills", "plugins", "modules", "workspaces", "crates", "agents")
CUE_WORDS = ("has", "have", "contain", "hold", "there are", "across", "total")
# "12 SKILL.md files", "21 SKILL.md packages" (not "3 package.json scripts", which counts
# inside one file)
NAMED_FILES = re.compile(rf"(?<![\w.])(?P<n>{NUMBER})\s+`?(?P<name>{FILE_NAME})`?\s+"
                         rf"(?P<noun>files?|{'|'.join(STANDS_FOR)})\b", re.IGNORECASE)
SCOPE_BEFORE = re.compile(rf"`?(?P<dir>{DIR})/`?\s+(?:has|contains|holds)\s+"
                          r"(?:about\s+|around\s+|~\s*)?$")
SCOPE_AFTER = re.compile(rf"^\s+(?:(?:live|lives|sit|sits|are|exist)\s+)?(?:in|under|below)\s+"
                         rf"`?(?P<dir>{DIR})/`?")
DIR_FILES = re.compile(
    rf"`?(?P<dir>{DIR})/`?\s+(?:has|contains|holds)\s+(?P<n>{NUMBER})\s+"
    r"(?:(?P<kind>\.?[A-Za-z]\w*)\s+)?(?P<noun>files|(?:sub)?directories|(?:sub)?folders|dirs)\b",
    re.IGNORECASE)
DIR_OWN_NOUN = re.compile(
    rf"`?(?P<dir>{DIR})/`?\s+(?:has|contains|holds)\s+(?P<n>{NUMBER})\s+"
    r"(?:(?P<kind>[A-Za-z]\w*)\s+)?(?P<noun>[A-Za-z][\w-]*)(?![.\w])", re.IGNORECASE)
NOUN_TOTAL = re.compile(rf"\b{TOTAL_CUE}(?P<n>{NUMBER})\s+(?P<noun>[a-z][a-z_-]{{2,}}s)\b",
                        re.IGNORECASE)

LANGUAGES: dict[str, tuple[str, ...]] = {
    "python": (".py",), "typescript": (".ts", ".tsx"), "javascript": (".js", ".jsx", ".mjs",
                                                                       ".cjs"),
    "markdown": (".md",), "yaml": (".yml", ".yaml"), "json": (".json",), "go": (".go",),
    "rust": (".rs",), "ruby": (".rb",), "java": (".java",), "shell": (".sh",),
    "sql": (".sql",), "toml": (".toml",), "r": (".R", ".r"),
}
NOT_COUNTED = re.compile(r"^(?:readme|index|license|changelog)(?:\.\w+)?$|^\.|^_", re.I)


@dataclass(frozen=True)
class CountSpec:
    """What to count: files or directories, under `scope`, filtered by `how`."""

    what: str  # basename | extension | files | subdirs | members | children | rule
    scope: str = ""
    arg: tuple[str, ...] = ()
    rule: CountRule | None = None


@dataclass(frozen=True)
class CountClaim:
    phrase: str
    number: int
    number_text: str
    start: int
    end: int
    spec: CountSpec


def user_claims(text: str, rules: tuple[CountRule, ...]) -> Iterator[CountClaim]:
    for rule in rules:
        for match in rule.pattern.finditer(text):
            group = "n" if "n" in rule.pattern.groupindex else 1
            number_text = match.group(group) or ""
            value = parse_number(number_text)
            if value is not None:
                yield CountClaim(match.group(0), value, number_text, match.start(), match.end(),
                                 CountSpec("rule", rule=rule))


def builtin_claims(text: str) -> Iterator[CountClaim]:
    """Claims the built-in rules recognise (directory nouns are checked later, with the tree)."""
    low = text.lower()
    # Cheap word checks first: most memories state no count, and the patterns are costly.
    if any(noun in low for noun in ("file", *STANDS_FOR)):
        for match in NAMED_FILES.finditer(text):
            scope = _scope(text, match.start(), match.end())
            if not scope and match.group("noun").lower() in STANDS_FOR:
                continue  # "the 21 SKILL.md packages" of one folder, not of the whole repo
            yield _claim(match, CountSpec("basename", scope, (match.group("name"),)))
    if "/" in low and any(verb in low for verb in ("has", "contains", "holds")):
        yield from _directory_claims(text)
    if any(cue in low for cue in CUE_WORDS):
        for match in NOUN_TOTAL.finditer(text):
            yield _claim(match, CountSpec("children", arg=(match.group("noun").lower(),)))


def _directory_claims(text: str) -> Iterator[CountClaim]:
    for match in DIR_FILES.finditer(text):
        yield _claim(match, _dir_spec(match))
    for match in DIR_OWN_NOUN.finditer(text):
        if _names_dir(match.group("noun"), match.group("dir")):
            kind = (match.group("kind") or "").lower()
            yield _claim(match, CountSpec("members", match.group("dir").removeprefix("./"),
                                          LANGUAGES.get(kind, ())))


def _claim(match: re.Match[str], spec: CountSpec) -> CountClaim:
    number_text = match.group("n")
    start = match.start("n") if spec.what in ("children", "basename") else match.start()
    value = parse_number(number_text)
    return CountClaim(match.string[start:match.end()], value if value is not None else -1,
                      number_text, start, match.end(), spec)


def _scope(text: str, start: int, end: int) -> str:
    before = SCOPE_BEFORE.search(text[max(0, start - 120):start])
    if before:
        return before.group("dir").removeprefix("./")
    after = SCOPE_AFTER.match(text[end:end + 120])
    return after.group("dir").removeprefix("./") if after else ""


def _dir_spec(match: re.Match[str]) -> CountSpec:
    scope = match.group("dir").removeprefix("./")
    noun = match.group("noun").lower()
    if noun != "files":
        return CountSpec("subdirs", scope)
    kind = (match.group("kind") or "").lower()
    if not kind:
        return CountSpec("files", scope)
    extensions = LANGUAGES.get(kind) or ((kind if kind.startswith(".") else "." + kind),)
    return CountSpec("extension", scope, extensions)


def _names_dir(noun: str, directory: str) -> bool:
    """`skills/ has 15 skills`: the noun is the directory's own name, singular or plural."""
    last, noun = directory.rstrip("/").rsplit("/", 1)[-1].lower(), noun.lower()
    return noun in (last, last + "s", last.removesuffix("s")) and noun != "files"


def under(path: str, scope: str) -> bool:
    return not scope or path.startswith(scope + "/")


def counts_toward(name: str) -> bool:
    """Entries of a directory that count as members (README, index and dotfiles do not)."""
    return NOT_COUNTED.match(name) is None
