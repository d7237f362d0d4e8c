"""semver: a claimed version read at its own precision against npm, PEP 440 and Cargo specs."""

from __future__ import annotations

import pytest

from prune_memory.evidence.probes.semver import exact, parse_version, satisfies, shown


@pytest.mark.parametrize(("claim", "spec", "expected"), [
    ("17", "^18.2.0", False), ("18", "^18.2.0", True), ("3.10", ">=3.11", False),
    ("3.12", ">=3.11", True), ("3", ">=3.11", True), ("7", ">=7.4", True),
    ("8", ">=7,<9", True), ("9", ">=7,<9", False), ("3.11", "3.11.4", True),
    ("3.10", "3.11.4", False), ("1", "~1.6.0", True), ("1.5", "~1.6.0", False),
    ("5", ">= 5.0", True), ("20", ">=18 <21", True), ("16", "^14 || ^16", True),
    ("2.1", "~=2.2", False), ("2.3", "~=2.2", True), ("0.5", "^0.4", False),
])
def test_satisfies(claim: str, spec: str, expected: bool) -> None:
    version = parse_version(claim)
    assert version is not None
    assert satisfies(version, spec) is expected


@pytest.mark.parametrize("spec", ["", "*", "latest", "workspace:foo"])
def test_unreadable_specs_cannot_tell(spec: str) -> None:
    assert satisfies((1,), spec) is None


def test_shown_and_exact() -> None:
    assert shown("^18.2.0", 1) == "18" and shown(">=3.11", 2) == "3.11"
    assert exact("3.12.4") and exact("==1.2") and not exact(">=1.2")
