"""What the review shows: one screen per proposal, the prompt, the help, diffs and views.

Everything is wrapped here, at word boundaries, to the terminal's width (60 columns read as
well as 160), and printed without markup: memories hold brackets of their own. A secret is
always shown masked, in the memory's text and in every diff.
"""

from __future__ import annotations

import difflib

from prune_memory.evidence.classes import Strength, evidence_words
from prune_memory.model import Action
from prune_memory.plan import PlanEntry
from prune_memory.procedure.review import offered
from prune_memory.report.wrapping import wrap
from prune_memory.secrets.mask import mask_text

# (key, what it does) in the order the help lists them.
KEYS = (
    ("w", "withdraw: move it out of memory into deaccessioned/ (a tombstone); restore brings "
          "it back"),
    ("i", "withdraw and write a SUPERSEDED note, so the same conclusion is not drawn again"),
    ("n", "write the SUPERSEDED note only, and keep the memory"),
    ("u", "update: write the proposed text; its description and index line follow"),
    ("e", "edit the text in $EDITOR, then see the diff"),
    ("k", "keep it: not proposed again until the memory changes"),
    ("p", "protect it: never withdrawn or updated until unprotected (asks why)"),
    ("v", "view the memory's text (secrets masked)"),
    ("a", "accept the proposal, or the change its evidence suggests (y does the same)"),
    ("s", "skip: decide next time"),
    ("b", "back to the previous proposal"),
    ("q", "quit: stop here, then apply what you decided or save it for the next run"),
    ("?", "this help"),
)
WORDS = (
    ("fidelity", "how well the repo still agrees with the memory: high, medium, low, failed "
                 "or unverifiable"),
    ("withdraw", "take a memory out of use into a tombstone under deaccessioned/ (a "
                 "deaccession); nothing is deleted"),
    ("register", "the table in pruning-log.md: one id per change, which `restore` takes"),
    ("inoculate", "write a SUPERSEDED note naming an abandoned idea, so it is not "
                  "re-derived"),
    ("rule", "the decision-tree rule that made the proposal (README: The decision tree)"),
    ("strength", "how much the evidence proves: 5 safety (a secret, injected text), 4 a "
                 "conflict, 3 git history or an exact copy, 2 the memory's shape, 1 wording; "
                 "the strongest come first"),
    ("suggested", "a change the evidence points to, but not surely enough to run without a "
                  "person (references/judgment.md): a accepts it"),
)
_STRENGTH_WORDS: dict[int, str] = {Strength.SAFETY: "safety", Strength.CONFLICT: "a conflict",
                   Strength.HISTORY: "history", Strength.SHAPE: "shape",
                   Strength.WORDING: "wording"}
QUESTIONS = {
    Action.WITHDRAW: "Withdraw {file}?",
    Action.WITHDRAW_INOCULATE: "Withdraw {file} and write a SUPERSEDED note?",
    Action.INOCULATE: "Write a SUPERSEDED note for {file}?",
    Action.UPDATE: "Update {file}?",
    Action.FLAG: "{file} holds a secret. Withdraw it?",
    Action.REVIEW: "Decide on {file}: keep, withdraw or edit?",
    Action.KEEP: "Keep {file}?",
}
FIRST_KEY = {Action.WITHDRAW: "w", Action.WITHDRAW_INOCULATE: "i", Action.INOCULATE: "n",
             Action.UPDATE: "u", Action.FLAG: "w", Action.REVIEW: "k", Action.KEEP: "k"}


def keys_for(entry: PlanEntry) -> list[str]:
    """The keys the prompt lists for this proposal, the proposed (or suggested) one first."""
    action = offered(entry)
    first = "e" if action is Action.UPDATE and entry.proposed_text is None else FIRST_KEY[action]
    keys = [first, "w", "k"]
    if entry.proposed_text is not None:
        keys.append("u")
    if action in (Action.WITHDRAW_INOCULATE, Action.INOCULATE):
        keys += ["i", "n"]  # the other keys of the help (i, n, p, a) work everywhere
    keys += ["e", "v", "s", "b", "q", "?"]
    return list(dict.fromkeys(keys))


