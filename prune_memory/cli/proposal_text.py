"""What the review shows, as lines of text: a proposal with its evidence, its diff, a
memory's text, and the confirmation of every change before anything is written.

Everything is wrapped here, at word boundaries, to the terminal's width (60 columns read as
well as 160), and printed without markup: memories hold brackets of their own. A secret is
always shown masked, in the memory's text and in every diff. The prompt that asks about
them is `cli/review_prompt.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from prune_memory.engine.preview import Preview
from prune_memory.evidence.classes import Strength, evidence_words
from prune_memory.model import INDEX_FILE, JSON, TOMBSTONE_DIR, Action, FindingCode
from prune_memory.plan import PlanEntry
from prune_memory.procedure.proposals import REPAIR_WORDS, Proposal, offered, strength
from prune_memory.procedure.review import Verdict, tally
from prune_memory.report.wrapping import labelled, wrap
from prune_memory.secrets.mask import mask_text

_STRENGTH_WORDS: dict[int, str] = {Strength.SAFETY: "safety", Strength.CONFLICT: "a conflict",
                                   Strength.HISTORY: "history", Strength.SHAPE: "shape",
                                   Strength.WORDING: "wording"}
DIFF_LINES = 24  # of a proposal's diff on its screen; d shows all of it


def legend(total: int, width: int, skipped_keeps: int) -> list[str]:
    text = (f"Review: {total} question{'s' if total != 1 else ''}, strongest proof first. "
            "Each shows what is proposed and the diff it writes; y accepts it, n keeps the "
            "memory as it is, a accepts every remaining one of its class, ? explains the "
            "rest. Nothing is written until you confirm at the end, and `restore` undoes "
            "every change.")
    if skipped_keeps:
        text += (f" {skipped_keeps} proposal(s) you kept before are not asked again while "
                 "those memories are unchanged.")
    return wrap(text, width)


def item_lines(item: Proposal, width: int, dates: Mapping[str, str]) -> list[str]:
    """Everything a reviewer needs for one decision, before the diff and the prompt."""
    if item.repair is not None:
        return _repair_lines(item.repair, width)
    assert item.entry is not None
    if item.partner is not None:
        return _pair_lines(item.entry, item.partner, width, dates)
    return entry_lines(item.entry, width, dates)


def entry_lines(entry: PlanEntry, width: int, dates: Mapping[str, str]) -> list[str]:
    written = f", written {dates[entry.file]}" if entry.file in dates else ""
    lines = wrap(f"{entry.file} — {entry.cls.value}, fidelity {entry.fidelity}{written}",
                 width)
    lines += wrap(f"Proposed: {_proposed(entry)} (rule {entry.rule or '-'})", width)
    lines += _evidence(entry, width)
    for finding in entry.findings:
        if finding.message not in entry.reason:  # the reason said it already
            lines += wrap(f"- {finding.code.value}: {mask_text(finding.message)}", width,
                          indent="  ", hang="    ")
        lines += _sides(finding.evidence, width)
    return lines


def _proposed(entry: PlanEntry) -> str:
    if entry.action is Action.FLAG:
        return "flag the secret for a person (redact it, or withdraw the memory)"
    if offered(entry) is entry.action:
        return entry.action.value
    return f"{offered(entry).value} (what the evidence suggests; the plan leaves it to you)"


def _evidence(entry: PlanEntry, width: int) -> list[str]:
    lines: list[str] = []
    if entry.evidence_class:
        lines += wrap(f"Evidence: {evidence_words(entry.evidence_class)} — "
                      f"{_STRENGTH_WORDS.get(entry.strength, 'unrated')} "
                      f"(strength {entry.strength} of 5)", width, hang="  ")
    if entry.reason:
        lines += wrap(f"Why: {mask_text(entry.reason)}", width, hang="  ")
    return lines


def _sides(evidence: JSON, width: int) -> list[str]:
    """A contradiction with memories not asked about here: what each of them says."""
    lines: list[str] = []
    for side in evidence.get("sides") or []:
        if isinstance(side, dict) and side.get("says"):
            lines += wrap(f"{side.get('file')} line {side.get('line')}: "
                          f"{mask_text(str(side['says']))}", width, indent="    ",
                          hang="      ")
    return lines


def _pair_lines(first: PlanEntry, second: PlanEntry, width: int,
                dates: Mapping[str, str]) -> list[str]:
    """Both sides, each with its date, its words and the evidence, numbered 1 and 2."""
    code = next((f for f in first.findings
                 if f.code in (FindingCode.CONTRADICTION, FindingCode.NEAR_DUPLICATE)), None)
    what = "nearly repeat each other" if code and code.code is FindingCode.NEAR_DUPLICATE \
        else "may contradict each other"
    lines = wrap(f"{first.file} and {second.file} {what} — "
                 f"{_STRENGTH_WORDS.get(max(strength(first), strength(second)), 'unrated')}",
                 width)
    if code is not None:
        lines += wrap(f"Why: {mask_text(code.message)}", width, hang="  ")
    for number, entry in ((1, first), (2, second)):
        evidence = next((f.evidence for f in entry.findings if "text" in f.evidence), {})
        written = dates.get(entry.file) or str((evidence.get("written") or {}).get(
            entry.file, "date unknown"))
        lines += wrap(f"{number}  {entry.file} — {entry.cls.value}, written {written}, "
                      f"fidelity {entry.fidelity}", width, hang="   ")
        lines += wrap(mask_text(str(evidence.get("text", ""))), width, indent="     ")
        lines += [line for f in entry.findings if f.code not in (
            FindingCode.CONTRADICTION, FindingCode.NEAR_DUPLICATE)
            for line in wrap(f"- {f.code.value}: {mask_text(f.message)}", width,
                             indent="     ", hang="       ")]
    keep = (code.evidence.get("suggested_keep") if code else None)
    if keep:
        lines += wrap(f"Suggested: keep {keep} (the newer or fuller one), withdraw the "
                      "other", width)
    return lines


def _repair_lines(repair: JSON, width: int) -> list[str]:
    kind = str(repair.get("kind"))
    lines = wrap(f"MEMORY.md — index repair: {REPAIR_WORDS.get(kind, kind)}", width)
    lines += wrap(f"Why: {mask_text(str(repair.get('why', '')))}", width, hang="  ")
    if repair.get("text"):
        lines += wrap(f"Line now: {mask_text(str(repair['text']))}", width, hang="  ")
    return lines


def diff_lines(diff: str, width: int, limit: int | None = DIFF_LINES) -> list[str]:
    """A unified diff (already masked) with each long line wrapped under itself; cut to
    `limit` lines, saying how many more `d` shows."""
    out: list[str] = []
    rows = diff.splitlines()
    shown = rows if limit is None else rows[:limit]
    for line in shown:
        sign, rest = line[:1], line[1:]
        out += wrap(rest, width, indent=sign, hang=" ") \
            if sign in "+- " and not line.startswith(("---", "+++")) else wrap(line, width)
    if limit is not None and len(rows) > limit:
        out.append(f"… {len(rows) - limit} more diff lines: d shows the whole diff")
    return out


def view_lines(file: str, text: str, width: int) -> list[str]:
    return [f"--- {file} ---", *wrap(mask_text(text), width), "--- end ---"]


def describe(verdicts: Sequence[Verdict], repairs: int) -> str:
    """`7 withdrawals, 2 updates, 1 inoculation and 2 index repairs`."""
    counts = tally(verdicts)
    parts = [_n(counts[kind], kind) for kind in ("withdrawal", "update", "inoculation",
                                                 "protection") if counts[kind]]
    if repairs:
        parts.append(_n(repairs, "index repair"))
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _n(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def confirm_lines(verdicts: Sequence[Verdict], repairs: Sequence[JSON], shown: Preview,
                  width: int) -> list[str]:
    """The confirmation: each change, every file the pass writes, and MEMORY.md's growth."""
    items = [(v.choice.value, v.file + _linked(shown.linked.get(v.file, ()))) for v in verdicts]
    items += [("repair", f"{r.get('kind')}: {r.get('why', '')}") for r in repairs]
    lines = ["To apply:", *labelled(items, width)]
    lines += wrap(f"Files it writes: {_files(shown.touched)}", width, hang="  ")
    lines += _growth(shown, width)
    lines += [line for file, why in shown.refused
              for line in wrap(f"Left as it is: {file} — {why}", width, hang="  ")]
    return lines


