"""Step 2: compare what each memory claims with the project repo as it is now.

Reads the repo once (`gitrepo.read_repo_facts`), runs every probe over every entry,
and grades each entry's fidelity from the verdicts: a contradicted claim fails it,
all claims confirmed make it high, and nothing checkable leaves it unverifiable.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from prune_memory.config import Config
from prune_memory.evidence.claims import locate_claim
from prune_memory.evidence.gitrepo import RepoFacts, read_repo_facts
from prune_memory.evidence.probes import default_probes
from prune_memory.evidence.probes.base import (
    Claim,
    Correction,
    Prefetching,
    Probe,
    ProbeContext,
    ProbeResult,
    Verdict,
    apply_corrections,
)
from prune_memory.model import (
    JSON,
    OWN_FILES,
    Entry,
    EntryKind,
    Fidelity,
    Finding,
    FindingCode,
    MemoryDir,
)

SUPERSEDED_TYPE = "superseded"


@dataclass(frozen=True)
class StalenessReport:
    """Findings, fidelity, checked claims and proposed text, each keyed by entry `file`."""

    repo: JSON
    findings: Mapping[str, tuple[Finding, ...]]
    fidelity: Mapping[str, Fidelity]
    claims: Mapping[str, tuple[Claim, ...]]
    proposed_text: Mapping[str, str]

    def checked(self, file: str) -> str:
        """Evidence in words, e.g. "checked 3 claims: 2 confirmed, 1 contradicted"."""
        claims = self.claims.get(file)
        if not claims:
            return "no checkable claims"
        tally = Counter(c.verdict for c in claims)
        total = sum(tally.values())
        parts = [f"{tally[v]} {v.value}" for v in Verdict if tally[v]]
        noun = "claim" if total == 1 else "claims"
        return f"checked {total} {noun}: {', '.join(parts)}"

    def to_json(self) -> JSON:
        files = sorted(self.fidelity)
        return {"repo": self.repo, "entries": [
            {"file": f, "fidelity": self.fidelity[f].value, "checked": self.checked(f),
             "claims": [c.to_json() for c in self.claims.get(f, ())],
             "findings": [x.to_json() for x in self.findings.get(f, ())],
             **({"proposed_text": self.proposed_text[f]} if f in self.proposed_text else {})}
            for f in files]}


def probe_staleness(memdir: MemoryDir, repo: Path | None, now: datetime, config: Config, *,
                    facts: RepoFacts | None = None,
                    probes: Sequence[Probe] | None = None) -> StalenessReport:
    """Probe every entry of `memdir` against the repo at `repo` (read once, here or by caller)."""
    facts = facts if facts is not None else read_repo_facts(repo)
    return finish_probing(start_probing(memdir, now, config, facts, probes=probes))


@dataclass(frozen=True)
class Probing:
    """A staleness stage under way: the probes, and the context whose git-bound values may
    already be building in the background (`start_probing`)."""

    ctx: ProbeContext
    probes: tuple[Probe, ...]


def start_probing(memdir: MemoryDir, now: datetime, config: Config, facts: RepoFacts, *,
                  probes: Sequence[Probe] | None = None,
                  background: Executor | None = None) -> Probing:
    """Set the stage up and let each prefetching probe start its git work on `background`,
    so the caller can run other stages while git runs."""
    ctx = ProbeContext(facts, memdir, config, now, background=background)
    chosen = tuple(probes) if probes is not None else default_probes()
    for probe in chosen:
        if isinstance(probe, Prefetching):
            probe.prefetch(ctx)
    return Probing(ctx, chosen)


def finish_probing(probing: Probing) -> StalenessReport:
    """Check every entry with every probe; the ones reading background work go last, so
    their wait overlaps the others. Each entry's results are joined in probe order, as if
    they had run one after another."""
    ctx, chosen = probing.ctx, probing.probes
    memdir, facts = ctx.memdir, ctx.facts
    entries = [entry for entry in memdir.entries if _probed(entry)]
    results: dict[tuple[str, int], ProbeResult] = {}
    for late in (False, True):
        for entry in entries:
            for number, probe in enumerate(chosen):
                if isinstance(probe, Prefetching) is late:
                    results[entry.file, number] = probe.check(entry, ctx)
    findings: dict[str, tuple[Finding, ...]] = {}
    fidelity: dict[str, Fidelity] = {}
    claims: dict[str, tuple[Claim, ...]] = {}
    proposed: dict[str, str] = {}
    for entry in entries:
        result = sum((results[entry.file, n] for n in range(len(chosen))), ProbeResult())
        found, text = _compose(entry, result, _as_written(entry, memdir))
        if not facts.available and result.claims:
            found = (*found, _no_repo(result.claims, facts))
        elif unchecked := [c for c in result.claims if c.verdict is Verdict.UNVERIFIABLE]:
            found = (*found, _unchecked(unchecked))
        findings[entry.file] = found
        claims[entry.file] = result.claims
        fidelity[entry.file] = grade(result.claims)
        if text is not None:
            proposed[entry.file] = text
    return StalenessReport(repo=_repo_json(facts), findings=findings, fidelity=fidelity,
                           claims=claims, proposed_text=proposed)


def _probed(entry: Entry) -> bool:
    """Counter-memories name old things on purpose, and the tool's own files are not memory."""
    return entry.memory_type != SUPERSEDED_TYPE and entry.file not in OWN_FILES