def prompt(entry: PlanEntry, position: int, total: int) -> str:
    """`[3/13] Withdraw x.md? [w,k,…]`; for a proposal held for review, the question is
    what its evidence suggests, and says so: `(suggested: the evidence is …)`."""
    question = QUESTIONS[offered(entry)].format(file=entry.file)
    if offered(entry) is not entry.action:
        question += f" (suggested: the evidence is {evidence_words(entry.evidence_class)})"
    return f"[{position}/{total}] {question} [{','.join(keys_for(entry))}] "


def legend(total: int, width: int, skipped_keeps: int) -> list[str]:
    text = (f"Review: {total} proposal{'s' if total != 1 else ''}, strongest evidence first "
            "(secrets and poison, contradictions, what git shows, shapes, wording). Where the "
            "evidence only suggests a change, the question says so, and a (accept) takes the "
            "suggestion. Type a key, then Enter. Nothing is written until you confirm at the "
            "end, and every change can be undone with `restore`. ? explains each key and the "
            "words used here.")
    if skipped_keeps:
        text += (f" {skipped_keeps} proposal(s) you kept before are not asked again while "
                 "those memories are unchanged.")
    return wrap(text, width)


def help_lines(width: int) -> list[str]:
    lines = [f"  {key}  {what}" for key, what in KEYS]
    words = [f"  {word}: {what}" for word, what in WORDS]
    out: list[str] = ["Keys (type one, then Enter):"]
    for line in lines:
        out += wrap(line, width, hang="     ")
    out.append("Words:")
    for line in words:
        out += wrap(line, width, hang="      ")
    return out


def entry_lines(entry: PlanEntry, width: int) -> list[str]:
    """Everything a reviewer needs for one decision, before the prompt."""
    lines = wrap(f"{entry.file} — {entry.cls.value}, fidelity {entry.fidelity}", width)
    lines += wrap(f"Proposed: {entry.action.value} (rule {entry.rule or '-'})"
                  + _suggestion(entry), width)
    if entry.evidence_class:
        lines += wrap(f"Evidence: {evidence_words(entry.evidence_class)} — "
                      f"{_STRENGTH_WORDS.get(entry.strength, 'unrated')} "
                      f"(strength {entry.strength} of 5)", width, hang="  ")
    if entry.reason:
        lines += wrap(f"Why: {mask_text(entry.reason)}", width, hang="  ")
    for finding in entry.findings:
        lines += wrap(f"- {finding.code.value}: {mask_text(finding.message)}", width,
                      indent="  ", hang="    ")
    return lines


def _suggestion(entry: PlanEntry) -> str:
    if offered(entry) is entry.action:
        return ""
    return f"; the evidence suggests {offered(entry).value}, a person decides"


def side_by_side(entry: PlanEntry, width: int) -> list[str]:
    """The two texts a near-duplicate or contradiction is about, one after the other."""
    evidence = next((f.evidence for f in entry.findings if "other_text" in f.evidence), None)
    if evidence is None:
        return []
    other = str(evidence.get("other_file", "the other memory"))
    lines = [f"This memory ({entry.file}):"]
    lines += wrap(mask_text(str(evidence.get("text", ""))), width, indent="  ")
    lines.append(f"The other ({other}):")
    lines += wrap(mask_text(str(evidence.get("other_text", ""))), width, indent="  ")
    return lines


def diff_lines(old: str, new: str, width: int, labels: tuple[str, str] = ("now", "after")
               ) -> list[str]:
    """A unified diff of two texts (secrets masked), each long line wrapped under itself."""
    body = difflib.unified_diff(mask_text(old).splitlines(), mask_text(new).splitlines(),
                                *labels, lineterm="", n=2)
    out: list[str] = []
    for line in body:
        sign, rest = line[:1], line[1:]
        out += wrap(rest, width, indent=sign, hang=" ") if sign in "+- " else [line]
    return out


def view_lines(file: str, text: str, width: int) -> list[str]:
    return [f"--- {file} ---", *wrap(mask_text(text), width), "--- end ---"]
