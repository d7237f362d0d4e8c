"""What the review shows: one screen per question, the prompt, the help, diffs and views.

Everything is wrapped here, at word boundaries, to the terminal's width (60 columns read as
well as 160), and printed without markup: memories hold brackets of their own. A secret is
always shown masked, in the memory's text and in every diff.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from prune_memory.evidence.classes import Strength, evidence_words
from prune_memory.model import JSON, Action, FindingCode
from prune_memory.plan import PlanEntry
from prune_memory.procedure.proposals import REPAIR_WORDS, Proposal, offered, strength
from prune_memory.report.wrapping import wrap
from prune_memory.secrets.mask import mask_text

# Every key, as `git add -p` has them where it has one: (key, words typed for it, help).
KEYS = (
    ("y", ("yes", "accept"), "accept what is proposed (the diff shows what it writes)"),
    ("n", ("no", "keep", "k"), "keep it as it is: not proposed again until it changes"),
    ("a", ("all",), "accept this and every remaining proposal of its class"),
    ("d", ("diff",), "show the whole diff of what y writes"),
    ("e", ("edit",), "edit the text in $EDITOR, then see the diff; it becomes an update"),
    ("s", ("superseded", "note"), "write a SUPERSEDED note (asks each field; nothing is "
                                  "filled in for you), so the idea is not re-derived"),
    ("w", ("withdraw",), "withdraw: move it into deaccessioned/ (restore brings it back)"),
    ("u", ("update",), "update it with the proposed text"),
    ("r", ("redact",), "redact the secret only: the rest stays, the original goes to the "
                       "private vault"),
    ("p", ("protect",), "protect it: never withdrawn or updated until unprotected"),
    ("1", (), "withdraw the first of the two (the second stays)"),
    ("2", (), "withdraw the second of the two (the first stays)"),
    ("v", ("view", "show"), "view the text through $PAGER (secrets masked)"),
    ("j", ("skip", "later", "next"), "leave it undecided: asked again next pass"),
    ("b", ("back", "previous"), "back to the previous question"),
    ("q", ("quit",), "quit: stop here, then apply what you decided, or save it for later"),
    ("?", ("help", "h"), "this help"),
)
WHAT = {key: what for key, _, what in KEYS}
WORDS = (
    ("fidelity", "how well the repo still agrees with the memory: high, medium, low, failed "
                 "or unverifiable"),
    ("withdraw", "take a memory out of use into a tombstone under deaccessioned/ (a "
                 "deaccession); nothing is deleted"),
    ("register", "the table in pruning-log.md: one id per change, which `restore` takes"),
    ("SUPERSEDED", "a note naming an abandoned idea, so it is not re-derived"),
    ("strength", "how much the evidence proves: 5 safety (a secret, injected text), 4 a "
                 "conflict, 3 git history or an exact copy, 2 the memory's shape, 1 wording; "
                 "the strongest come first"),
    ("class", "proposals with the same kind of evidence and the same change: a accepts them "
              "all"),
)
_STRENGTH_WORDS: dict[int, str] = {Strength.SAFETY: "safety", Strength.CONFLICT: "a conflict",
                                   Strength.HISTORY: "history", Strength.SHAPE: "shape",
                                   Strength.WORDING: "wording"}
QUESTIONS = {
    Action.WITHDRAW: "Withdraw {file}?",
    Action.WITHDRAW_INOCULATE: "Withdraw {file} and write a SUPERSEDED note?",
    Action.INOCULATE: "Write a SUPERSEDED note for {file}?",
    Action.UPDATE: "Update {file}?",
    Action.REVIEW: "{file}: keep it, withdraw it or edit it?",
    Action.KEEP: "Keep {file}?",
}
DIFF_LINES = 24  # of a proposal's diff on its screen; d shows all of it


def prompt(item: Proposal, position: int, total: int, left: int, keys: Sequence[str]) -> str:
    """`[3/13, 10 left] Withdraw x.md? [y,n,…]`."""
    return f"[{position}/{total}, {left} left] {question(item)} [{','.join(keys)}] "


def question(item: Proposal) -> str:
    if item.repair is not None:
        return f"{_repair_verb(item.repair)}?"
    entry = item.entry
    assert entry is not None
    if item.partner is not None:
        return "Which stays? (n keeps both)"
    if entry.action is Action.FLAG:
        secret_line = "redact the secret in it" if entry.file.startswith("MEMORY.md#") \
            else "withdraw it"
        return f"{entry.file} holds a secret: {secret_line}?"
    return QUESTIONS.get(offered(entry), QUESTIONS[Action.REVIEW]).format(file=entry.file)


def _repair_verb(repair: JSON) -> str:
    kind = repair.get("kind")
    if kind == "drop-dangling":
        return f"Drop index line {repair.get('line')} (it links {repair.get('target')})"
    if kind == "index-orphan":
        return f"Index {repair.get('file')}"
    if kind == "fix-link":
        return f"Point index line {repair.get('line')} at {repair.get('to')}"
    return f"Rewrite index line {repair.get('line')}"


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


def help_lines(keys: Sequence[str], width: int) -> list[str]:
    """The keys that work here first, then the other keys, then the words."""
    here = [k for k, _, _ in KEYS if k in keys]
    other = [k for k, _, _ in KEYS if k not in keys]
    out: list[str] = ["Keys here (type one, or its word, then Enter):"]
    for key in here:
        out += wrap(f"  {key}  {WHAT[key]}", width, hang="     ")
    if other:
        out += wrap(f"Not for this question: {', '.join(other)}", width, hang="  ")
    out.append("Words:")
    for word, what in WORDS:
        out += wrap(f"  {word}: {what}", width, hang="      ")
    return out


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
