"""Read dependency and version files into one shape: declared packages, runtimes and a name.

Parsing is forgiving: a file that does not parse contributes nothing, never an error.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from typing import Any

from prune_memory.evidence.probes.manifest_facts import ManifestFacts, normal_name
from prune_memory.evidence.probes.manifest_facts import text_or_none as _text
from prune_memory.evidence.probes.manifests_jvm import JVM_PARSERS
from prune_memory.evidence.probes.manifests_more import MORE_PARSERS

__all__ = ["ManifestFacts", "normal_name", "parse_manifest"]

RUNTIME_KEYS = {"python": "python", "nodejs": "node", "node": "node", "golang": "go",
                "go": "go", "rust": "rust", "ruby": "ruby", "java": "java"}
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;#]*)")


def parse_manifest(path: str, text: str) -> ManifestFacts:
    """Facts from one manifest or lock file; an unreadable file gives empty facts."""
    base = path.rsplit("/", 1)[-1]
    parser = _PARSERS.get(base)
    if parser is None and base.startswith("requirements") and base.endswith(".txt"):
        parser = _requirements
    if parser is None:
        return ManifestFacts()
    try:
        return parser(text)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError,
            tomllib.TOMLDecodeError):
        return ManifestFacts()


def _package_json(text: str) -> ManifestFacts:
    data = json.loads(text)
    packages: dict[str, str] = {}
    for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        for name, spec in dict(data.get(key) or {}).items():
            packages[normal_name(name)] = str(spec)
    runtimes = {"node": str(data["engines"]["node"])} if "node" in (data.get("engines") or {}) \
        else {}
    return ManifestFacts(packages, runtimes, _text(data.get("name")))


def _pyproject(text: str) -> ManifestFacts:
    data = tomllib.loads(text)
    project = dict(data.get("project") or {})
    packages = dict(_requirement_list(project.get("dependencies") or []))
    for group in dict(project.get("optional-dependencies") or {}).values():
        packages.update(_requirement_list(group))
    for group in dict(data.get("dependency-groups") or {}).values():
        packages.update(_requirement_list([g for g in group if isinstance(g, str)]))
    poetry = dict(dict(data.get("tool") or {}).get("poetry") or {})
    tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
    tables += [g.get("dependencies") for g in dict(poetry.get("group") or {}).values()]
    for table in tables:
        for name, spec in dict(table or {}).items():
            packages[normal_name(name)] = _spec_text(spec)
    runtimes: dict[str, str] = {}
    python = project.get("requires-python") or packages.pop("python", None)
    if python:
        runtimes["python"] = str(python)
    return ManifestFacts(packages, runtimes, _text(project.get("name") or poetry.get("name")))


def _requirements(text: str) -> ManifestFacts:
    lines = [ln for ln in text.splitlines()
             if ln.strip() and not ln.lstrip().startswith(("#", "-"))]
    return ManifestFacts(dict(_requirement_list(lines)))


def _pipfile(text: str) -> ManifestFacts:
    data = tomllib.loads(text)
    packages = {normal_name(n): _spec_text(s) for key in ("packages", "dev-packages")
                for n, s in dict(data.get(key) or {}).items()}
    python = dict(data.get("requires") or {}).get("python_version")
    return ManifestFacts(packages, {"python": str(python)} if python else {})


def _cargo(text: str) -> ManifestFacts:
    data = tomllib.loads(text)
    package = dict(data.get("package") or {})
    packages = {normal_name(n): _spec_text(s) for key in ("dependencies", "dev-dependencies")
                for n, s in dict(data.get(key) or {}).items()}
    rust = package.get("rust-version")
    return ManifestFacts(packages, {"rust": str(rust)} if rust else {}, _text(package.get("name")))


def _go_mod(text: str) -> ManifestFacts:
    module = re.search(r"^module\s+(\S+)", text, re.MULTILINE)
    go = re.search(r"^go\s+(\S+)", text, re.MULTILINE)
    packages = {normal_name(m.group(1)): m.group(2) for m in
                re.finditer(r"^\s*(?:require\s+)?([\w.-]+\.[\w./-]+)\s+(v[\w.+-]+)", text,
                            re.MULTILINE)}
    name = module.group(1).rsplit("/", 1)[-1] if module else None
    return ManifestFacts(packages, {"go": go.group(1)} if go else {}, name)


def _tool_versions(text: str) -> ManifestFacts:
    runtimes: dict[str, str] = {}
    for line in text.splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 2 and parts[0] in RUNTIME_KEYS:
            runtimes[RUNTIME_KEYS[parts[0]]] = parts[1]
    return ManifestFacts(runtimes=runtimes)


def _single(runtime: str) -> Callable[[str], ManifestFacts]:
    def parse(text: str) -> ManifestFacts:
        value = text.strip().splitlines()[0].strip() if text.strip() else ""
        value = re.sub(r"^(?:python-|v)", "", value)
        return ManifestFacts(runtimes={runtime: value} if value else {})
    return parse


def _rust_toolchain_toml(text: str) -> ManifestFacts:
    channel = dict(tomllib.loads(text).get("toolchain") or {}).get("channel")
    return ManifestFacts(runtimes={"rust": str(channel)} if channel else {})


def _toml_lock(text: str) -> ManifestFacts:
    rows = tomllib.loads(text).get("package") or []
    return ManifestFacts({normal_name(r["name"]): str(r["version"]) for r in rows
                          if "name" in r and "version" in r}, locked=True)


def _package_lock(text: str) -> ManifestFacts:
    data = json.loads(text)
    packages = {normal_name(k.rsplit("node_modules/", 1)[-1]): str(v["version"])
                for k, v in dict(data.get("packages") or {}).items()
                if k.startswith("node_modules/") and k.count("node_modules/") == 1
                and "version" in v}
    for name, info in dict(data.get("dependencies") or {}).items():
        packages.setdefault(normal_name(name), str(dict(info).get("version", "")))
    return ManifestFacts(packages, locked=True)


def _yarn_lock(text: str) -> ManifestFacts:
    found = re.finditer(r'^"?(@?[^@\s"]+)@[^\n]*:\n(?:\s+[^\n]*\n)*?\s+version:? "?([^"\s]+)"?',
                        text, re.MULTILINE)
    return ManifestFacts({normal_name(m.group(1)): m.group(2) for m in found}, locked=True)


def _pipfile_lock(text: str) -> ManifestFacts:
    data = json.loads(text)
    return ManifestFacts({normal_name(n): str(dict(v).get("version", "")).lstrip("=")
                          for key in ("default", "develop")
                          for n, v in dict(data.get(key) or {}).items()}, locked=True)


def _requirement_list(items: list[Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for item in items:
        match = REQUIREMENT.match(str(item))
        if match:
            out.append((normal_name(match.group(1)), match.group(2).strip()))
    return out


def _spec_text(spec: object) -> str:
    if isinstance(spec, dict):
        return str(spec.get("version", ""))
    return str(spec)


_PARSERS: dict[str, Callable[[str], ManifestFacts]] = {
    "package.json": _package_json, "pyproject.toml": _pyproject, "Pipfile": _pipfile,
    "Cargo.toml": _cargo, "go.mod": _go_mod, ".tool-versions": _tool_versions,
    ".python-version": _single("python"), "runtime.txt": _single("python"),
    ".nvmrc": _single("node"), ".node-version": _single("node"),
    "rust-toolchain": _single("rust"), "rust-toolchain.toml": _rust_toolchain_toml,
    "poetry.lock": _toml_lock, "uv.lock": _toml_lock, "Cargo.lock": _toml_lock,
    "package-lock.json": _package_lock, "yarn.lock": _yarn_lock,
    "Pipfile.lock": _pipfile_lock,
    **MORE_PARSERS, **JVM_PARSERS,
}
