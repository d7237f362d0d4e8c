"""R, Ruby, PHP and JVM manifests: parsed into packages, runtimes and a name, and used by the
version and name probes like the others."""

from __future__ import annotations

from pathlib import Path

from prune_memory.config import Config
from prune_memory.evidence.gitrepo import is_manifest
from prune_memory.evidence.manifests import parse_manifest
from prune_memory.evidence.probes.names import NameProbe
from prune_memory.evidence.probes.versions import VersionProbe
from prune_memory.model import FindingCode
from prune_memory.procedure.staleness import probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

DESCRIPTION = """Package: tidyplots
Title: Plots
Version: 0.3.1
Depends: R (>= 4.2.0)
Imports:
    ggplot2 (>= 3.4.0),
    dplyr,
    rlang (>= 1.1)
Suggests: testthat (>= 3.0.0)
"""
POM = """<project>
  <modelVersion>4.0.0</modelVersion>
  <parent><artifactId>spring-boot-starter-parent</artifactId><version>3.2.1</version></parent>
  <artifactId>ledger-service</artifactId>
  <properties><java.version>21</java.version><jjwt.version>0.12.5</jjwt.version></properties>
  <dependencies>
    <!-- <dependency><artifactId>old-thing</artifactId></dependency> -->
    <dependency><groupId>io.jsonwebtoken</groupId><artifactId>jjwt-api</artifactId>
      <version>${jjwt.version}</version></dependency>
    <dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId>
    </dependency>
  </dependencies>
</project>
"""
GRADLE = """plugins {
    id 'org.springframework.boot' version '3.2.4'
    kotlin("jvm") version "1.9.23"
}
java { toolchain { languageVersion = JavaLanguageVersion.of(17) } }
dependencies {
    implementation("com.squareup.okhttp3:okhttp:4.12.0")
    testImplementation 'org.junit.jupiter:junit-jupiter:5.10.2'
}
"""


def test_r_description() -> None:
    facts = parse_manifest("DESCRIPTION", DESCRIPTION)
    assert facts.name == "tidyplots" and facts.runtimes == {"r": ">= 4.2.0"}
    assert facts.packages == {"ggplot2": ">= 3.4.0", "dplyr": "", "rlang": ">= 1.1",
                              "testthat": ">= 3.0.0"}
    assert parse_manifest("DESCRIPTION", "A plain description of something.").packages == {}


def test_ruby_and_php() -> None:
    gemfile = parse_manifest("Gemfile", 'source "https://rubygems.org"\nruby "3.2.2"\n'
                                        'gem "rails", "~> 7.1.0"\ngem \'pg\'\n')
    assert gemfile.packages == {"rails": "~> 7.1.0", "pg": ""}
    assert gemfile.runtimes == {"ruby": "3.2.2"}
    lock = parse_manifest("Gemfile.lock", "GEM\n  specs:\n    rails (7.1.3)\n      actionpack "
                                          "(= 7.1.3)\n\nRUBY VERSION\n   ruby 3.2.2p53\n")
    assert lock.locked and lock.packages == {"rails": "7.1.3"} and lock.runtimes == {
        "ruby": "3.2.2"}
    composer = parse_manifest("composer.json", '{"name": "acme/billing", "require": {"php": '
                                               '">=8.2", "laravel/framework": "^11.0", '
                                               '"ext-json": "*"}}')
    assert composer.name == "billing" and composer.runtimes == {"php": ">=8.2"}
    assert composer.packages == {"laravel/framework": "^11.0"}
    locked = parse_manifest("composer.lock", '{"packages": [{"name": "laravel/framework", '
                                             '"version": "v11.2.0"}]}')
    assert locked.packages == {"laravel/framework": "11.2.0"}


def test_maven_and_gradle() -> None:
    pom = parse_manifest("pom.xml", POM)
    assert pom.name == "ledger-service" and pom.runtimes == {"java": "21"}
    assert pom.packages == {"jjwt-api": "0.12.5", "postgresql": ""}
    gradle = parse_manifest("build.gradle.kts", GRADLE)
    assert gradle.runtimes == {"java": "17"}
    assert gradle.packages == {"okhttp": "4.12.0", "junit-jupiter": "5.10.2",
                               "org-springframework-boot": "3.2.4", "kotlin-jvm": "1.9.23"}
    settings = parse_manifest("settings.gradle", "rootProject.name = 'ledger'\n")
    assert settings.name == "ledger"
    assert parse_manifest("pom.xml", "<project><artifactId>").packages == {}


def test_the_repo_reader_keeps_their_history() -> None:
    for path in ("DESCRIPTION", "Gemfile", "Gemfile.lock", "composer.json", "composer.lock",
                 "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle.kts"):
        assert is_manifest(path), path


def test_version_and_name_drift_from_the_new_manifests(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"Gemfile": 'ruby "3.1.4"\ngem "rails", "~> 6.1.0"\n',
                "composer.json": '{"name": "acme/quill-api"}'}).commit("start")
    repo.write({"Gemfile": 'ruby "3.3.0"\ngem "rails", "~> 7.1.0"\n',
                "composer.json": '{"name": "acme/scribe-api"}'}).commit("Upgrade and rename")
    body = "The app is on Rails 6.1 and Ruby 3.1.4; composer publishes it as quill-api.\n"
    report = probe_staleness(memdir(entry("a.md", body)), repo.root, NOW, Config(),
                             probes=[VersionProbe(), NameProbe()])
    found = {(f.code, f.evidence.get("repo_says") if f.code is FindingCode.VERSION_DRIFT
              else None) for f in report.findings["a.md"]}
    assert found == {(FindingCode.VERSION_DRIFT, "~> 7.1.0"), (FindingCode.VERSION_DRIFT, "3.3.0"),
                     (FindingCode.NAME_DRIFT, None)}
