"""Manifests of R, Ruby and PHP projects: `DESCRIPTION`, `Gemfile` (and its lock),
`composer.json` (and its lock). Plain text parsing, forgiving like the rest."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from prune_memory.evidence.probes.manifest_facts import ManifestFacts, normal_name, text_or_none

_DCF_FIELD = re.compile(r"^([A-Za-z][\w.@-]*):[ \t]*(.*)$")
_R_DEPENDENCY = re.compile(r"^\s*([A-Za-z][\w.]*)\s*(?:\(([^)]*)\))?\s*$")
_GEM = re.compile(r"""^\s*gem\s+["']([\w.-]+)["']\s*(?:,\s*["']([^"']+)["'])?""", re.MULTILINE)
_RUBY = re.compile(r"""^\s*ruby\s+["']([^"']+)["']""", re.MULTILINE)
_LOCKED_GEM = re.compile(r"^ {4}([\w.-]+) \(([^)\s]+)\)$", re.MULTILINE)
_LOCKED_RUBY = re.compile(r"^RUBY VERSION\s*\n\s+ruby (\S+)", re.MULTILINE)


def _description(text: str) -> ManifestFacts:
    """R's DESCRIPTION (Debian control format: `Field: value`, indented continuation lines)."""
    fields: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        if line[:1] in (" ", "\t") and last is not None:
            fields[last] += " " + line.strip()
        elif found := _DCF_FIELD.match(line):
            last = found.group(1)
            fields[last] = found.group(2).strip()
    if "Package" not in fields:
        return ManifestFacts()  # another file called DESCRIPTION
    packages: dict[str, str] = {}
    runtimes: dict[str, str] = {}
    for key in ("Depends", "Imports", "Suggests", "LinkingTo"):
        for item in fields.get(key, "").split(","):
            found = _R_DEPENDENCY.match(item)
            if not found:
                continue
            name, spec = found.group(1), (found.group(2) or "").strip()
            if name == "R":
                runtimes["r"] = spec
            else:
                packages[normal_name(name)] = spec
    return ManifestFacts(packages, runtimes, text_or_none(fields["Package"]))


def _gemfile(text: str) -> ManifestFacts:
    packages = {normal_name(m.group(1)): m.group(2) or "" for m in _GEM.finditer(text)}
    ruby = _RUBY.search(text)
    return ManifestFacts(packages, {"ruby": ruby.group(1)} if ruby else {})


def _gemfile_lock(text: str) -> ManifestFacts:
    packages = {normal_name(m.group(1)): m.group(2) for m in _LOCKED_GEM.finditer(text)}
    ruby = _LOCKED_RUBY.search(text)
    runtimes = {"ruby": re.sub(r"p\d+$", "", ruby.group(1))} if ruby else {}
    return ManifestFacts(packages, runtimes, locked=True)


def _composer_json(text: str) -> ManifestFacts:
    data = json.loads(text)
    packages: dict[str, str] = {}
    runtimes: dict[str, str] = {}
    for key in ("require", "require-dev"):
        for name, spec in dict(data.get(key) or {}).items():
            if name == "php":
                runtimes["php"] = str(spec)
            elif not name.startswith("ext-"):
                packages[normal_name(name)] = str(spec)
    name = text_or_none(data.get("name"))
    return ManifestFacts(packages, runtimes, name.rsplit("/", 1)[-1] if name else None)


def _composer_lock(text: str) -> ManifestFacts:
    data = json.loads(text)
    return ManifestFacts({normal_name(str(p["name"])): str(p.get("version", "")).lstrip("v")
                          for key in ("packages", "packages-dev")
                          for p in list(data.get(key) or []) if "name" in p}, locked=True)


MORE_PARSERS: dict[str, Callable[[str], ManifestFacts]] = {
    "DESCRIPTION": _description, "Gemfile": _gemfile, "Gemfile.lock": _gemfile_lock,
    "composer.json": _composer_json, "composer.lock": _composer_lock,
}
