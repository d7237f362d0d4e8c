"""The summary printed at the end of `run`: what changed, with register ids, what is left
and why, where the log is, and the one command that undoes this pass.

It fits one screen: long lists are cut with a count of the rest, and what is only an
estimate (cold memories) is a count; `--verbose` lists everything. The log
(`pruning-log.md`) records every entry whatever the summary shows.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from prune_memory.engine.results import Applied
from prune_memory.model import INDEX_FILE, LOG_FILE, Action
from prune_memory.procedure.run_pass import PassReport
from prune_memory.report.wrapping import labelled, wrap

WIDE = 11  # the longest label, "left to ask"
SHOWN = 6  # items of one kind listed before the rest are counted
_REACH = ("dangling", "outside", "orphaned", "degraded", "wiki_missing", "body_dangling",
          "unloaded")


def summary_lines(report: PassReport, root: Path, width: int, *,
                  verbose: bool = False) -> list[str]:
    done = [a for a in report.applied if a.status == "done"]
    title = f"Pass summary ({report.pass_id})" if report.pass_id else "Pass summary"
    lines = ["", title, *wrap(_headline(report, done), width)]
    lines += labelled(_cut(_changes(done), verbose, "changes"), width, WIDE)
    lines += labelled(_pending(report, verbose), width, WIDE)
    lines += labelled(_reach(report), width, WIDE)
    lines += [line for text in _resynthesis(report, verbose)
              for line in wrap(text, width, hang="    ")]
    lines += [line for w in report.warnings for line in wrap(f"Warning: {w}", width, hang="  ")]
    lines += [line for n in report.notes for line in wrap(f"Note: {n}", width, hang="  ")]
    lines += labelled([("log", str(root / LOG_FILE))], width, WIDE)
    if verbose:
        lines += labelled([("snapshot", str(report.snapshot.manifest))], width, WIDE)
    if report.pass_id:
        lines += wrap(f"Undo this pass: prune-memory restore --pass {report.pass_id} "
                      f"--memory-dir {root}", width, hang="  ")
    else:
        lines += wrap("This pass cannot be undone whole; restore its register ids one by one.",
                      width, hang="  ")
    return lines


def _headline(report: PassReport, done: list[Applied]) -> str:
    withdrawn = report.count("withdraw")
    share = f"{100 * withdrawn / report.audited:.0f}%" if report.audited else "0%"
    updated = sum(1 for a in done if a.op == "update" and a.file != INDEX_FILE)
    notes = sum(1 for a in done if a.superseded)
    repairs = sum(1 for a in done if a.op == "update" and a.file == INDEX_FILE)
    fixed = f", repaired {repairs} index line{'' if repairs == 1 else 's'}" if repairs else ""
    return (f"Audited {report.audited} entries: withdrew {withdrawn} ({share}), updated "
            f"{updated}, wrote {notes} SUPERSEDED note{'' if notes == 1 else 's'}{fixed}.")


def _cut(items: list[tuple[str, str]], verbose: bool, what: str) -> list[tuple[str, str]]:
    if verbose or len(items) <= SHOWN + 1:
        return items
    rest = len(items) - SHOWN
    return [*items[:SHOWN], ("", f"… and {rest} more {what}: --verbose lists them, and "
                                 f"{LOG_FILE} records every one")]


def _changes(done: list[Applied]) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for a in done:
        rid = f"{a.register_id}  " if a.register_id else ""
        if a.op == "withdraw":
            items.append(("withdrawn", f"{rid}{a.file}"))
        elif a.op == "update" and a.file == INDEX_FILE:
            items.append(("index", f"{INDEX_FILE}: {a.message}"))
        elif a.op == "update":
            items.append(("updated", f"{rid}{a.file} (body, description and index line)"))
        elif a.op in ("protect", "unprotect"):
            items.append((f"{a.op}ed", a.file))
        if a.superseded:
            items.append(("SUPERSEDED", f"{a.superseded} (for {a.file})"))
        if a.linked:
            items.append(("links", f"links to {a.file} unlinked in {', '.join(a.linked)}; "
                                   f"restore {a.register_id} puts them back"))
        if a.vault:
            items.append(("secret", f"{a.file} held a secret: its original is only in the "
                                    "private vault now — rotate that credential"))
    return items


def _pending(report: PassReport, verbose: bool) -> list[tuple[str, str]]:
    """What is left: secrets flagged (always named), the proposals left to ask (counted by
    what they suggest, named with --verbose), and anything refused (named, cut)."""
    items: list[tuple[str, str]] = []
    flagged = [e.file for e in report.pending if e.action is Action.FLAG]
    if flagged:
        items.append(("flagged", f"{', '.join(flagged)} — a secret: rotate it, then redact "
                                 "or withdraw it in the review"))
    left = [e for e in report.pending if e.action is not Action.FLAG]
    if left:
        kinds = Counter((e.suggested_action or e.action).value for e in left)
        counts = ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items()))
        names = ": " + ", ".join(e.file for e in left) if verbose else ""
        items.append(("left to ask", f"{len(left)} ({counts}) — `prune-memory run` asks "
                                     f"about them{names}"))
    skipped = [("skipped", f"{s.file}: {s.reason}") for s in (*report.refused, *report.skipped)]
    return items + _cut(skipped, verbose, "skipped")


def _reach(report: PassReport) -> list[tuple[str, str]]:
    """The index before and after, only the kinds of finding that are there."""
    after = report.after.to_json()
    changes = [(k, len(report.before.get(k, [])), len(after.get(k, []))) for k in _REACH]
    shown = [f"{k.replace('_', ' ')} {was} → {now}" for k, was, now in changes if was or now]
    return [("index now", ", ".join(shown) if shown else "every link resolves, every file is "
                                                     "indexed")]


def _resynthesis(report: PassReport, verbose: bool) -> list[str]:
    resyn = report.resynthesis
    lines = ([f"Shrunk: {s['file']} ({s['before']} → {s['after']} bytes)"
              + ("; fold what is left into the index (review)" if "fold" in s else "")
              for s in resyn.shrunk]
             + [f"Coherence (review): {c['why']}" for c in resyn.coherence]
             + [f"Broken link: {b['file']}: {b['why']}" for b in resyn.broken_links])
    cold = [*resyn.cold_disuse, *resyn.cold_irrelevance]
    if verbose:
        lines += [f"Cold from disuse (keep): {c['file']} — {c['label']}"
                  for c in resyn.cold_disuse]
        lines += [f"Cold from irrelevance (look again next pass): {c['file']} — {c['label']}"
                  for c in resyn.cold_irrelevance]
    elif cold:
        labels = {str(c.get("label")) for c in cold}
        what = "estimates" if labels == {"estimate"} else "estimates and measured reads"
        lines.append(f"Cold: {len(cold)} memories look unused ({what}; age never withdraws "
                     "one) — --verbose lists them")
    return lines