def _leftover(text: str, fixes: Sequence[Correction]) -> bool:
    lower = text.lower()
    return any(fix.residue and fix.residue.lower() in lower for fix in fixes)


def _as_written(entry: Entry, memdir: MemoryDir) -> str:
    """The text a correction rewrites: a topic's body, or an inline fact's index lines as
    they stand in MEMORY.md (bullet and all), so an update can replace them line for line."""
    if entry.kind is not EntryKind.INDEX_LINE or memdir.index is None:
        return entry.body
    wanted = set(entry.index_lines)
    return "\n".join(ln.text for ln in memdir.index.lines if ln.number in wanted)


def _compose(entry: Entry, result: ProbeResult,
             written: str) -> tuple[tuple[Finding, ...], str | None]:
    """Apply every known correction at once; each correcting finding carries the whole fix,
    and every finding says which line of the memory it is about."""
    fixes = [c for item in result.flagged for c in item.corrections]
    text = apply_corrections(written, fixes) if fixes else None
    if text == written or (text is not None and _leftover(text, fixes)):
        text = None  # no change, or a stale word survives it: a person must rewrite it
    found = tuple(
        locate_claim(entry, dataclasses.replace(item.finding, proposed_text=text)
                     if item.corrections and text is not None else item.finding)
        for item in result.flagged)
    return found, text


def grade(claims: Sequence[Claim]) -> Fidelity:
    """Contradicted → failed; all confirmed → high; some confirmed → medium; else unverifiable."""
    verdicts = {c.verdict for c in claims}
    if Verdict.CONTRADICTED in verdicts:
        return Fidelity.FAILED
    if verdicts == {Verdict.CONFIRMED}:
        return Fidelity.HIGH
    if Verdict.CONFIRMED in verdicts:
        return Fidelity.MEDIUM
    return Fidelity.UNVERIFIABLE


def _no_repo(claims: Sequence[Claim], facts: RepoFacts) -> Finding:
    kinds = sorted({c.kind for c in claims})
    noun = "claim" if len(claims) == 1 else "claims"
    message = (f"{len(claims)} {noun} ({', '.join(kinds)}) could not be checked: "
               f"{facts.describe()}")
    evidence = {"claim": [c.text for c in claims][:20], "repo_says": facts.describe(),
                "commit": None, "date": None}
    return Finding(code=FindingCode.UNVERIFIABLE, message=message, evidence=evidence)


def _unchecked(claims: Sequence[Claim]) -> Finding:
    """One note for the claims the repo cannot speak to. It is information, never a reason:
    absence proves nothing (a path may be ignored, elsewhere, planned, or a placeholder)."""
    shown = [f"`{c.text}` ({c.note})" for c in claims[:5]]
    more = f" and {len(claims) - 5} more" if len(claims) > 5 else ""
    noun = "claim" if len(claims) == 1 else "claims"
    return Finding(
        code=FindingCode.UNVERIFIABLE,
        message=f"{len(claims)} {noun} the repo cannot confirm or refute: "
                f"{'; '.join(shown)}{more}",
        evidence={"claims": [c.to_json() for c in claims[:20]], "commit": None, "date": None})


def _repo_json(facts: RepoFacts) -> JSON:
    return {"root": str(facts.root) if facts.root else None, "available": facts.available,
            "reason": facts.reason, "shallow": facts.shallow, "commits": len(facts.commits),
            "tracked_files": len(facts.tracked), "remote": facts.remote_url,
            "git_calls": facts.git_calls}