def _linked(files: Sequence[str]) -> str:
    return f" (and unlinks it in {', '.join(files)})" if files else ""


def _files(touched: Sequence[str]) -> str:
    tombs = [t for t in touched if t.startswith(f"{TOMBSTONE_DIR}/")]
    named = [t for t in touched if not t.startswith(f"{TOMBSTONE_DIR}/")]
    if tombs:
        named.append(f"{TOMBSTONE_DIR}/ ({_n(len(tombs), 'tombstone')})")
    return ", ".join(named)


def _growth(shown: Preview, width: int) -> list[str]:
    """MEMORY.md against its load cap, when the changes make it grow: lines and characters
    (the cap is whichever Claude Code reaches first)."""
    before, after = shown.cap_before, shown.cap_after
    if after is None or not shown.index_grows:
        return []
    lines = f"{before.lines} → {after.lines}" if before is not None else f"{after.lines}"
    chars = f"{before.chars:,} → {after.chars:,}" if before is not None else f"{after.chars:,}"
    near = " — near the load cap: lines past it are never loaded" if after.near_cap else ""
    return wrap(f"{INDEX_FILE} grows: {lines} of {after.line_cap} lines, {chars} of "
                f"{after.char_cap:,} characters, {after.usage:.0%} of its load cap{near}",
                width, hang="  ")
