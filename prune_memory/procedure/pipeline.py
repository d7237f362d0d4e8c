"""The pass, stage by stage: load → classify → probe → fidelity and hygiene → decide → plan.

Applying the plan, the audit entry and the closing scan come after the review
(`procedure/run_pass.py`); this module only reads, so `plan` can never change anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from prune_memory.analysis.contradictions import check_negations, check_said_gone, check_said_wrong
from prune_memory.analysis.decay import Decay, entry_decay
from prune_memory.analysis.gcpause import collector_paused
from prune_memory.analysis.hooks_vs_topics import clash_entries
from prune_memory.analysis.hygiene import check_hygiene
from prune_memory.analysis.inoculation import find_abandoned_strategy
from prune_memory.analysis.instruction_files import (
    InstructionFile,
    InstructionIndex,
    claude_md_sources,
    read_instructions,
)
from prune_memory.analysis.instructions import check_instructions
from prune_memory.analysis.policy import Policy, default_policy, load_policy
from prune_memory.analysis.sessions import index_session_logs, session_log_finding
from prune_memory.analysis.utility import check_utility
from prune_memory.analysis.valueclash import check_values
from prune_memory.config import load_config
from prune_memory.errors import BadInputError
from prune_memory.evidence.gitrepo import read_repo_facts
from prune_memory.model import (
    POLICY_FILE,
    Entry,
    Fidelity,
    Finding,
    FindingCode,
    LoadError,
    MemoryDir,
)
from prune_memory.plan import Plan
from prune_memory.procedure.assemble import assemble_plan
from prune_memory.procedure.decide import Evidence
from prune_memory.procedure.fidelity import check_fidelity
from prune_memory.procedure.inventory import Inventory, take_inventory
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.reachability import scan
from prune_memory.procedure.staleness import StalenessReport, finish_probing, start_probing
from prune_memory.store.loader import load_memory_dir
from prune_memory.store.pruninglog import PruningLog, flagged_items, read_log

Progress = Callable[[str], None]
STALE_AT = 0.8


def _quiet(stage: str) -> None:
    """The default progress callback: stages never print, the CLI may."""


def build_plan(root: Path, options: PassOptions, progress: Progress = _quiet, *,
               instructions: Sequence[InstructionFile] | None = None) -> Plan:
    """Run every read-only stage on `root` and decide what to do with each entry.
    `instructions`: the project's instruction files, when the caller read them already
    (`run_pass` reads them once for the plan and the review)."""
    if instructions is None:
        instructions = read_instructions(options.repo, options.home, skip=root)
    with collector_paused():  # a pass makes millions of acyclic objects: see gcpause
        return _build_plan(root, options, progress, instructions)


def _build_plan(root: Path, options: PassOptions, progress: Progress,
                instructions: Sequence[InstructionFile]) -> Plan:
    progress("load")
    memdir = load_memory_dir(root)
    hooks, hook_findings = clash_entries(memdir)  # pointer lines that disagree with their file
    memdir = replace(memdir, entries=(*memdir.entries, *hooks))
    log = read_log(root)
    progress("classify")
    inventory = take_inventory(memdir, options.now, options.reads)
    progress("repo")
    config = load_config(options.config, options.repo)
    facts = read_repo_facts(options.repo)
    # The probes' longest git work (a `git log -G`, a `git grep`) runs on a worker thread
    # while this one checks fidelity and hygiene: git runs in a process of its own, so its
    # wait overlaps work that does not need it. Every result is what a serial pass gives.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="git") as git_worker:
        probing = start_probing(memdir, options.now, config, facts, background=git_worker)
        progress("fidelity")
        protected = frozenset(item.file for item in log.protected)
        claude_md = claude_md_sources(instructions)
        fidelity = check_fidelity(memdir, protected=protected,
                                  near_threshold=options.near_threshold)
        denied = merge_findings(check_negations(memdir, claude_md), check_instructions(
            memdir.entries, InstructionIndex(instructions)))
        progress("hygiene")
        policy, policy_errors = _policy(root)
        hygiene = merge_findings(
            check_hygiene(memdir, policy=policy, require_source=options.require_source),
            index_session_logs(memdir))
        clashes = merge_findings(check_values(memdir), check_said_gone(memdir),
                                 check_said_wrong(memdir), hook_findings)
        progress("staleness")
        staleness = finish_probing(probing)
    memdir = replace(memdir, errors=(*memdir.errors, *policy_errors))
    progress("decide")
    evidence = gather_evidence(memdir, inventory, staleness,
                               [fidelity, hygiene, clashes, denied], log, options)
    reach = scan(memdir, [(r.register_id, r.tombstone) for r in log.rows], repo=facts)
    return assemble_plan(memdir, options, evidence, reach, staleness, config.trusted,
                         flagged=flagged_items(log.text))


def _policy(root: Path) -> tuple[Policy, tuple[LoadError, ...]]:
    """The directory's never-persist rules. A policy file that cannot be read or parsed is
    a per-file error, like any other, and the built-in rules apply meanwhile."""
    try:
        return load_policy(root), ()
    except BadInputError as err:
        reason = str(err).removeprefix(f"{POLICY_FILE}: ")
        return default_policy(), (LoadError(POLICY_FILE, f"{reason}; the built-in rules "
                                                         "were used"),)


def gather_evidence(memdir: MemoryDir, inventory: Inventory, staleness: StalenessReport,
                    checks: list[Mapping[str, tuple[Finding, ...]]], log: PruningLog,
                    options: PassOptions) -> list[tuple[Evidence, Decay]]:
    """Everything learned about each entry, in the order the entries were loaded."""
    covered = _inoculated(memdir)
    out: list[tuple[Evidence, Decay]] = []
    for row in inventory.rows:
        entry = row.entry
        found = [*staleness.findings.get(entry.file, ())]
        for check in checks:
            found.extend(check.get(entry.file, ()))
        found.extend(_own_checks(entry))
        decay = entry_decay(entry, options.now, recall_count=row.access.reads,
                            last_recall=row.access.last_read)
        probed = staleness.fidelity.get(entry.file, Fidelity.UNVERIFIABLE)
        if decay.score >= STALE_AT and any(f.code is FindingCode.UNVERIFIABLE for f in found):
            found.append(_stale(decay))
        out.append((Evidence(
            entry=entry, classification=row.classification, findings=tuple(found),
            probed=probed, protected=log.is_protected(entry.file), access=row.access,
            proposed_text=staleness.proposed_text.get(entry.file),
            inoculated_by=covered.get(entry.file)), decay))
    return out


def merge_findings(*checks: Mapping[str, tuple[Finding, ...]]) -> dict[str, tuple[Finding, ...]]:
    """Several checks' findings per entry, in check order."""
    out: dict[str, tuple[Finding, ...]] = {}
    for check in checks:
        for file, found in check.items():
            out[file] = out.get(file, ()) + found
    return out


