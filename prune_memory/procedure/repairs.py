"""Step 9's repairs: what it takes to make the index and the files agree again.

Each repair is plain data in the plan; the pass applies them through the engine, so every
one is logged and reversible like a withdrawal.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from prune_memory.analysis.pointers import is_placeholder, pointer_target
from prune_memory.errors import RefusedError
from prune_memory.model import JSON, Action, Entry, LinkKind, MemoryDir
from prune_memory.procedure.reachability import Reachability
from prune_memory.secrets.mask import mask_text
from prune_memory.store import index_edit
from prune_memory.store.safe_read import holds_file

if TYPE_CHECKING:
    from prune_memory.plan import PlanEntry

LEAVING = (Action.WITHDRAW, Action.WITHDRAW_INOCULATE)
# Repairs a person decides: where a link out of the folder leads is not the folder's to
# prove (the index may have been copied from elsewhere), so `--yes` never drops one.
ASKED = frozenset({"drop-outside", "relink-outside"})
ORPHAN_SECTION = "Re-indexed by prune-memory"


def index_line_for(entry: Entry) -> str | None:
    """The index line Claude Code would have written: `- [Title](file.md) — hook`, with any
    secret in the title or hook masked (the index is loaded into every session). None when
    the file's own name holds one: no line can link it without copying the secret."""
    if mask_text(entry.file) != entry.file:
        return None
    # Masked before anything is rewritten: `ghp_…` with `_` turned into a space is a token
    # no detector knows any more, and it would reach every session's context.
    title = mask_text(entry.name).replace("_", " ").replace("-", " ").strip() or entry.file
    hook = " ".join(mask_text(entry.description).split()) or "(no description)"
    return mask_text(f"- [{title[:1].upper() + title[1:]}]({entry.file}) — {hook}")


def asked(repair: JSON) -> bool:
    """A repair `--yes` leaves to a person: a link out of the folder, or a dangling pointer
    whose file name the repo has (it may mean that file)."""
    return repair["kind"] in ASKED or bool(repair.get("namesakes"))


def _droppable(memdir: MemoryDir, dangling: JSON) -> bool:
    """Only a pointer line to a real-looking file is dropped: prose that holds a link, or the
    index format written out as an example (`[Title](file.md)`), stays for a person."""
    if memdir.index is None or is_placeholder(dangling["target"]):
        return False
    line = next((ln for ln in memdir.index.lines if ln.number == dangling["line"]), None)
    if line is None or pointer_target(line, outside=bool(dangling.get("outside"))) \
            != dangling["target"]:
        return False
    # A line other memories share stays while one of them is there: it is their pointer too.
    return not any(holds_file(memdir.root, link.target) for link in line.links
                   if link.target != dangling["target"] and not link.external
                   and not link.escapes and link.kind is not LinkKind.WIKI)


def propose_repairs(memdir: MemoryDir, reach: Reachability,
                    entries: Sequence[PlanEntry]) -> list[JSON]:
    """Drop dangling index lines, fix inexact links, index orphans that stay."""
    leaving = {e.file for e in entries if e.action in LEAVING}
    repairs: list[JSON] = [
        {"kind": "relink-outside", "line": d["line"], "from": d["target"], "to": d["relink"],
         "text": d["text"], "why": f"index line {d['line']} links {d['target']}: {d['why']}"}
        if d.get("relink") else
        {"kind": "drop-outside", "line": d["line"], "target": d["target"], "text": d["text"],
         "why": f"index line {d['line']} links {d['target']}: {d['why']}"}
        if d.get("outside") else
        {"kind": "drop-dangling", "line": d["line"], "target": d["target"], "text": d["text"],
         "namesakes": d["namesakes"],
         "why": f"index line {d['line']} links {d['target']}, which is not in the folder; the "
                f"repo tracks {', '.join(d['namesakes'])}, which it may mean"}
        if d.get("namesakes") else
        {"kind": "drop-dangling", "line": d["line"], "target": d["target"], "text": d["text"],
         "why": f"index line {d['line']} links {d['target']}, which does not exist"}
        for d in reach.dangling if _droppable(memdir, d)]
    repairs += [
        {"kind": "fix-link", "line": d["line"], "from": d["target"], "to": d["likely"],
         "text": d["text"], "why": f"{d['target']} most likely means {d['likely']}"}
        for d in reach.degraded if d["target"] != d["likely"]]
    raw = memdir.index.raw if memdir.index is not None else b""
    fixed = {r["to"] for r in repairs if r["kind"] == "fix-link"}  # linked once they apply
    linked = _linked(raw) if reach.orphaned else set()
    for orphan in reach.orphaned:
        entry = memdir.entry(orphan["file"])
        if entry is None or entry.file in leaving or entry.file in fixed \
                or entry.file in linked:
            continue
        line = index_line_for(entry)
        if line is None:
            continue
        repairs.append({"kind": "index-orphan", "file": entry.file,
                        "line": line, "section": ORPHAN_SECTION,
                        "why": f"{entry.file} is on disk but nothing in the index points at it"})
    return repairs


