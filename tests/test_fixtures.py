"""The demo fixtures hold what fixtures/README.md and demo-expected.json promise.

Checked with plain git, yaml and regexes (never the package's loader), so a fixture bug
cannot hide behind a loader bug.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import frontmatter
import pytest
import yaml
from detect_secrets.core.secrets_collection import SecretsCollection
from detect_secrets.settings import default_settings

from prune_memory.model import MEMORY_TYPES, Action, FindingCode

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MEMORY = FIXTURES / "demo-memory"
BUILDER = FIXTURES / "build_demo_repo.py"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "demo-expected.json").read_text())
ENTRIES: dict[str, dict[str, Any]] = {e["file"]: e for e in EXPECTED["entries"]}
NOW = datetime.fromisoformat(EXPECTED["now"])
OWN_FILES = {"MEMORY.md", "pruning-log.md"}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
WIKI = re.compile(r"\[\[([^\]]+)\]\]")
NEGATION = re.compile(r"\b(not|no|never|false|none|nothing|without|cannot)\b|n't\b", re.I)
STOPWORDS = frozenset(
    "a an the is are was were be to of in on at for and or it its by from as".split()  # noqa: SIM905
)
RULE_ACTIONS: dict[str | None, set[str]] = {
    None: {"keep"}, "0-protected": {"keep"}, "1-ephemeral": {"withdraw"},
    "2-failed-fidelity": {"withdraw", "update"}, "3-duplicate": {"withdraw", "keep"},
    "4-stale-known-correction": {"update"}, "4-stale-subject-gone": {"withdraw"},
    "5-low-fidelity": {"withdraw"}, "6-completed-work": {"withdraw"},
    "7-public-reference": {"review"}, "5i-abandoned-strategy": {"withdraw+inoculate"},
    "5i-overridden-decision": {"inoculate"}, "secret": {"flag"}, "near-duplicate": {"review"},
    "contradiction": {"review"}, "poison": {"review"}, "4-stale-claim": {"update"},
    "1-never-persist": {"update"},
}
PLANTED_PAIRS = {
    frozenset({"project_dev_ports.md", "project_local_ports.md"}): "exact",
    frozenset({"feedback_pr_size.md", "feedback_small_prs.md"}): "near",
    frozenset({"project_staging_reset.md", "project_staging_refresh.md"}): "contradiction",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def build(dest: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BUILDER), str(dest)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("demo") / "cairn"
    assert build(dest).returncode == 0
    return dest


def topic_files() -> list[Path]:
    return sorted(p for p in MEMORY.glob("*.md") if p.name not in OWN_FILES)


def posts() -> dict[str, frontmatter.Post]:
    return {p.name: frontmatter.load(p) for p in topic_files()}


def text_of(post: frontmatter.Post, key: str) -> str:
    value = post[key]
    assert isinstance(value, str), key
    return value


def stamp(post: frontmatter.Post) -> datetime:
    value = post["modified"]
    assert isinstance(value, datetime)
    return value


def memory_type(post: frontmatter.Post) -> Any:
    nested = post.get("metadata")
    return post.get("type") or (nested.get("type") if isinstance(nested, dict) else None)


def index_lines() -> list[str]:
    return (MEMORY / "MEMORY.md").read_text().splitlines()


def inline_facts() -> dict[str, str]:
    return {f"MEMORY.md#L{n}": line[2:] for n, line in enumerate(index_lines(), 1)
            if line.startswith("- ") and not LINK.search(line)}


def tokens(text: str, drop_stopwords: bool = False) -> set[str]:
    found = set(re.findall(r"[a-z0-9]+", text.lower()))
    return found - STOPWORDS if drop_stopwords else found


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b)


def similarities(a: frontmatter.Post, b: frontmatter.Post) -> list[float]:
    """Jaccard under the variants an implementation might pick: body or description+body."""
    out = []
    for full, drop in itertools.product((False, True), repeat=2):
        ta = f"{text_of(a, 'description')}\n{a.content}" if full else a.content
        tb = f"{text_of(b, 'description')}\n{b.content}" if full else b.content
        out.append(jaccard(tokens(ta, drop), tokens(tb, drop)))
    return out


def normalised(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def evidence_commits(node: Any) -> Iterator[dict[str, str]]:
    if isinstance(node, dict):
        if "commit" in node:
            yield node
        for value in node.values():
            yield from evidence_commits(value)
    elif isinstance(node, list):
        for value in node:
            yield from evidence_commits(value)


# --- the builder ---------------------------------------------------------------------------

def test_builder_gives_identical_shas_twice(repo: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert build(again).returncode == 0
    log = ("log", "--format=%H %an <%ae> %ad %cn %cd %s", "--date=iso-strict")
    assert git(repo, *log) == git(again, *log)
    assert git(repo, "rev-parse", "HEAD") == EXPECTED["repo"]["head"]


@pytest.mark.parametrize("make", ["file inside", "dest is a file"])
def test_builder_refuses_a_non_empty_dest(tmp_path: Path, make: str) -> None:
    dest = tmp_path / "dest"
    if make == "file inside":
        dest.mkdir()
        (dest / "keep.txt").write_text("mine")
    else:
        dest.write_text("mine")
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file())
    result = build(dest)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file()) == before


def test_history_has_the_promised_shape(repo: Path) -> None:
    rows = git(repo, "log", "--format=%ad|%an|%cn", "--date=short").splitlines()
    assert 12 <= len(rows) <= 20 and len(rows) == EXPECTED["repo"]["commits"]
    assert all("2026-01-01" <= row[:10] <= "2026-11-30" for row in rows)
    assert len({row[11:] for row in rows}) == 1
    assert git(repo, "remote", "get-url", "origin") == EXPECTED["repo"]["remote"]
    assert len(git(repo, "ls-files", "skills/*/SKILL.md").splitlines()) == 15
    assert "CLAUDE.md" in git(repo, "ls-files").splitlines()


def test_every_evidence_commit_matches_the_built_repo(repo: Path) -> None:
    cited = list(evidence_commits(EXPECTED["entries"]))
    assert len(cited) >= 8
    for ev in cited:
        assert git(repo, "show", "-s", "--format=%ad %s", "--date=short", ev["commit"]) == (
            f"{ev['date']} {ev['subject']}")


# --- the memory directory ------------------------------------------------------------------

def test_directory_size_and_frontmatter() -> None:
    files = topic_files()
    assert 30 <= len(files) <= 38
    assert 25 <= len(files) + len(inline_facts()) <= 40
    names = []
    for path in files:
        header = path.read_text().split("---\n")[1]
        assert isinstance(yaml.safe_load(header), dict), path.name
        post = frontmatter.load(path)
        assert post["name"] and post["description"], path.name
        assert memory_type(post) in MEMORY_TYPES, path.name
        names.append(post["name"])
    assert len(names) == len(set(names))


def test_both_frontmatter_shapes_and_some_modified_stamps() -> None:
    loaded = posts().values()
    nested = [p for p in loaded if "metadata" in p.metadata]
    assert len(nested) >= 3 and len(loaded) - len(nested) >= 3
    stamped = [stamp(p) for p in loaded if "modified" in p.metadata]
    assert 5 <= len(stamped) < len(loaded)
    assert all(isinstance(m, datetime) and m.utcoffset() == timedelta(0) for m in stamped)


def test_every_wiki_link_resolves() -> None:
    loaded = posts()
    names = {p["name"] for p in loaded.values()}
    links = [name for p in loaded.values() for name in WIKI.findall(p.content)]
    assert len(links) >= 3 and set(links) <= names


def test_exactly_one_orphan_and_one_dangling_link() -> None:
    linked = {target for line in index_lines() for target in LINK.findall(line)}
    on_disk = {p.name for p in topic_files()}
    assert sorted(linked - on_disk) == EXPECTED["reachability"]["dangling"]
    assert sorted(on_disk - linked) == EXPECTED["reachability"]["orphaned"]
    text = (MEMORY / "MEMORY.md").read_text()
    assert len(index_lines()) < 100 and len(text.encode("utf-16-le")) // 2 < 10_000


def test_pruning_log_protects_two_entries_in_both_forms() -> None:
    log = (MEMORY / "pruning-log.md").read_text()
    section = log.split("## Protected\n")[1].split("\n#")[0]
    items = [line for line in section.splitlines() if line.startswith("- ")]
    assert len(items) == 2
    assert re.match(r"- `[\w.-]+\.md` — .+ \(protected \d{4}-\d{2}-\d{2}\)$", items[0])
    assert re.match(r"- [\w.-]+\.md — [^(`]+$", items[1])
    protected = [re.match(r"- `?([\w.-]+\.md)", item).group(1) for item in items]  # type: ignore[union-attr]
    assert protected == EXPECTED["pruning_log"]["protected"]
    assert protected == [f for f, e in ENTRIES.items() if e["protected"]]
    audit = log.split("### 2026-08-30 Audit\n")[1]
    for field in ("Entries audited", "Entries withdrawn", "Entries updated", "Snapshot manifest",
                  "Staleness found", "Fidelity failures", "Protected"):
        assert f"- {field}: " in audit
    assert audit.rstrip().endswith("|---|---|---|---|---|---|")


# --- the expectations file -----------------------------------------------------------------

def test_expected_covers_every_entry_and_names_only_real_files() -> None:
    assert set(ENTRIES) == {p.name for p in topic_files()} | set(inline_facts())
    for line_id, text in inline_facts().items():
        assert ENTRIES[line_id]["text"] == text
    loaded = posts()
    for file, entry in ENTRIES.items():
        if file in loaded:
            assert entry["name"] == loaded[file]["name"]
            assert entry["memory_type"] == memory_type(loaded[file])
        assert set(entry.get("related", ())) <= set(loaded)
    assert not set(EXPECTED["reachability"]["dangling"]) & set(ENTRIES)


def test_expected_codes_actions_and_rules_agree() -> None:
    codes = {c.value for c in FindingCode}
    for file, entry in ENTRIES.items():
        assert set(entry["findings"]) | set(entry["findings_optional"]) <= codes, file
        assert entry["action"] in {a.value for a in Action}, file
        # held for review, the rule's own action is kept as the suggestion
        effective = entry.get("suggested_action") or entry["action"]
        if entry["action"] == "review" and entry.get("suggested_action"):
            assert entry["evidence_class"], file
        assert effective in RULE_ACTIONS[entry["rule"]], file
        assert (entry["rule"] == "0-protected") == entry["protected"], file
        if not entry["findings"] and not entry["protected"]:
            assert (entry["action"], entry["rule"]) == ("keep", None), file
    clean = [f for f, e in ENTRIES.items() if e["rule"] is None and f.endswith(".md")]
    assert len(clean) >= 10
    planted = {code for e in ENTRIES.values() for code in e["findings"]}
    assert planted >= {"ephemeral", "noise", "duplicate", "near-duplicate", "contradiction",
                       "path-drift", "count-drift", "state-drift", "version-drift", "name-drift",
                       "secret", "poison", "claude-md-duplicate", "decision-reversal",
                       "superseded-candidate", "low-utility"}


def test_clean_entries_are_recent_so_age_is_never_a_reason() -> None:
    loaded = posts()
    for file, entry in ENTRIES.items():
        if entry["rule"] is None and file in loaded:
            written = stamp(loaded[file])
            assert timedelta(0) <= NOW - written <= timedelta(days=180), file


# --- the memories really are stale (or clean) against the repo -----------------------------

def body(file: str) -> str:
    return frontmatter.load(MEMORY / file).content


def tracked(repo: Path) -> set[str]:
    files = set(git(repo, "ls-files").splitlines())
    dirs = {f"{parent}/" for f in files for parent in Path(f).parents if str(parent) != "."}
    return files | dirs


def history_status(repo: Path, letter: str) -> list[list[str]]:
    out = git(repo, "log", "-M", f"--diff-filter={letter}", "--name-status", "--format=")
    return [line.split("\t") for line in out.splitlines() if line]


def path_claims(text: str) -> set[str]:
    """Every slash-bearing token outside URLs: what a path probe would look at."""
    text = re.sub(r"https?://\S+", " ", text)
    return {tok.strip("`\"'.,;:()") for tok in re.findall(r"[`\"]?[\w.-]*/[\w./-]*", text)}


def test_renamed_path_resolves_through_a_chain(repo: Path) -> None:
    assert "`api/auth.py`" in body("project_session_signing.md")
    at_head = tracked(repo)
    assert "api/auth.py" not in at_head and "api/auth/session.py" in at_head
    renames = [row[1:] for row in history_status(repo, "R")]
    assert ["api/auth.py", "api/session.py"] in renames
    assert ["api/session.py", "api/auth/session.py"] in renames


def test_deleted_path_is_a_deletion_not_a_rename(repo: Path) -> None:
    assert "`scripts/seed_db.py`" in body("project_seed_script.md")
    assert "scripts/seed_db.py" not in tracked(repo)
    assert ["D", "scripts/seed_db.py"] in history_status(repo, "D")
    assert all(row[1] != "scripts/seed_db.py" for row in history_status(repo, "R"))


def test_every_other_path_in_memory_is_tracked_at_head(repo: Path) -> None:
    stale = {"api/auth.py", "scripts/seed_db.py"}
    at_head = tracked(repo)
    claims = {claim for p in topic_files() for claim in path_claims(p.read_text())}
    assert stale <= claims
    assert claims - stale <= at_head


def test_drifted_count_differs_from_head_but_was_once_true(repo: Path) -> None:
    post = frontmatter.load(MEMORY / "project_skills_count.md")
    claimed = int(re.search(r"(\d+) SKILL\.md files", post.content).group(1))  # type: ignore[union-attr]
    at_head = len(git(repo, "ls-files", "skills/*/SKILL.md").splitlines())
    then = git(repo, "rev-list", "-1", f"--before={stamp(post).isoformat()}", "HEAD")
    at_write = len(git(repo, "ls-tree", "-r", "--name-only", then, "skills").splitlines())
    assert claimed != at_head and claimed == at_write
    assert ENTRIES["project_skills_count.md"]["evidence"]["repo_says"] == at_head


def test_clean_count_matches_head(repo: Path) -> None:
    claimed = int(re.search(r"holds (\d+) SQL", body("project_migrations.md")).group(1))  # type: ignore[union-attr]
    assert claimed == len(git(repo, "ls-files", "api/migrations/*.sql").splitlines())


def test_issue_42_closed_after_the_memory_said_open(repo: Path) -> None:
    post = frontmatter.load(MEMORY / "project_issue_42.md")
    assert "#42 is still open" in post.content
    closing = git(repo, "log", "--format=%cI", "-i", "--grep=closes #42").splitlines()
    assert len(closing) == 1 and datetime.fromisoformat(closing[0]) > stamp(post)


def test_test_runner_swapped_jest_for_vitest(repo: Path) -> None:
    assert "run on Jest" in body("project_web_tests_jest.md")
    first = git(repo, "rev-list", "--max-parents=0", "HEAD")
    old = json.loads(git(repo, "show", f"{first}:package.json"))
    new = json.loads((repo / "package.json").read_text())
    assert "jest" in old["devDependencies"] and "vitest" not in old["devDependencies"]
    assert "vitest" in new["devDependencies"] and "jest" not in new["devDependencies"]
    assert new["scripts"]["test"].startswith("vitest")
    assert all("jest.config.js" not in row for row in history_status(repo, "R"))


def test_package_names_changed_and_only_planted_memories_use_the_old_ones(repo: Path) -> None:
    first = git(repo, "rev-list", "--max-parents=0", "HEAD")
    assert 'name = "pebble-api"' in git(repo, "show", f"{first}:pyproject.toml")
    assert 'name = "cairn-api"' in (repo / "pyproject.toml").read_text()
    assert json.loads(git(repo, "show", f"{first}:package.json"))["name"] == "pebble-web"
    assert json.loads((repo / "package.json").read_text())["name"] == "cairn-web"
    using_old = {p.name for p in topic_files() if "pebble" in p.read_text().lower()}
    assert using_old == {"project_package_names.md", "project_rename_to_cairn.md"}
    assert "pebble" not in (MEMORY / "MEMORY.md").read_text().lower()


def test_claude_md_duplicate_is_the_only_one(repo: Path) -> None:
    raw = (repo / "CLAUDE.md").read_text().splitlines()
    lines = [normalised(line.lstrip("-# ")) for line in raw if line.strip()]
    assert normalised(body("project_utc_timestamps.md")) in lines
    for path in topic_files():
        if path.name == "project_utc_timestamps.md":
            continue
        post = frontmatter.load(path)
        units = [text_of(post, "description"), *re.split(r"(?<=[.;:])\s+", post.content)]
        for unit, line in itertools.product(units, lines):
            assert jaccard(tokens(unit, True) or {""}, tokens(line, True)) < 0.5, path.name


# --- duplicates, contradictions and secrets ------------------------------------------------

def test_only_the_planted_pairs_look_alike() -> None:
    loaded = posts()
    for (fa, a), (fb, b) in itertools.combinations(loaded.items(), 2):
        kind = PLANTED_PAIRS.get(frozenset({fa, fb}))
        sims = similarities(a, b)
        one_negated = bool(NEGATION.search(a.content)) != bool(NEGATION.search(b.content))
        if kind == "exact":
            assert normalised(a.content) == normalised(b.content)
            assert normalised(text_of(a, "description")) == normalised(text_of(b, "description"))
        elif kind == "near":
            assert min(sims) >= 0.85 and normalised(a.content) != normalised(b.content)
            assert not one_negated
        elif kind == "contradiction":
            assert min(sims) >= 0.5 and max(sims) < 0.75 and one_negated
        else:
            assert max(sims) < 0.35, (fa, fb)


def test_exactly_one_secret_and_it_is_the_fake_token() -> None:
    with default_settings():
        found = SecretsCollection()
        for path in [*topic_files(), MEMORY / "MEMORY.md", MEMORY / "pruning-log.md"]:
            found.scan_file(str(path))
    hits = [(Path(f).name, s.type) for f, secrets in found.data.items() for s in secrets]
    assert hits == [("reference_ci_bot_token.md", "GitHub Token")]
    pattern = re.compile(r"gh[pousr]_[A-Za-z0-9]{36}|AKIA[0-9A-Z]{16}|AIza|xox[abprs]-|eyJ"
                         r"|sk-[A-Za-z0-9]{16}|-----BEGIN|://[^/\s:]+:[^@\s]+@"
                         r"|\b(password|passwd|secret|token|api_?key)\s*[:=]", re.I)
    everywhere = [(p.name, m.group(0)[:4]) for p in FIXTURES.rglob("*") if p.is_file()
                  and p.suffix in {".md", ".json", ".py"} for m in pattern.finditer(p.read_text())]
    assert everywhere == [("reference_ci_bot_token.md", "ghp_")]
    assert "DEMOfakeTOKEN" in body("reference_ci_bot_token.md")
    assert "token is fake" in (FIXTURES / "README.md").read_text()
    assert ENTRIES["reference_ci_bot_token.md"]["action"] == "flag"
