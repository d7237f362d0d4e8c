"""Compare a version a memory states ("React 17", "Python 3.10") with what a manifest declares.

The claim is read at its own precision: "Python 3" is satisfied by 3.12, "Python
3.10" is not. Ranges from npm (`^`, `~`, `||`), PEP 440 (`~=`, `>=…,<…`), Cargo and
Bundler (`~>`) are understood well enough to say yes, no, or "cannot tell" (None).
"""

from __future__ import annotations

import re

Version = tuple[int, ...]
NUMBERS = re.compile(r"\d+(?:\.\d+)*")
CONSTRAINT = re.compile(r"^(===|==|~=|~>|>=|<=|!=|>|<|\^|~|=)?\s*v?(\d+(?:\.\d+)*)(?:\.[x*])?")


def parse_version(text: str) -> Version | None:
    match = NUMBERS.search(text)
    return tuple(int(p) for p in match.group(0).split(".")) if match else None


def satisfies(claim: Version, spec: str) -> bool | None:
    """Does the declared `spec` allow the claimed version? None when the spec is unreadable."""
    spec = spec.strip()
    if not spec or spec in ("*", "latest", "x"):
        return None
    answers = [_all_of(claim, alternative) for alternative in spec.split("||")]
    known = [a for a in answers if a is not None]
    if not known:
        return None
    return any(known)


def _all_of(claim: Version, group: str) -> bool | None:
    tight = re.sub(r"([<>=!~^]+)\s+", r"\1", group.strip())
    parts = [p for p in re.split(r"[,\s]+(?=[<>=!~^]|\d)", tight) if p.strip()]
    results: list[bool] = []
    for part in parts:
        match = CONSTRAINT.match(part.strip())
        if match is None:
            return None
        op = match.group(1) or "=="
        declared = tuple(int(x) for x in match.group(2).split("."))
        results.append(_check(op, claim, declared))
    return all(results) if results else None


def _check(op: str, claim: Version, declared: Version) -> bool:
    n = len(claim)
    cut = declared[:n]
    if op in ("==", "=", "==="):
        return claim[: len(declared)] == cut
    if op == "!=":
        return True
    if op == ">=":
        return claim >= cut
    if op == ">":
        return claim > cut or (claim == cut and len(declared) > n)
    if op == "<=":
        return claim <= cut
    if op == "<":
        return claim < cut or (claim == cut and len(declared) > n)
    if op == "^":
        fixed = 2 if declared[0] == 0 and len(declared) > 1 else 1
        return claim[:fixed] == declared[:fixed][:n] and claim >= cut
    if op in ("~=", "~>"):  # PEP 440, and Ruby's (and Terraform's) pessimistic operator
        fixed = max(1, len(declared) - 1)
        return claim[:fixed] == declared[:fixed][:n] and claim >= cut
    # npm `~`: same major.minor when given, else same major.
    fixed = min(2, len(declared))
    return claim[:fixed] == declared[:fixed][:n] and claim >= cut


def shown(declared: str, precision: int) -> str | None:
    """The declared version cut to the claim's precision, for a proposed correction."""
    version = parse_version(declared)
    if version is None:
        return None
    return ".".join(str(p) for p in version[:precision])


def exact(spec: str) -> bool:
    """A spec naming one version (a lock entry, `.python-version`, `==1.2.3`)."""
    return re.fullmatch(r"\s*(?:==|=)?\s*v?\d+(?:\.\d+)*\s*", spec) is not None
