"""Manifests: dependency and version files, then and now, read into one shape.

Which paths count (`is_manifest`), their old texts through one `cat-file --batch` process
(`manifest_history`) and their texts in the working tree now (`current_manifests`); then
each text read into `ManifestFacts`: declared packages, runtimes and a name
(`parse_manifest`), for Python, Node, Rust, Go, the JVM (`pom.xml`, Gradle), R, Ruby and
PHP. Parsing is forgiving: a file that does not parse contributes nothing, never an error.
Build files are read with regular expressions rather than an XML parser: only a few
elements matter, and a build file should never make the tool expand entities or fetch
anything.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import git

from prune_memory.evidence.githistory import CommitInfo, LoggedCommit


@dataclass(frozen=True)
class ManifestFacts:
    """What one file declares. Package keys are normalised (`normal_name`)."""

    packages: Mapping[str, str] = field(default_factory=dict)
    runtimes: Mapping[str, str] = field(default_factory=dict)
    name: str | None = None
    locked: bool = False


def normal_name(name: str) -> str:
    """Lower case, with `_` and `.` read as `-` (how pip compares names)."""
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def text_or_none(value: object) -> str | None:
    return str(value) if isinstance(value, str) and value.strip() else None


_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_BLOCKS_AWAY = re.compile(r"<(parent|dependencies|dependencyManagement|build|profiles|"
                          r"reporting|pluginRepositories|repositories)\b.*?</\1>", re.DOTALL)
_DEPENDENCY = re.compile(r"<dependency>(.*?)</dependency>", re.DOTALL)
_PROPERTY = re.compile(r"<([\w.-]+)>\s*([^<]*?)\s*</\1>")
_JAVA_PROPERTIES = ("maven.compiler.release", "maven.compiler.source", "java.version")
_GRADLE_DEPENDENCY = re.compile(
    r"""\b(?:implementation|api|compileOnly|runtimeOnly|testImplementation|"""
    r"""testRuntimeOnly|annotationProcessor|kapt|ksp|classpath)\s*\(?\s*["']"""
    r"""([\w.-]+):([\w.-]+):([^"'@:]+)["']""")
_GRADLE_PLUGIN = re.compile(
    r"""\bid\s*\(?\s*["']([\w.-]+)["']\s*\)?\s+version\s+["']([^"']+)["']"""
    r"""|\bkotlin\s*\(\s*["']([\w-]+)["']\s*\)\s+version\s+["']([^"']+)["']""")
_GRADLE_JAVA = re.compile(r"JavaLanguageVersion\.of\(\s*(\d+)\s*\)|JavaVersion\.VERSION_(\d+)"
                          r"""|sourceCompatibility\s*=\s*["']?(\d+(?:\.\d+)?)""")
_ROOT_NAME = re.compile(r"""rootProject\.name\s*=\s*["']([^"']+)["']""")


def _tag(block: str, name: str) -> str | None:
    found = re.search(rf"<{name}>\s*([^<]*?)\s*</{name}>", block)
    return found.group(1) if found else None


def _pom(text: str) -> ManifestFacts:
    text = _COMMENT.sub("", text)
    properties = dict(_PROPERTY.findall(_tag_block(text, "properties") or ""))
    packages: dict[str, str] = {}
    for block in _DEPENDENCY.findall(text):
        artifact = _tag(block, "artifactId")
        if artifact:
            version = _tag(block, "version") or ""
            packages[normal_name(artifact)] = _resolve(version, properties)
    own = _BLOCKS_AWAY.sub("", text)
    java = next((properties[key] for key in _JAVA_PROPERTIES if key in properties), None)
    return ManifestFacts(packages, {"java": java} if java else {}, _tag(own, "artifactId"))


def _tag_block(text: str, name: str) -> str | None:
    found = re.search(rf"<{name}>(.*?)</{name}>", text, re.DOTALL)
    return found.group(1) if found else None


def _resolve(version: str, properties: dict[str, str]) -> str:
    """`${spring.version}` read from `<properties>`; anything else as written."""
    found = re.fullmatch(r"\$\{([\w.-]+)\}", version)
    return properties.get(found.group(1), version) if found else version


def _gradle(text: str) -> ManifestFacts:
    packages = {normal_name(m.group(2)): m.group(3) for m in _GRADLE_DEPENDENCY.finditer(text)}
    for match in _GRADLE_PLUGIN.finditer(text):
        plugin, version = (match.group(1), match.group(2)) if match.group(1) else \
            (f"kotlin-{match.group(3)}", match.group(4))
        packages[normal_name(plugin)] = version
    java = _GRADLE_JAVA.search(text)
    runtimes = {"java": next(g for g in java.groups() if g)} if java else {}
    return ManifestFacts(packages, runtimes)


def _gradle_settings(text: str) -> ManifestFacts:
    found = _ROOT_NAME.search(text)
    return ManifestFacts(name=found.group(1) if found else None)


JVM_PARSERS: dict[str, Callable[[str], ManifestFacts]] = {
    "pom.xml": _pom, "build.gradle": _gradle, "build.gradle.kts": _gradle,
    "settings.gradle": _gradle_settings, "settings.gradle.kts": _gradle_settings,
}


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
    return ManifestFacts(packages, runtimes, text_or_none(data.get("name")))


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
    return ManifestFacts(packages, runtimes,
                         text_or_none(project.get("name") or poetry.get("name")))


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
    return ManifestFacts(packages, {"rust": str(rust)} if rust else {},
                         text_or_none(package.get("name")))


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


# Manifests whose history is kept (names, dependencies); lock files are read as they are now.
HISTORY_MANIFESTS = frozenset({
    "package.json", "pyproject.toml", "Cargo.toml", "go.mod", "Pipfile",
    ".tool-versions", ".python-version", ".nvmrc", ".node-version", "rust-toolchain",
    "rust-toolchain.toml", "runtime.txt", "DESCRIPTION", "Gemfile", "composer.json",
    "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
})
LOCK_FILES = frozenset({
    "package-lock.json", "yarn.lock", "poetry.lock", "uv.lock",
    "Cargo.lock", "Pipfile.lock", "Gemfile.lock", "composer.lock",
})
MANIFEST_MAX_DEPTH = 3
MANIFEST_MAX_VERSIONS = 200
MANIFEST_MAX_BYTES = 8_000_000
SKIPPED_DIRS = frozenset({"node_modules", "vendor", "third_party", ".venv", "site-packages"})



@dataclass(frozen=True)
class ManifestVersion:
    """One manifest's text at one commit; `text` None when it was deleted there."""

    commit: str
    date: datetime
    text: str | None


def is_manifest(path: str) -> bool:
    """A dependency or version file the version and name probes read."""
    parts = path.split("/")
    name = parts[-1]
    known = (name in HISTORY_MANIFESTS or name in LOCK_FILES
             or (name.startswith("requirements") and name.endswith(".txt")))
    return known and len(parts) <= MANIFEST_MAX_DEPTH and not SKIPPED_DIRS & set(parts)


def _history_wanted(path: str) -> bool:
    return is_manifest(path) and path.rsplit("/", 1)[-1] not in LOCK_FILES


def manifest_history(repo: git.Repo, oldest_first: list[LoggedCommit],
                      ) -> tuple[dict[str, tuple[ManifestVersion, ...]], int]:
    """Old texts of the manifests, through one persistent `cat-file --batch` process."""
    wanted: dict[str, list[tuple[str, CommitInfo, bool]]] = {}
    for commit in oldest_first:
        for change in commit.changes:
            if _history_wanted(change.path):
                wanted.setdefault(change.path, []).append(
                    (change.path, commit.info, change.status == "D"))
            if change.old_path and change.status == "R" and _history_wanted(change.old_path):
                wanted.setdefault(change.old_path, []).append(
                    (change.old_path, commit.info, True))
    if not wanted:
        return {}, 0
    out: dict[str, tuple[ManifestVersion, ...]] = {}
    for path, versions in wanted.items():
        out[path] = tuple(_version(repo, p, info, gone)
                          for p, info, gone in versions[-MANIFEST_MAX_VERSIONS:])
    return out, 1


def _version(repo: git.Repo, path: str, info: CommitInfo, gone: bool) -> ManifestVersion:
    if gone:
        return ManifestVersion(info.short, info.date, None)
    try:
        _sha, _kind, size, data = repo.git.get_object_data(f"{info.sha}:{path}")
    except ValueError:
        return ManifestVersion(info.short, info.date, None)
    if size > MANIFEST_MAX_BYTES:
        return ManifestVersion(info.short, info.date, None)
    return ManifestVersion(info.short, info.date, bytes(data).decode("utf-8", "replace"))


def current_manifests(root: Path, tracked: frozenset[str]) -> dict[str, str]:
    """Manifests as they are in the working tree now (what the user runs)."""
    out: dict[str, str] = {}
    for path in sorted(p for p in tracked if is_manifest(p)):
        file = root / path
        try:
            if file.stat().st_size <= MANIFEST_MAX_BYTES:
                out[path] = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return out
