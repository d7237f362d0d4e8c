"""manifests: packages, runtimes and names out of every supported file, forgivingly."""

from __future__ import annotations

from prune_memory.evidence.manifests import normal_name, parse_manifest


def test_package_json() -> None:
    facts = parse_manifest("package.json", '{"name": "web", "dependencies": {"React": "^18"},'
                           ' "devDependencies": {"jest": "^29"}, "engines": {"node": ">=20"}}')
    assert facts.name == "web" and facts.packages == {"react": "^18", "jest": "^29"}
    assert facts.runtimes == {"node": ">=20"}


def test_pyproject_pep621_and_poetry() -> None:
    pep621 = parse_manifest("pyproject.toml", '[project]\nname = "api"\nrequires-python = ">=3.11"'
                            '\ndependencies = ["FastAPI[all]>=0.110", "typing_extensions"]\n'
                            '[project.optional-dependencies]\ndev = ["pytest>=8"]\n')
    assert pep621.packages == {"fastapi": ">=0.110", "typing-extensions": "", "pytest": ">=8"}
    assert (pep621.name, pep621.runtimes) == ("api", {"python": ">=3.11"})
    poetry = parse_manifest("pyproject.toml", '[tool.poetry]\nname = "svc"\n'
                            '[tool.poetry.dependencies]\npython = "^3.10"\ndjango = "^4.2"\n')
    assert poetry.packages == {"django": "^4.2"} and poetry.runtimes == {"python": "^3.10"}


def test_small_files_and_locks() -> None:
    assert parse_manifest("requirements-dev.txt", "# c\nrequests==2.31 ; python_version>'3'\n"
                          "-r base.txt\n").packages == {"requests": "==2.31"}
    assert parse_manifest(".tool-versions", "nodejs 20.11.0\npython 3.12.1\n").runtimes == \
        {"node": "20.11.0", "python": "3.12.1"}
    assert parse_manifest(".nvmrc", "v18\n").runtimes == {"node": "18"}
    assert parse_manifest("go.mod", "module github.com/acme/tool\n\ngo 1.22\n").name == "tool"
    lock = parse_manifest("poetry.lock", '[[package]]\nname = "Django"\nversion = "4.2.7"\n')
    assert lock.locked and lock.packages == {"django": "4.2.7"}
    npm = parse_manifest("package-lock.json",
                         '{"packages": {"node_modules/react": {"version": "18.2.0"}}}')
    assert npm.packages == {"react": "18.2.0"}


def test_broken_files_give_nothing() -> None:
    assert parse_manifest("package.json", "{not json").packages == {}
    assert parse_manifest("Cargo.toml", "[[[").name is None
    assert parse_manifest("README.md", "# hi").packages == {}
    assert normal_name("Typing_Extensions") == "typing-extensions"
