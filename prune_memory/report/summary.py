"""The summary printed at the end of `run`: every change with its register id, where the
log is, and the one command that undoes the pass. Plain lines, wrapped at word boundaries."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from prune_memory.engine.results import Applied, Skipped
from prune_memory.model import INDEX_FILE, LOG_FILE, Action
from prune_memory.procedure.finish import PassReport
from prune_memory.report.wrapping import labelled, wrap

WIDE = 11  # the longest label, "to withdraw"


def summary_lines(report: PassReport, root: Path, width: int,
                  refused: Sequence[Skipped] = ()) -> list[str]:
    done = [a for a in report.applied if a.status == "done"]
    lines = ["", "Pass summary", *wrap(_headline(report, done), width)]
    lines += labelled(_changes(done), width, WIDE)
    lines += labelled(_pending(report, refused), width, WIDE)
    lines += labelled(_reach(report), width, WIDE)
    lines += [line for text in _resynthesis(report) for line in wrap(text, width, hang="    ")]
    lines += [line for w in report.warnings for line in wrap(f"Warning: {w}", width, hang="  ")]
    lines += [line for n in report.notes for line in wrap(f"Note: {n}", width, hang="  ")]
    lines += labelled([("log", str(root / LOG_FILE)),
                       ("snapshot", str(report.snapshot.manifest))], width, WIDE)
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
    return (f"Audited {report.audited} entries: withdrew {withdrawn} ({share}), updated "
            f"{updated}, wrote {notes} SUPERSEDED note{'' if notes == 1 else 's'}.")


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


def _pending(report: PassReport, refused: Sequence[Skipped]) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for label, actions in (("flagged", (Action.FLAG,)), ("review", (Action.REVIEW,)),
                           ("to update", (Action.UPDATE,)),
                           ("to withdraw", (Action.WITHDRAW, Action.WITHDRAW_INOCULATE)),
                           ("inoculate", (Action.INOCULATE,))):
        files = [e.file + (f" (suggests {e.suggested_action.value})"
                           if e.suggested_action is not None else "")
                 for e in report.pending if e.action in actions]
        if files:
            items.append((label, ", ".join(files)))
    items += [("skipped", f"{s.file}: {s.reason}") for s in (*refused, *report.skipped)]
    return items


def _reach(report: PassReport) -> list[tuple[str, str]]:
    keys = ("dangling", "outside", "orphaned", "degraded", "wiki_missing", "body_dangling",
            "unloaded")
    after = report.after.to_json()
    return [("before", ", ".join(f"{k} {len(report.before.get(k, []))}" for k in keys)),
            ("after", ", ".join(f"{k} {len(after.get(k, []))}" for k in keys))]


def _resynthesis(report: PassReport) -> list[str]:
    resyn = report.resynthesis
    return ([f"Shrunk: {s['file']} ({s['before']} → {s['after']} bytes)"
             + ("; fold what is left into the index (review)" if "fold" in s else "")
             for s in resyn.shrunk]
            + [f"Coherence (review): {c['why']}" for c in resyn.coherence]
            + [f"Cold from disuse (keep): {c['file']} — {c['label']}"
               for c in resyn.cold_disuse]
            + [f"Cold from irrelevance (look again next pass): {c['file']} — {c['label']}"
               for c in resyn.cold_irrelevance]
            + [f"Broken link: {b['file']}: {b['why']}" for b in resyn.broken_links])