_DOC_STEMS = frozenset({"readme", "changelog", "license", "contributing"})


def _not_a_memory(entry: Entry | None) -> str | None:
    """Why an orphan is not indexed without a person: it does not look like a memory."""
    if entry is None:
        return None
    if Path(entry.file).stem.casefold() in _DOC_STEMS:
        return "not indexed automatically: it documents the folder; it is no memory"
    if not entry.frontmatter:
        return ("not indexed automatically: it has no frontmatter, so Claude Code did not "
                "write it as a memory — index it by hand if it is one")
    return None


def within_load_cap(memdir: MemoryDir, repairs: list[JSON]) -> tuple[list[JSON], list[JSON]]:
    """The repairs that may run without a person, and the orphan lines held back: one for a
    file that is no memory, and one that would pass Claude Code's load cap (an index line
    past line 200, or 25,000 characters, is never loaded, and each one added there would
    push a loaded pointer out of every session)."""
    held: list[JSON] = []
    runnable: list[JSON] = []
    for repair in repairs:
        orphan = repair["kind"] == "index-orphan"
        if orphan and (reason := _not_a_memory(memdir.entry(repair["file"]))):
            held.append(_held(repair, reason))
        else:
            runnable.append(repair)
    repairs = runnable
    if memdir.index is None:  # every orphan line fits an index still to be written
        return repairs, held
    cap = memdir.index.cap
    lines = cap.lines - sum(1 for r in repairs if r["kind"] == "drop-dangling"
                            and not asked(r))  # sure to go
    chars = cap.chars
    fits: list[JSON] = []
    opened = False
    for repair in repairs:
        if repair["kind"] != "index-orphan":
            fits.append(repair)
            continue
        extra = 1 + (0 if opened else 2)  # the section heading and its blank line, once
        size = len(repair["line"]) + 1 + (0 if opened else len(ORPHAN_SECTION) + 5)
        if lines + extra > cap.line_cap or chars + size > cap.char_cap:
            held.append(_held(repair, "not indexed automatically: the index would pass its "
                              f"load cap ({cap.line_cap} lines or {cap.char_cap:,} "
                              "characters) — fold or withdraw something first"))
            continue
        fits.append(repair)
        lines, chars, opened = lines + extra, chars + size, True
    return fits, held


def _held(repair: JSON, reason: str) -> JSON:
    return {**repair, "why": f"{repair['why']}; {reason}"}


def _linked(raw: bytes) -> set[str]:
    """The files the line-level reading of the index (the one edits use) already links:
    say, through an index whose lines end in a lone CR, which the loader reads as a single
    line. Adding a line for one would index it twice. Read once for all the orphans: once
    per orphan made a folder of 8,000 unindexed files take 42 s."""
    try:
        return index_edit.linked_files(raw)
    except RefusedError:  # not UTF-8: nothing can be added to it anyway
        return set()
