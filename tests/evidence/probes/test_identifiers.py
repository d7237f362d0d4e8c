"""name-drift of code names: a name the code held when the memory was written, gone since.

Real shapes, in our own words: a constant replaced by another in one commit (the memory
still names the old one), a helper deleted with its backend, a name a library defines (never
in the repo), a name the memory itself says was dropped, and a name that moved into a data
file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory.config import Config
from prune_memory.evidence.gitrepo import read_repo_facts
from prune_memory.evidence.probes.base import Verdict
from prune_memory.evidence.probes.codenames import names_in
from prune_memory.evidence.probes.identifiers import IdentifierProbe
from prune_memory.model import FindingCode
from prune_memory.procedure.staleness import StalenessReport, probe_staleness
from tests.evidence.probes.gitbuild import NOW, GitRepo, entry, memdir

CODE = ("MAX_RETRIES = 3\n\ndef ensure_vault_password(path):\n    return path\n\n"
        "def load_config(path):\n    return {'retries': MAX_RETRIES}\n")


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({"app/settings.py": CODE, "app/old.py": "def gone_early():\n    pass\n"})
    repo.commit("start")  # 2026-01-01
    repo.rm("app/old.py").commit("drop old")  # 2026-01-02: before the memory
    return repo


def later(repo: GitRepo) -> None:
    """After the memory (written 2026-01-10): one constant renamed on its lines, one helper
    deleted."""
    text = CODE.replace("MAX_RETRIES", "RETRY_LIMIT").replace(
        "def ensure_vault_password(path):\n    return path\n\n", "")
    repo.write({"app/settings.py": text}).commit("rename the retry limit",
                                                 date="2026-02-01T12:00:00+00:00")


def run(repo: GitRepo, *entries: object) -> StalenessReport:
    return probe_staleness(memdir(*entries), repo.root, NOW, Config(),  # type: ignore[arg-type]
                           probes=[IdentifierProbe()])


BODY = ("Retries stop at `MAX_RETRIES`; the vault is opened by `ensure_vault_password()`, "
        "settings come from `load_config()`. Dates parse with `dateutil.parser.isoparse()`.\n")
WRITTEN = "2026-01-10T00:00:00+00:00"


def test_names_the_code_still_holds_confirm_the_memory(repo: GitRepo) -> None:
    report = run(repo, entry("a.md", BODY, written=WRITTEN))
    assert report.findings["a.md"] == ()
    verdicts = {c.text: c.verdict for c in report.claims["a.md"]}
    assert verdicts == {"MAX_RETRIES": Verdict.CONFIRMED,
                        "ensure_vault_password": Verdict.CONFIRMED,
                        "load_config": Verdict.CONFIRMED}  # the library's name is no claim


def test_a_name_replaced_on_its_lines_is_corrected_to_its_successor(repo: GitRepo) -> None:
    later(repo)
    report = run(repo, entry("a.md", BODY, written=WRITTEN))
    by_claim = {f.evidence["claim"]: f for f in report.findings["a.md"]}
    renamed = by_claim["MAX_RETRIES"]
    assert renamed.code is FindingCode.NAME_DRIFT
    assert renamed.evidence["current"] == "RETRY_LIMIT"
    assert renamed.evidence["file"] == "app/settings.py"
    assert renamed.evidence["date"] == "2026-02-01"
    assert "replaced it with `RETRY_LIMIT`" in renamed.message
    deleted = by_claim["ensure_vault_password"]
    assert deleted.evidence["current"] is None and "removed it from app/settings.py" in \
        deleted.message
    assert report.fidelity["a.md"].value == "failed"
    # the rename carries its fix; the deleted helper needs a person's edit
    assert renamed.proposed_text is not None and deleted.proposed_text is None


def test_a_lone_rename_proposes_the_corrected_text(repo: GitRepo) -> None:
    later(repo)
    report = run(repo, entry("a.md", "Retries stop at `MAX_RETRIES`.\n", written=WRITTEN))
    assert report.proposed_text["a.md"] == "Retries stop at `RETRY_LIMIT`.\n"


def test_a_name_gone_before_the_memory_was_written_proves_nothing(repo: GitRepo) -> None:
    report = run(repo, entry("a.md", "Cleanup ran in `gone_early()`.\n", written=WRITTEN))
    assert report.findings["a.md"] == () and report.claims["a.md"] == ()


def test_a_memory_that_says_the_name_is_gone_agrees_with_the_code(repo: GitRepo) -> None:
    later(repo)
    body = "`ensure_vault_password` was removed with the vault backend.\n"
    report = run(repo, entry("a.md", body, written=WRITTEN))
    assert report.findings["a.md"] == ()


def test_a_name_that_moved_into_a_data_file_is_not_gone(repo: GitRepo) -> None:
    later(repo)
    repo.write({"config/limits.json": '{"MAX_RETRIES": 3}\n'}).commit("limits as data")
    report = run(repo, entry("a.md", "Retries stop at `MAX_RETRIES`.\n", written=WRITTEN))
    assert report.findings["a.md"] == ()


def test_a_memory_inside_the_repo_is_not_code(repo: GitRepo, tmp_path: Path) -> None:
    later(repo)
    repo.write({".claude/memory/a.md": "Retries stop at `MAX_RETRIES`.\n"}).commit("memory")
    found = probe_staleness(memdir(entry("a.md", "Retries stop at `MAX_RETRIES`.\n",
                                         written=WRITTEN), root=repo.root / ".claude/memory"),
                            repo.root, NOW, Config(), probes=[IdentifierProbe()])
    assert found.findings["a.md"][0].evidence["current"] == "RETRY_LIMIT"


def test_the_names_a_memory_gives() -> None:
    text = ("`ClientWorld.ApplySnapshot()`, `MAX_ROWS`, `run()`, `fetch_all`, `const FIRST = 0`, "
            "`src/app.py`, `config.yaml`, `make test`, `user`, `Tick()`, `z.url()`")
    assert names_in(text) == ["ClientWorld", "ApplySnapshot", "MAX_ROWS", "fetch_all", "FIRST",
                              "Tick"]


def test_a_command_or_statement_names_only_what_is_shaped_as_code() -> None:
    text = ("Run `npx convex run users:_resetPlan '{\"userId\": 1}'` or `make lint now`; "
            "then `result = load_config(path)`.")
    assert names_in(text) == ["_resetPlan", "userId", "load_config"]


def test_a_helper_called_in_a_fenced_command_is_drift_when_deleted(repo: GitRepo) -> None:
    later(repo)
    body = "Open the vault by hand:\n\n```bash\npython -c 'ensure_vault_password(\".\")'\n```\n"
    report = run(repo, entry("a.md", body, written=WRITTEN))
    (found,) = report.findings["a.md"]
    assert found.evidence["claim"] == "ensure_vault_password"
    assert "removed it from app/settings.py" in found.message


def test_git_processes_do_not_grow_with_the_memories(repo: GitRepo,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.procedure.test_staleness import count_git_processes
    later(repo)

    def processes(count: int) -> list[str]:
        entries = [entry(f"m{n}.md", BODY + f"Also `helper_{n}()` and `MAX_RETRIES`.\n",
                         written=WRITTEN) for n in range(count)]
        seen = count_git_processes(monkeypatch)
        report = run(repo, *entries)
        assert all(report.findings[f"m{n}.md"] for n in range(count))
        monkeypatch.undo()
        return list(seen)

    few, many = processes(3), processes(150)
    assert few == many
    # the history pass, then: the tree as it was, the log of those lines, the whole tree
    assert [c for c in few if c.startswith("popen")][-3:] == [
        "popen git grep", "popen git log", "popen git grep"]


# A name the code still holds elsewhere, taken out of the file the memory puts it in.
LAYOUT = ("import { Shell } from './shell';\n\nconst NAV_ITEMS = {\n  home: '/',\n};\n\n"
          "export function Layout() {\n  return Shell(NAV_ITEMS);\n}\n")
STEPS = ("New page checklist:\n"
         "1. `src/layout/Layout.jsx` — add the page to `NAV_ITEMS`\n"
         "2. `src/pages/Page.jsx` — create the page\n")


@pytest.fixture
def app(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "app")
    repo.write({"src/layout/Layout.jsx": LAYOUT,
                "src/layout/shell.js": "export const Shell = x => x;\n",
                "src/pages/Page.jsx": "export const Page = () => null;\n"})
    repo.commit("start")  # 2026-01-01, before the memory (2026-01-10)
    return repo


def test_a_definition_moved_to_its_own_module_names_where_it_is_now(app: GitRepo) -> None:
    moved = LAYOUT.replace("const NAV_ITEMS = {\n  home: '/',\n};\n",
                           "import { NAV_ITEMS } from '../nav';\n")
    app.write({"src/layout/Layout.jsx": moved, "src/nav.js": "export const NAV_ITEMS = {\n"
               "  home: '/',\n};\n"}).commit("nav items in their own module",
                                             date="2026-02-01T12:00:00+00:00")
    report = run(app, entry("steps.md", STEPS, written=WRITTEN))
    (found,) = report.findings["steps.md"]
    assert found.code is FindingCode.NAME_DRIFT
    assert found.evidence["moved_to"] == ["src/nav.js"]
    assert found.evidence["date"] == "2026-02-01"
    assert ("`NAV_ITEMS` is no longer defined in src/layout/Layout.jsx, where this memory "
            "puts it") in found.message
    assert "it is now defined in src/nav.js" in found.message


def test_a_name_taken_out_of_its_file_while_others_use_it_is_drift(app: GitRepo) -> None:
    app.write({"src/layout/Layout.jsx": LAYOUT.replace("NAV_ITEMS", "ROUTES"),
               "src/pages/Page.jsx": "export const Page = () => NAV_ITEMS;\n"
               "const NAV_ITEMS = {};\n"}).commit("routes", date="2026-02-01T12:00:00+00:00")
    (found,) = run(app, entry("steps.md", STEPS, written=WRITTEN)).findings["steps.md"]
    assert "`NAV_ITEMS` is no longer in src/layout/Layout.jsx" in found.message
    assert "`ROUTES` stands in its place there" in found.message


def test_a_name_its_file_never_held_when_written_proves_nothing(app: GitRepo) -> None:
    body = "`src/pages/Page.jsx` reads `NAV_ITEMS` for its links.\n"  # it never did
    assert run(app, entry("steps.md", body, written=WRITTEN)).findings["steps.md"] == ()


def test_a_name_that_left_its_file_before_the_memory_proves_nothing(app: GitRepo) -> None:
    app.write({"src/layout/Layout.jsx": LAYOUT.replace("NAV_ITEMS", "ROUTES"),
               "src/pages/Page.jsx": "const NAV_ITEMS = {};\n"}).commit(
        "routes", date="2026-01-05T12:00:00+00:00")
    assert run(app, entry("steps.md", STEPS, written=WRITTEN)).findings["steps.md"] == ()


def test_a_file_that_still_defines_the_name_confirms_it(app: GitRepo) -> None:
    app.write({"src/layout/Layout.jsx": LAYOUT + "// NAV_ITEMS is read by the menu too\n"}
              ).commit("note", date="2026-02-01T12:00:00+00:00")
    report = run(app, entry("steps.md", STEPS, written=WRITTEN))
    assert report.findings["steps.md"] == ()
    assert {c.text: c.verdict for c in report.claims["steps.md"]}["NAV_ITEMS"] is \
        Verdict.CONFIRMED


def test_probing_with_git_in_the_background_gives_the_serial_report(repo: GitRepo) -> None:
    """The pass starts the identifier search (and the enum grep) on a worker thread and checks
    the other probes first; the report is the one a serial stage gives, entry for entry."""
    from concurrent.futures import ThreadPoolExecutor

    from prune_memory.procedure.staleness import finish_probing, start_probing

    later(repo)
    repo.write({"app/modes.py": "from enum import Enum\n\n\nclass Mode(Enum):\n"
                                "    FAST = 1\n    SLOW = 2\n"}).commit(
        "modes", date="2026-02-02T12:00:00+00:00")
    memories = memdir(entry("a.md", BODY, written=WRITTEN),
                      entry("b.md", "- `Mode` enum: FAST, SLOW, AUTO\n", written=WRITTEN),
                      entry("c.md", "Retries stop at `MAX_RETRIES`.\n", written=WRITTEN))
    serial = probe_staleness(memories, repo.root, NOW, Config())
    facts = read_repo_facts(repo.root)
    with ThreadPoolExecutor(max_workers=1) as worker:
        probing = start_probing(memories, NOW, Config(), facts, background=worker)
        assert probing.ctx._pending  # the git work really went to the worker
        threaded = finish_probing(probing)
    assert threaded.to_json() == serial.to_json()
    assert any(f.code is FindingCode.NAME_DRIFT for f in serial.findings["a.md"])
    assert any(f.code is FindingCode.COUNT_DRIFT for f in serial.findings["b.md"])