def _own_checks(entry: Entry) -> list[Finding]:
    found = list(check_utility(entry))
    if entry.read_leniently:
        found.append(Finding(
            FindingCode.MALFORMED,
            f"its frontmatter is not valid YAML ({entry.read_leniently}); it was read line by "
            "line, as Claude Code reads it: quote the value that breaks it",
            evidence={"kind": "lenient-frontmatter", "error": entry.read_leniently}))
    log = session_log_finding(entry)
    if log is not None:
        found.append(log)
    abandoned = find_abandoned_strategy(entry)
    if abandoned is not None:
        found.append(abandoned)
    return found


def _stale(decay: Decay) -> Finding:
    return Finding(FindingCode.STALE,
                   f"idle {decay.days_idle} days since {decay.idle_source} "
                   f"(staleness {decay.score:.2f}); age orders the review queue, it never "
                   "decides",
                   evidence=decay.to_json())


def _inoculated(memdir: MemoryDir) -> dict[str, str]:
    """Entries a SUPERSEDED record already points at, so inoculation is not proposed twice."""
    covered: dict[str, str] = {}
    counters = [e for e in memdir.topics if e.memory_type == "superseded"]
    for entry in memdir.topics:
        for counter in counters:
            if entry.file in counter.body or f"[[{entry.name}]]" in counter.body:
                covered.setdefault(entry.file, counter.file)
    return covered
