"""Maven and Gradle build files: `pom.xml`, `build.gradle(.kts)` and `settings.gradle(.kts)`.

Read with regular expressions rather than an XML parser: only a few elements matter, and a
build file should never be able to make the tool expand entities or fetch anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from prune_memory.evidence.probes.manifest_facts import ManifestFacts, normal_name

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
